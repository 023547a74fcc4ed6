"""Include bombs: files that include the same file twice, level after level,
would make 2**30 copies. Each format stops at a limit named in a located
error (code size-limit) within seconds, in both modes; a model that
includes the same file many times below the limit loads."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mbparse.diagnostics import ParseError
from mbparse.formats.mjcf.document import MAX_INCLUDE_EXPANSIONS
from mbparse.loading import LoadOptions, load
from mbparse.workspace import MAX_INCLUDED_FILES

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fuzz.run import run_with_limit  # noqa: E402

LEVELS = 30


def sdf_bomb(folder: Path) -> Path:
    for i in range(LEVELS):
        includes = "" if i == LEVELS - 1 else "".join(
            f"<include><uri>file://{folder}/m{i + 1}.sdf</uri><name>{k}</name></include>"
            for k in "ab")
        (folder / f"m{i}.sdf").write_text(
            f'<sdf version="1.9"><model name="m{i}"><link name="l"/>{includes}</model></sdf>')
    return folder / "m0.sdf"


def mjcf_bomb(folder: Path) -> Path:
    for i in range(1, LEVELS):
        includes = "" if i == LEVELS - 1 else f'<include file="x{i + 1}.xml"/>' * 2
        (folder / f"x{i}.xml").write_text(
            f'<mujoco><body><geom size="0.1"/></body>{includes}</mujoco>')
    (folder / "x0.xml").write_text('<mujoco model="bomb"><worldbody><include file="x1.xml"/>'
                                   '<include file="x1.xml"/></worldbody></mujoco>')
    return folder / "x0.xml"


def dmd_bomb(folder: Path) -> Path:
    (folder / "leaf.sdf").write_text('<sdf version="1.9"><model name="leaf"><link name="l"/>'
                                     '</model></sdf>')
    for i in range(LEVELS):
        text = f"directives:\n- add_model:\n    name: m\n    file: file://{folder}/leaf.sdf\n"
        if i < LEVELS - 1:
            for k in "ab":
                text += (f"- add_model_instance:\n    name: {k}\n- add_directives:\n"
                         f"    file: file://{folder}/d{i + 1}.dmd.yaml\n    model_namespace: {k}\n")
        (folder / f"d{i}.dmd.yaml").write_text(text)
    return folder / "d0.dmd.yaml"


@pytest.mark.parametrize("like", ["default", "drake"])
@pytest.mark.parametrize("make,limit", [(sdf_bomb, MAX_INCLUDED_FILES),
                                        (dmd_bomb, MAX_INCLUDED_FILES),
                                        (mjcf_bomb, MAX_INCLUDE_EXPANSIONS)],
                         ids=["sdf", "dmd", "mjcf"])
def test_an_include_bomb_is_a_located_error_naming_the_limit(tmp_path, make, limit, like):
    main = make(tmp_path)

    def attempt():
        with pytest.raises(ParseError) as info:
            load(str(main), LoadOptions(like=like))
        return info.value.diagnostic

    d = run_with_limit(attempt, 60.0)
    assert d.code == "size-limit"
    assert f"{limit:,}" in d.message and "include" in d.message
    assert d.file and Path(d.file).parent == tmp_path and d.line is not None


def test_an_sdf_world_including_one_model_many_times_below_the_limit_loads(tmp_path):
    (tmp_path / "box.sdf").write_text('<sdf version="1.9"><model name="box"><link name="l"/>'
                                      '</model></sdf>')
    includes = "".join(f"<include><uri>file://{tmp_path}/box.sdf</uri><name>b{i}</name>"
                       "</include>" for i in range(300))
    (tmp_path / "w.sdf").write_text(f'<sdf version="1.9"><world name="w">{includes}</world></sdf>')
    assert load(str(tmp_path / "w.sdf")).plant.num_bodies() == 301


def test_an_mjcf_file_included_twice_loads_with_a_warning_that_mujoco_refuses_it(tmp_path):
    (tmp_path / "part.xml").write_text('<mujoco><body><geom size="0.1"/></body></mujoco>')
    (tmp_path / "m.xml").write_text('<mujoco model="m"><worldbody>\n<include file="part.xml"/>\n'
                                    '<include file="part.xml"/>\n</worldbody></mujoco>')
    loaded = load(str(tmp_path / "m.xml"))
    assert loaded.plant.num_bodies() == 3  # the world and two copies, as Drake builds
    repeated = [w for w in loaded.warnings if w.code == "mjcf-include-repeated"]
    assert len(repeated) == 1 and repeated[0].line == 3
    assert "MuJoCo refuses" in repeated[0].message and "m.xml:2" in repeated[0].message
