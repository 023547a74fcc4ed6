"""A single value of megabytes: a value meant to hold a few numbers that does
not read as them is refused (code size-limit, or MJCF's own count error)
before its megabytes are read number by number; the right numbers padded
with any amount of whitespace still read; an MJCF list (a mesh's 'vertex',
'face') holds at most MAX_LIST_NUMBERS numbers."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions, load
from mbparse.workspace import MAX_LIST_NUMBERS, MAX_NUMBERS_TEXT

LONG = " 0" * (MAX_NUMBERS_TEXT // 2 + 10)


def refusal(path, like: str = "default", limits=None):
    options = LoadOptions(like=like) if limits is None else LoadOptions(like=like,
                                                                        size_limits=limits)
    with pytest.raises(ParseError) as info:
        load(str(path), options)
    return info.value.diagnostic


def urdf(origin_xyz: str, mass: str = "1") -> str:
    return (f'<robot name="r">\n<link name="a"><inertial><mass value="{mass}"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>\n'
            f'<visual><origin xyz="{origin_xyz}"/><geometry><box size="1 1 1"/></geometry>'
            '</visual></link></robot>')


@pytest.mark.parametrize("like", ["default", "drake"])
@pytest.mark.parametrize("xyz, mass, line, what", [
    (LONG, "1", 3, "'xyz' of <origin> should be 3 numbers"),
    ("1 2 3", "1" + " x" * MAX_NUMBERS_TEXT, 2, "'value' of <mass> should be 1 number,")])
def test_a_long_urdf_value_that_is_not_its_numbers_is_a_size_limit_error(write, like, xyz,
                                                                         mass, line, what):
    d = refusal(write("r.urdf", urdf(xyz, mass)), like)
    assert (d.code, d.line) == ("size-limit", line)
    assert what in d.message and f"{MAX_NUMBERS_TEXT:,}" in d.message
    assert len(d.message) < 400


def test_a_short_value_of_too_many_numbers_keeps_its_reading(write):
    # (below the limit: read as before, the first three with a note)
    loaded = load(str(write("r.urdf", urdf("1 2 3 4"))))
    assert [d.code for d in loaded.warnings] == ["drake-refuses"]


def test_the_right_numbers_padded_with_megabytes_of_whitespace_read(write):
    loaded = load(str(write("r.urdf", urdf("1 2 3" + " " * (4 * MAX_NUMBERS_TEXT)))))
    [geometry] = loaded.plant.scene_graph.geometries()
    assert tuple(geometry.X_BG.p) == (1.0, 2.0, 3.0)


def test_a_long_mjcf_position_is_refused_by_its_count(write):
    d = refusal(write("m.xml", f'<mujoco model="m"><worldbody>\n<body pos="{LONG}">'
                               '<geom size="1"/></body></worldbody></mujoco>'))
    assert (d.code, d.line) == ("mjcf-value-invalid", 2)
    assert "needs 3 number(s); it has more" in d.message


def mesh_xml(vertex: str, face: str = "0 1 2") -> str:
    return (f'<mujoco model="m"><asset>\n<mesh name="m" vertex="{vertex}" face="{face}"/>'
            '</asset><worldbody><body><geom type="mesh" mesh="m"/></body></worldbody></mujoco>')


def test_an_mjcf_list_past_the_limit_is_a_size_limit_error(write):
    d = refusal(write("m.xml", mesh_xml("0 " * (MAX_LIST_NUMBERS + 3))))
    assert (d.code, d.line) == ("size-limit", 2)
    assert f"{MAX_LIST_NUMBERS:,}" in d.message and "'vertex'" in d.message


def test_a_long_mjcf_list_within_the_limit_reads(write):
    n = 20_000
    vertex = " ".join(f"{i} {i % 7} {i % 5}.5" for i in range(n))  # (longer than a kept text)
    face = " ".join(f"0 {i} {i + 1}" for i in range(1, n - 1))
    loaded = load(str(write("m.xml", mesh_xml(vertex, face))))
    assert loaded.plant.num_bodies() == 2


@pytest.mark.parametrize("face", ["0 1 2.5", "0 1 -2", "0 1 1e300", "0 1"])
def test_mjcf_faces_must_be_whole_indices_three_a_triangle(write, face):
    d = refusal(write("m.xml", mesh_xml("0 0 0 1 0 0 0 1 0", face)))
    assert (d.code, d.line) == ("value-out-of-range", 2)


def test_the_size_limit_rule_names_the_value_limits():
    from mbparse.lint.rules import RULES
    summary = RULES["size-limit"].summary
    assert f"{MAX_LIST_NUMBERS:,} numbers" in summary and f"{MAX_NUMBERS_TEXT:,} characters" in summary


@pytest.fixture
def small_file_limit():
    from mbparse.limits import SizeLimits
    return SizeLimits(max_file_bytes=1000)


@pytest.mark.parametrize("name", ["r.urdf", "m.sdf", "m.xml", "d.dmd.yaml", "m.obj",
                                  "r.urdf.xacro"])
def test_a_model_file_past_the_byte_limit_is_refused_unread(write, small_file_limit, name):
    d = refusal(write(name, " " * 1001), limits=small_file_limit)
    assert d.code == "size-limit" and d.file.endswith(name)
    assert "1,001 bytes, more than the 1,000 bytes" in d.message


def test_model_text_past_the_byte_limit_is_refused(small_file_limit):
    from mbparse import MultibodyPlant, Parser
    parser = Parser(MultibodyPlant(0.0))
    parser.set_size_limits(small_file_limit)
    with pytest.raises(ParseError) as info:
        parser.add_models_from_string("<robot name='r'/>" + " " * 1000, "urdf")
    assert info.value.diagnostic.code == "size-limit"


def test_the_byte_limit_is_the_one_the_docs_and_the_rule_name():
    from pathlib import Path
    from mbparse.lint.rules import RULES
    from mbparse.workspace import MAX_MODEL_FILE_BYTES
    said = f"{MAX_MODEL_FILE_BYTES // 2 ** 20} MiB"
    page = (Path(__file__).resolve().parents[1] / "docs" / "ROBUSTNESS.md").read_text()
    assert f"model text) of more than {said}" in " ".join(page.split())
    assert f"a model file of more than {said}" in RULES["size-limit"].summary
