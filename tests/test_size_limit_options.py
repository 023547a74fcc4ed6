"""The size limits are defaults a user raises or lifts: ``--max-elements N``
and the other ``--max-...`` flags (0: no limit) and ``--no-size-limits`` on
every command, ``LoadOptions.size_limits`` and ``Parser.set_size_limits`` in
the API; a refusal names the flag that raises its limit. Small limits on
small files keep these tests quick."""
from __future__ import annotations

import json
import pickle

import pytest

from mbparse import MultibodyPlant, Parser
from mbparse.cli import build_parser, main
from mbparse.commands.loading import options_from_args
from mbparse.diagnostics import ParseError
from mbparse.limits import (DEFAULT_LIMITS, OPTION_OF, SizeLimits, current_limits,
                            applied_limits, call_with_limits, set_size_limits)
from mbparse.loading import LoadOptions, load

LINK = "<link name='l{i}'/>"


def chain_urdf(links: int) -> str:
    """``links`` links (each one element) joined by fixed joints (3 elements each)."""
    return ("<robot name='r'>\n" + "\n".join(LINK.format(i=i) for i in range(links)) + "\n"
            + "".join(f"<joint name='j{i}' type='fixed'><parent link='l{i - 1}'/>"
                      f"<child link='l{i}'/></joint>\n" for i in range(1, links)) + "</robot>\n")


def prism_obj(sides: int) -> str:
    """A closed prism of ``sides`` sides: 4 * sides - 4 triangles."""
    import math
    v = [f"v {math.cos(2 * math.pi * k / sides):.6f} {math.sin(2 * math.pi * k / sides):.6f} {z}"
         for z in (0, 1) for k in range(sides)]
    faces = ["f " + " ".join(str(k + 1) for k in reversed(range(sides))),
             "f " + " ".join(str(sides + k + 1) for k in range(sides))]
    faces += [f"f {k + 1} {(k + 1) % sides + 1} {sides + (k + 1) % sides + 1} {sides + k + 1}"
              for k in range(sides)]
    return "\n".join(v + faces) + "\n"


def sdf_model(links: int) -> str:
    return ('<sdf version="1.9"><model name="m">'
            + "".join(f'<link name="l{i}"/>' for i in range(links)) + "</model></sdf>")


XACRO = ("<robot name='r' xmlns:xacro='http://www.ros.org/wiki/xacro'>"
         "<xacro:property name='n' value='${{{}}}'/><link name='l${{n}}'/></robot>")

# (limit, its value here, the file name, the file's text, what else it needs)
# Each file is refused under the small limit and loads with the limit at 0.
CASES = {
    "max_elements": (10, "r.urdf", chain_urdf(4), {}),  # 1 + 4 + 3 * 3 = 14 elements
    "max_yaml_values": (5, "d.dmd.yaml", "directives:\n" + "".join(
        f"- add_model_instance:\n    name: n{i}\n" for i in range(3)), {}),
    "max_file_bytes": (100, "r.urdf", "<robot name='r'><link name='a'/></robot>" + " " * 100,
                       {}),
    "max_bodies": (3, "r.urdf", chain_urdf(4), {}),
    "max_mesh_triangles": (10, "m.obj", prism_obj(4), {}),  # 12 triangles
    "max_list_numbers": (9, "m.xml", '<mujoco model="m"><asset><mesh name="a" vertex="'
                         '0 0 0 1 0 0 0 1 0 0 0 1"/></asset><worldbody><body><geom type="mesh" '
                         'mesh="a"/></body></worldbody></mujoco>', {}),
    "max_attributes": (3, "r.urdf", "<robot name='r'><link name='a'><visual><origin a='1' b='2' "
                                    "c='3' d='4'/><geometry><box size='1 1 1'/></geometry>"
                                    "</visual></link></robot>", {}),
    "max_included_files": (2, "w.sdf", '<sdf version="1.9"><world name="w">' + "".join(
        f"<include><uri>file://{{here}}/m.sdf</uri><name>m{i}</name></include>" for i in range(3))
        + "</world></sdf>", {"m.sdf": sdf_model(1)}),
    "max_include_splices": (2, "main.xml", '<mujoco model="m"><worldbody>' + "".join(
        f'<body name="b{i}"><include file="part.xml"/></body>' for i in range(3))
        + "</worldbody></mujoco>", {"part.xml": '<mujoco><geom size="0.1"/></mujoco>'}),
    # (a string of 200 MB, made at once; a loop of 10**8 steps that keeps nothing)
    "max_xacro_memory": (100 << 20, "r.urdf.xacro",
                         XACRO.format("len(&quot;a&quot; * 200000000)"), {}),
    "max_xacro_seconds": (1, "r.urdf.xacro", XACRO.format(
        "len([k for k in range(100000000) if k &lt; 0])"), {}),
    "max_replicated_elements": (5, "m.xml", '<mujoco model="m"><worldbody><replicate count="3" '
                                "offset='1 0 0'><body name='b'><geom size='0.1'/></body>"
                                "</replicate></worldbody></mujoco>", {}),
}


