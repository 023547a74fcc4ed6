"""A xacro file that only defines macros (hector's quadrotor_base.urdf.xacro)
is a library for another xacro file, not a model: one located error naming
its macros, instead of a model of 0 bodies loaded with exit status 0."""
from __future__ import annotations

import pytest

from conftest import new_parser
from mbparse import ParseError
from mbparse.cli import main

pytest.importorskip("xacro")

NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')
MACROS = (f'<?xml version="1.0"?>\n<robot {NS}>\n'
          '<xacro:property name="M_PI" value="3.14159"/>\n'
          f'<xacro:macro name="quadrotor_base_macro">\n<link name="base_link">{INERTIAL}</link>\n'
          '</xacro:macro>\n<xacro:macro name="rotor"><link name="rotor"/></xacro:macro>\n'
          '</robot>\n')


def test_a_file_of_macros_only_is_one_located_error(tmp_path):
    path = tmp_path / "quadrotor_base.urdf.xacro"
    path.write_text(MACROS)
    with pytest.raises(ParseError) as e:
        new_parser().add_models(str(path))
    d = e.value.diagnostic
    assert (d.code, d.file, d.line) == ("xacro-macros-only", str(path), 4)
    assert "quadrotor_base_macro, rotor" in d.message


def test_the_cli_fails_on_it(tmp_path, capsys):
    path = tmp_path / "quadrotor_base.urdf.xacro"
    path.write_text(MACROS)
    assert main(["inspect", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:4: error: the file makes no <link>" in err


def test_a_file_calling_its_macro_loads(tmp_path):
    path = tmp_path / "quadrotor.urdf.xacro"
    path.write_text(MACROS.replace("</robot>", "<xacro:quadrotor_base_macro/>\n</robot>")
                    .replace("<robot ", '<robot name="q" '))
    parser = new_parser()
    parser.add_models(str(path))
    assert parser.plant().has_body_named("base_link")
