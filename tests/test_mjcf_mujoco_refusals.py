"""MJCF where MuJoCo and Drake disagree on whether a file loads (issue 29,
items 2 and 4): a negative joint damping (MuJoCo compiles it, Drake refuses
it), a sphere or plane without a size, an <inertial> without pos and a free
joint on a nested body (MuJoCo refuses them, Drake reads them), and box or
ellipsoid geoms with fromto (MuJoCo makes them, Drake leaves them out).
Where the installed MuJoCo is there, each case is checked against it too."""
from __future__ import annotations

import pytest

from conftest import Parsed, new_parser
from mbparse import ParseError
from mbparse.description import facts
from mbparse.formats.mjcf.mujoco_refuses import MUJOCO_VERSION
from mbparse.lint import lint_file


def parse(text: str, like_drake: bool = False) -> Parsed:
    parser = new_parser(like_drake=like_drake)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


def coded(p: Parsed, code: str) -> list:
    return [d for d in p.parser.diagnostic_policy().warnings_seen if d.code == code]


def mujoco_compiles(text: str) -> str | None:
    """None when the installed MuJoCo compiles ``text``, else its message."""
    mujoco = pytest.importorskip("mujoco")
    try:
        mujoco.MjModel.from_xml_string(text)
    except ValueError as e:
        return str(e)
    return None


DAMPING = ('<mujoco model="m">\n<worldbody>\n<body name="b">\n'
           '<joint name="j" type="hinge" damping="-0.5"/>\n<geom size="0.1"/>\n'
           '</body>\n</worldbody>\n</mujoco>\n')
REFUSED = {
    "sphere": ('<mujoco model="m">\n<worldbody>\n<body name="b">\n<joint name="j"/>\n'
               '<geom name="g" type="sphere"/>\n</body>\n</worldbody>\n</mujoco>\n',
               "size 0 must be positive in geom"),
    "plane": ('<mujoco model="m">\n<worldbody>\n<geom name="g" type="plane" size="1 1"/>\n'
              '</worldbody>\n</mujoco>\n', "plane size(3) must be positive"),
    "inertial": ('<mujoco model="m">\n<worldbody>\n<body name="b">\n<joint name="j"/>\n'
                 '<inertial mass="2" diaginertia="1 1 1"/>\n</body>\n</worldbody>\n</mujoco>\n',
                 "required attribute missing: 'pos'"),
    "nested free": ('<mujoco model="m">\n<worldbody>\n<body name="a" pos="0 0 1">\n'
                    '<joint name="h"/>\n<geom size="0.1"/>\n<body name="b" pos="0 0 0.5">\n'
                    '<freejoint name="f"/>\n<geom type="box" size="0.1 0.1 0.1"/>\n</body>\n'
                    '</body>\n</worldbody>\n</mujoco>\n',
                    "free joint can only be used on top level"),
}
REFUSED_LINE = {"sphere": 5, "plane": 3, "inertial": 5, "nested free": 7}


# ------------------------------------------------------------ negative damping
def test_a_negative_damping_loads_in_the_default_mode_with_a_located_warning():
    assert mujoco_compiles(DAMPING) is None
    p = parse(DAMPING)
    joint = p.plant.get_joint_by_name("j")
    assert joint.damping == [0.0]                      # the plant stays Drake's
    assert facts(joint)["damping"] == [-0.5]           # the value, for conversions
    (w,) = coded(p, "joint-damping-negative")
    assert w.line == 4 and "Drake refuses this" in w.message and "-0.5" in w.message


def test_a_negative_damping_is_refused_like_drake():
    with pytest.raises(ParseError, match="damping must be non-negative") as e:
        parse(DAMPING, like_drake=True)
    assert e.value.diagnostic.line == 4


# ------------------------------------------------------------ what MuJoCo refuses
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_mujoco_refuses_loads_as_drake_reads_it_with_mujocos_reason(case):
    text, reason = REFUSED[case]
    refused = mujoco_compiles(text)
    assert refused is not None and reason in refused   # MuJoCo's own words
    for like_drake in (False, True):
        p = parse(text, like_drake=like_drake)
        (w,) = coded(p, "mjcf-mujoco-refuses")
        assert w.line == REFUSED_LINE[case]
        assert f'MuJoCo {MUJOCO_VERSION} refuses this ("{reason}")' in w.message


def test_the_messages_name_the_installed_mujoco():
    mujoco = pytest.importorskip("mujoco")
    assert mujoco.mj_versionString() == MUJOCO_VERSION


def test_an_inertial_without_pos_has_its_center_at_the_body_origin():
    p = parse(REFUSED["inertial"][0])
    inertia = p.plant.get_body_by_name("b").default_spatial_inertia
    assert inertia.mass == 2.0 and inertia.com == (0.0, 0.0, 0.0)


def test_a_free_joint_on_a_nested_body_floats_free_of_its_parent_as_in_drake():
    for like_drake in (False, True):
        p = parse(REFUSED["nested free"][0], like_drake=like_drake)
        p.plant.finalize()
        b = p.plant.get_body_by_name("b")
        joint = p.plant.get_joint_by_name("b")  # the floating joint finalize gives it
        assert joint.type_name == "quaternion_floating" and joint.child_body is b
        assert b.default_free_body_pose.p == (0.0, 0.0, 1.5)
        assert not p.plant.has_joint_named("f")