def test_every_limit_has_a_case_and_a_flag():
    assert set(CASES) == set(SizeLimits._fields) == set(OPTION_OF)


@pytest.fixture(autouse=True)
def limits_in_force_restored():
    """A load with limits leaves them in force in the thread: each test
    starts and ends with the defaults."""
    set_size_limits(DEFAULT_LIMITS)
    yield
    set_size_limits(DEFAULT_LIMITS)


def _write_case(write, field):
    limit, name, text, others = CASES[field]
    for other, other_text in others.items():
        here = write(other, other_text).parent
    if "{here}" in text:
        text = text.replace("{here}", str(here))
    return limit, write(name, text)


@pytest.mark.parametrize("field", sorted(CASES))
def test_a_file_past_a_small_limit_is_refused_with_a_message_naming_its_flag(write, field):
    limit, path = _write_case(write, field)
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(size_limits=SizeLimits(**{field: limit})))
    d = info.value.diagnostic
    assert OPTION_OF[field] in d.message and f"SizeLimits.{field}" in d.message
    assert d.code == ("xacro-error" if field.startswith("max_xacro") else "size-limit")


@pytest.mark.parametrize("field", sorted(set(CASES) - {"max_xacro_seconds"}))
def test_the_same_file_loads_with_that_limit_lifted(write, field):
    limit, path = _write_case(write, field)
    lifted = SizeLimits(**{field: 0})
    loaded = load(str(path), LoadOptions(size_limits=lifted))
    assert loaded.plant.num_model_instances() >= 2


@pytest.mark.parametrize("field", ["max_elements", "max_bodies", "max_attributes"])
def test_a_limit_at_the_files_own_count_loads_it(write, field):
    counts = {"max_elements": 14, "max_bodies": 4, "max_attributes": 4}
    _, path = _write_case(write, field)
    load(str(path), LoadOptions(size_limits=SizeLimits(**{field: counts[field]})))
    with pytest.raises(ParseError):
        load(str(path), LoadOptions(size_limits=SizeLimits(**{field: counts[field] - 1})))


def test_the_parser_takes_limits_for_its_parses_and_leaves_the_ones_in_force_after():
    parser = Parser(MultibodyPlant(0.0))
    assert parser.get_size_limits() == DEFAULT_LIMITS
    with applied_limits(SizeLimits(max_elements=5)):  # (the ones in force, unless it has its own)
        assert parser.get_size_limits().max_elements == 5
    parser.set_size_limits(SizeLimits(max_elements=10))
    with pytest.raises(ParseError, match="--max-elements"):
        parser.add_models_from_string(chain_urdf(4), "urdf")
    assert current_limits() == DEFAULT_LIMITS
    parser.set_size_limits(SizeLimits.none())
    assert len(parser.add_models_from_string(chain_urdf(4), "urdf")) == 1
    with pytest.raises(TypeError):
        parser.set_size_limits(10)


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True])
def test_a_limit_is_a_whole_number_zero_or_more(bad):
    with pytest.raises(ValueError, match="max_bodies"):
        SizeLimits(max_bodies=bad)


def test_size_limits_pickle_with_the_load_options():
    options = LoadOptions(size_limits=SizeLimits(max_elements=7))
    assert pickle.loads(pickle.dumps(options)).size_limits == SizeLimits(max_elements=7)


