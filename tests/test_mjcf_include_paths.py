"""Files named in an included MJCF file: MuJoCo looks for them relative to the
main file's folder (and ``meshdir``) first, and when nothing is there, relative
to the folder of the included file. The default mode does the same, with a
warning that Drake (which looks only at the first place) refuses the file."""
from __future__ import annotations

import pytest

from conftest import new_parser
from mbparse import ParseError
from test_mjcf_meshes import TETRA, binary_stl

MAIN = ('<mujoco model="m">\n  <include file="robot/assets.xml"/>\n'
        '  <worldbody><body name="b"><freejoint/><geom type="mesh" mesh="tet" density="6"/>'
        '</body></worldbody>\n</mujoco>\n')
ASSETS = ('<mujocoinclude>\n  <asset>\n    <mesh name="tet" file="{file}"/>\n  </asset>\n'
          '</mujocoinclude>\n')


def stl(path, triangles=TETRA):
    path.parent.mkdir(parents=True, exist_ok=True)
    return binary_stl(path, triangles)


def load(main, like_drake: bool = False):
    parser = new_parser(like_drake=like_drake)
    parser.add_models(str(main))
    return parser


def test_a_mesh_named_relative_to_its_included_file_is_found_there_with_a_warning(
        tmp_path, write):
    stl(tmp_path / "robot" / "meshes" / "tet.stl", TETRA)
    write("robot/assets.xml", ASSETS.format(file="meshes/tet.stl"))
    parser = load(write("main.xml", MAIN))
    assert parser.plant().get_body_by_name("b").default_spatial_inertia.mass == \
        pytest.approx(1.0)  # density 6 times the tetrahedron's 1/6
    (w,) = [d for d in parser.diagnostic_policy().warnings_seen if d.code == "drake-refuses"
            and "relative to the included file" in d.message]
    assert w.file.endswith("assets.xml") and w.line == 3


def test_the_main_files_folder_wins_when_the_mesh_is_in_both_places(tmp_path, write):
    stl(tmp_path / "robot" / "meshes" / "tet.stl", TETRA)
    stl(tmp_path / "meshes" / "tet.stl", [tuple(tuple(2 * x for x in v) for v in t)
                                                 for t in TETRA])
    write("robot/assets.xml", ASSETS.format(file="meshes/tet.stl"))
    parser = load(write("main.xml", MAIN))
    # The main folder's tetrahedron is twice as large: eight times the volume.
    assert parser.plant().get_body_by_name("b").default_spatial_inertia.mass == \
        pytest.approx(8.0)
    assert not [d for d in parser.diagnostic_policy().warnings_seen
                if "relative to the included file" in d.message]


def test_drakes_mode_looks_only_relative_to_the_main_file(tmp_path, write):
    stl(tmp_path / "robot" / "meshes" / "tet.stl", TETRA)
    write("robot/assets.xml", ASSETS.format(file="meshes/tet.stl"))
    with pytest.raises(ParseError, match="was not found"):
        load(write("main.xml", MAIN), like_drake=True)


def test_a_nested_include_is_found_relative_to_the_file_that_includes_it(tmp_path, write):
    stl(tmp_path / "robot" / "meshes" / "tet.stl", TETRA)
    write("robot/assets.xml", '<mujocoinclude><include file="more.xml"/></mujocoinclude>\n')
    write("robot/more.xml", ASSETS.format(file="meshes/tet.stl"))
    parser = load(write("main.xml", MAIN))
    assert parser.plant().has_body_named("b")


def test_a_mesh_in_neither_place_is_a_located_error_naming_the_main_files_place(write):
    write("robot/assets.xml", ASSETS.format(file="meshes/none.stl"))
    with pytest.raises(ParseError) as info:
        load(write("main.xml", MAIN))
    assert "assets.xml:3" in str(info.value) and "none.stl" in str(info.value)