def test_every_geom_of_a_size_mujoco_refuses_is_named():
    text = ('<mujoco model="m"><worldbody><geom name="a" type="plane" size="1 1 0"/>'
            '<geom name="b" type="box" size="1 1 1"/><geom name="c" size="0"/>'
            '<geom name="d" size="0"/><geom name="e" type="plane" size="1 1 1"/></worldbody>'
            '</mujoco>')
    p = parse(text)
    told = [d.message for d in coded(p, "mjcf-mujoco-refuses")]
    assert len(told) == 3 and "'a'" in told[0] and "plane size(3) must be positive" in told[0]
    assert ["'c'" in told[1], "'d'" in told[2]] == [True, True]
    assert "size 0 must be positive" in told[2]
    assert mujoco_compiles(text.replace('size="1 1 0"', 'size="1 1 1"').replace(
        'size="0"', 'size="1"')) is None


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_check_for_mujoco_reports_each_refusal_as_an_error(tmp_path, case):
    path = tmp_path / "m.xml"
    path.write_text(REFUSED[case][0])
    plain = [f for f in lint_file(str(path)) if f.rule == "mjcf-mujoco-refuses"]
    assert [f.severity for f in plain] == ["warning"]
    findings = lint_file(str(path), consumers=("mujoco",))
    refusals = [f for f in findings if f.rule == "for-mujoco-refuses"]
    assert [(f.severity, f.line) for f in refusals] == [("error", REFUSED_LINE[case])]
    assert not [f for f in findings if f.rule == "mjcf-mujoco-refuses"]


def test_check_for_mujoco_makes_an_unknown_attribute_an_error(tmp_path):
    text = ('<mujoco model="m">\n<worldbody>\n<body name="b">\n<joint name="j" rnage="0 1"/>\n'
            '<geom size="0.1"/>\n</body>\n</worldbody>\n</mujoco>\n')
    assert "unrecognized attribute" in mujoco_compiles(text)
    path = tmp_path / "m.xml"
    path.write_text(text)
    assert [f.severity for f in lint_file(str(path)) if f.rule == "mjcf-unknown-attribute"] \
        == ["warning"]
    refusals = [f for f in lint_file(str(path), consumers=("mujoco",))
                if f.rule == "for-mujoco-refuses"]
    assert [(f.severity, f.line) for f in refusals] == [("error", 4)]
    assert "Did you mean 'range'?" in refusals[0].message


# ------------------------------------------------------------ Drake's mode: fromto boxes
FROMTO = ('<mujoco model="m">\n<worldbody>\n<body name="a">\n<joint name="h"/>\n'
          '<geom name="g" type="{kind}" fromto="0 0 0 0 0 1" size="0.1"/>\n'
          '<geom name="s" size="0.1"/>\n</body>\n</worldbody>\n</mujoco>\n')


@pytest.mark.parametrize("kind", ["box", "ellipsoid"])
def test_a_fromto_box_or_ellipsoid_is_left_out_like_drake_with_drakes_warning(kind):
    p = parse(FROMTO.format(kind=kind), like_drake=True)
    assert sorted({g.name for g in p.geometries()}) == ["m::s"]
    assert f"The fromto tag for {kind} is currently unsupported; geom g will be ignored." \
        in p.warnings
    sphere = 4 / 3 * 3.141592653589793 * 0.1 ** 3 * 1000
    assert p.plant.get_body_by_name("a").default_spatial_inertia.mass == pytest.approx(sphere)


def test_a_fromto_box_is_mujocos_in_the_default_mode():
    text = FROMTO.format(kind="box")
    p = parse(text)
    assert {g.name for g in p.geometries()} == {"m::g", "m::s"}
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(text)
    assert p.plant.get_body_by_name("a").default_spatial_inertia.mass == \
        pytest.approx(model.body_mass[1])


# ------------------------------------------------------------ the MuJoCo the messages name
def test_the_schema_and_the_refusals_name_one_mujoco_version():
    from mbparse.formats.mjcf.schema import schema
    assert schema().mujoco_version == MUJOCO_VERSION


@pytest.mark.parametrize("text, known", [
    # measured by tools/measure_mjcf_schema.py: what MuJoCo 4 dropped, and added
    ('<mujoco><worldbody><body><composite type="grid" count="2 2 1"/></body></worldbody>'
     '</mujoco>', False),
    ('<mujoco><worldbody><body><joint springyield="1"/><geom size="1"/></body></worldbody>'
     '</mujoco>', True),
    ('<mujoco><compiler savecompiled="false"/></mujoco>', True),
])
def test_the_schema_is_the_installed_mujocos(text, known):
    refused = mujoco_compiles(text)
    assert (refused is None or "Schema violation" not in refused) == known
    p = parse(text.replace("<mujoco>", '<mujoco model="m">'))
    unknown = [d for d in p.parser.diagnostic_policy().warnings_seen
               if d.code in ("mjcf-unknown-element", "mjcf-unknown-attribute")]
    assert (not unknown) == known
    assert all(f"MuJoCo {MUJOCO_VERSION}" in d.message for d in unknown)