def test_meshes_read_after_the_parse_are_read_under_the_limits_in_force(write):
    """A mesh read after the parse (a hull, an inertia, a conversion) is
    read under the limits in force then, cached or not; the commands run
    each file's whole work under its limits (call_with_limits)."""
    from mbparse.geometry.meshes import MeshReadError, read_mesh
    mesh = str(write("m.obj", prism_obj(4)))
    assert len(call_with_limits(SizeLimits(max_mesh_triangles=100), read_mesh, mesh).faces) == 12
    with pytest.raises(MeshReadError, match="--max-mesh-triangles"):
        call_with_limits(SizeLimits(max_mesh_triangles=10), read_mesh, mesh)
    assert current_limits() == DEFAULT_LIMITS
    with applied_limits(SizeLimits(max_mesh_triangles=10)):
        with pytest.raises(MeshReadError):
            read_mesh(mesh)


def test_a_load_applies_its_limits_to_its_parse_only(write):
    path = str(write("r.urdf", chain_urdf(4)))
    with pytest.raises(ParseError):
        load(path, LoadOptions(size_limits=SizeLimits(max_bodies=3)))
    assert current_limits() == DEFAULT_LIMITS
    with applied_limits(SizeLimits(max_bodies=3)):  # (none of its own: those in force)
        with pytest.raises(ParseError, match="--max-bodies"):
            load(path)


# ---------------------------------------------------------------- command line
def _args(command: str, *argv: str):
    return build_parser(command).parse_args([command, *argv])


@pytest.mark.parametrize("command, positional", [
    ("inspect", ["r.urdf"]), ("check", ["r.urdf"]), ("convert", ["r.urdf", "--to", "sdf"]),
    ("tree", ["r.urdf"]), ("view", ["r.urdf"])])
def test_every_command_takes_every_limit_flag(command, positional):
    in_bytes = ("max_file_bytes", "max_xacro_memory")
    argv = positional + [arg for field, option in OPTION_OF.items()
                         for arg in (option, "123K" if field in in_bytes else "17")]
    limits = options_from_args(_args(command, *argv)).size_limits
    assert limits.max_file_bytes == limits.max_xacro_memory == 123 * 1024
    assert all(getattr(limits, f) == 17 for f in OPTION_OF if f not in in_bytes)
    assert options_from_args(_args(command, *positional)).size_limits == DEFAULT_LIMITS


def test_no_size_limits_lifts_them_all_and_a_flag_given_with_it_still_applies():
    limits = options_from_args(_args("inspect", "r.urdf", "--no-size-limits",
                                     "--max-bodies", "5")).size_limits
    assert limits == SizeLimits(**{f: 5 if f == "max_bodies" else 0 for f in OPTION_OF})


@pytest.mark.parametrize("value", ["-1", "many", "1.5"])
def test_a_bad_limit_flag_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as info:
        _args("inspect", "r.urdf", "--max-elements", value)
    assert info.value.code == 2 and "--max-elements" in capsys.readouterr().err


def test_inspect_refuses_past_max_elements_naming_the_flag_and_loads_with_it_raised(
        write, capsys):
    path = str(write("r.urdf", chain_urdf(4)))
    assert main(["inspect", "--json", "--max-elements", "10", path]) == 1
    line = json.loads(capsys.readouterr().out)
    assert "--max-elements" in line["error"]
    assert main(["inspect", "--json", "--max-elements", "0", path]) == 0
    assert len(json.loads(capsys.readouterr().out)["bodies"]) == 4


def test_worker_processes_get_the_limits(write, capsys):
    paths = [str(write(f"r{i}.urdf", chain_urdf(4))) for i in range(2)]
    assert main(["inspect", "--json", "-j", "2", "--max-bodies", "3", *paths]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == paths
    assert all("--max-bodies" in line["error"] for line in lines)


def test_check_reports_the_refusal_with_the_flag(write, capsys):
    path = str(write("r.urdf", chain_urdf(4)))
    assert main(["check", "--no-config", "--format", "json", "--max-bodies", "3", path]) == 1
    report = json.loads(capsys.readouterr().out)
    assert any("--max-bodies" in f["message"] for f in report["findings"])
    assert main(["check", "--no-config", "--format", "json", "--no-size-limits", path]) == 0


def test_convert_and_tree_take_the_flags(write, capsys, tmp_path):
    path = str(write("r.urdf", chain_urdf(4)))
    assert main(["convert", path, "--to", "mjcf", "--max-bodies", "3"]) == 1
    assert "--max-bodies" in capsys.readouterr().err
    assert main(["convert", path, "--to", "mjcf", "--max-bodies", "4"]) == 0
    assert main(["tree", path, "--max-elements", "10"]) == 1
    assert "--max-elements" in capsys.readouterr().err
    assert main(["tree", path, "--max-elements", "14"]) == 0
