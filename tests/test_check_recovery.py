"""check reports every problem in one run: readers record an error and go
on with the next element; the library keeps raising on the first."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse import MultibodyPlant, ParseError, Parser, SceneGraph
from mbparse.lint import lint_file
from mbparse.loading import LoadOptions, load

DATA = Path(__file__).parent / "data" / "check"

PLANTED = {
    "planted.urdf": {("mesh-missing", 5), ("mass-negative", 8), ("inertia-triangle", 11),
                     ("limit-inverted", 13), ("urdf-unknown-link", 18)},
    "planted.sdf": {("mesh-missing", 6), ("mass-negative", 8), ("inertia-triangle", 11),
                    ("limit-inverted", 14), ("sdf-unknown-element", 20)},
    "planted.xml": {("limit-inverted", 4), ("axis-zero", 7), ("mass-negative", 8),
                    ("mjcf-unknown-mesh", 9), ("inertia-triangle", 11),
                    ("mjcf-unknown-joint", 17)},
    "planted.dmd.yaml": {("package-unknown", 2), ("file-missing", 5), ("model-unknown-name", 10),
                         ("dmd-unknown-frame", 14), ("package-unknown", 17)},
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_check_reports_every_planted_mistake_in_one_run(name):
    findings = lint_file(str(DATA / name))
    got = {(f.rule, f.line) for f in findings}
    assert PLANTED[name] <= got
    assert all(f.severity == "error" for f in findings if (f.rule, f.line) in PLANTED[name])


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_the_library_still_raises_on_the_first_planted_mistake(name):
    parser = Parser(MultibodyPlant(0.001), SceneGraph())
    parser.diagnostic_policy().emit = False
    with pytest.raises(ParseError):
        parser.add_models(str(DATA / name))


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_load_collecting_errors_returns_them_instead_of_raising(name):
    loaded = load(str(DATA / name), LoadOptions(collect_errors=True, like="drake"), finalize=False)
    # Drake only warns about impossible inertias; check makes those errors.
    assert len(loaded.errors) >= 3 and len(loaded.errors) + len(loaded.warnings) >= 5


def test_check_reports_each_of_31_missing_meshes(tmp_path):
    links = "".join(
        f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" '
        f'ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry><mesh filename="m{i}.obj"/>'
        f'</geometry></visual></link>\n' for i in range(31))
    joints = "".join(f'<joint name="j{i}" type="fixed"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/></joint>\n' for i in range(1, 31))
    path = tmp_path / "meshes.urdf"
    path.write_text(f'<robot name="r">\n{links}{joints}</robot>\n')
    missing = [f for f in lint_file(str(path)) if f.rule == "mesh-missing"]
    assert len(missing) == 31
    assert sorted(f.line for f in missing) == list(range(2, 33))


def test_check_goes_on_after_a_link_that_cannot_be_read(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r">\n<link/>\n<link name="a"/>\n'
                    '<joint name="j" type="bogus"><parent link="a"/><child link="a"/></joint>\n'
                    '<link name="b"><inertial><mass value="-1"/></inertial></link>\n</robot>\n')
    rules = [(f.rule, f.line) for f in lint_file(str(path))]
    assert ("urdf-attribute-missing", 2) in rules   # <link> without a name
    assert ("urdf-value-invalid", 4) in rules       # the joint's type
    assert ("mass-negative", 5) in rules            # the next link is still read


def test_check_goes_on_after_an_unreadable_mjcf_geom(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><worldbody>\n<body name="a">\n'
                    '<geom type="box" size="1"/>\n<geom type="sphere" size="-1"/>\n'
                    '<joint type="hinge" range="2 1"/>\n</body>\n</worldbody></mujoco>\n')
    rules = {(f.rule, f.line) for f in lint_file(str(path))}
    assert ("mjcf-element-missing", 3) in rules or ("mjcf-value-invalid", 3) in rules
    assert ("limit-inverted", 5) in rules


def test_check_does_not_repeat_errors_of_directives_that_depend_on_a_failed_one(tmp_path):
    path = tmp_path / "d.dmd.yaml"
    path.write_text("directives:\n- add_model:\n    name: arm\n    file: package://nowhere/a.urdf\n"
                    "- add_weld:\n    parent: world\n    child: arm::base\n"
                    "- add_frame:\n    name: arm::tool\n    X_PF:\n      base_frame: arm::link7\n")
    findings = lint_file(str(path))
    assert [(f.rule, f.line) for f in findings] == [("package-unknown", 2)]


def test_plant_level_problems_are_reported_after_loading(tmp_path):
    path = tmp_path / "loop.urdf"
    inertia = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
    path.write_text(f'<robot name="r">\n<link name="a">{inertia}</link>\n'
                    f'<link name="b">{inertia}</link>\n<link name="c">{inertia}</link>\n'
                    '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
                    '<joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>\n'
                    '<joint name="ca" type="fixed"><parent link="c"/><child link="a"/></joint>\n'
                    '<link name="d"><inertial><mass value="-3"/></inertial></link>\n</robot>\n')
    rules = {(f.rule, f.line) for f in lint_file(str(path))}
    assert ("mass-negative", 8) in rules
    assert any(rule == "kinematic-loop" and line in (5, 6, 7) for rule, line in rules)


def test_load_collecting_errors_keeps_the_plants_refusal_at_finalize(tmp_path):
    path = tmp_path / "loop.urdf"
    path.write_text('<robot name="r">\n<link name="a"/>\n<link name="b"/>\n'
                    '<joint name="x" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
                    '<joint name="y" type="fixed"><parent link="b"/><child link="a"/></joint>\n'
                    '</robot>\n')
    with pytest.raises(ParseError, match="loop"):
        load(str(path))
    (refusal,) = load(str(path), LoadOptions(collect_errors=True)).errors
    assert refusal.code == "kinematic-loop" and refusal.line in (4, 5)
