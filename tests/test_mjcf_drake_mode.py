"""MJCF read like Drake 1.51 (``--like drake``) and in the default mode
(MuJoCo's meaning): sites, <joint>/<weld>/<connect> equalities, constraints
on a plant that cannot hold them, and mesh files other than OBJ."""
from __future__ import annotations

import pytest

from conftest import Parsed, line_of, new_parser
from mbparse import ParseError
from test_mjcf_meshes import TETRA, binary_stl, one_mesh_model

SITES = ('<mujoco model="m">\n<worldbody>\n<site name="ws"/>\n'
         '<body name="b"><joint name="j"/><geom size="1"/><site name="s" pos="0 0 1"/>\n'
         '</body>\n</worldbody>\n</mujoco>\n')

EQUALITY = ('<mujoco model="m">\n<worldbody>\n'
            '<body name="a" pos="0 0 1"><joint name="j1"/><geom size="0.1"/><site name="sa"/>\n'
            '<body name="b" pos="0 0 1"><joint name="j2"/><geom size="0.1"/><site name="sb"/>\n'
            '</body></body>\n</worldbody>\n<equality>\n{}\n</equality>\n</mujoco>\n')
JOINT = '<joint joint1="j1" joint2="j2"/>'
WELD = '<weld body1="a" body2="b"/>'
CONNECT = '<connect body1="a" body2="b" anchor="0 0 1"/>'
CONNECT_SITES = '<connect site1="sa" site2="sb"/>'
CONNECT_INACTIVE = '<connect body1="a" body2="b" anchor="0 0 1" active="false"/>'


def parse(text: str, like_drake: bool, **options) -> Parsed:
    parser = new_parser(like_drake=like_drake, **options)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


def constraint_kinds(p: Parsed) -> list[str]:
    return [type(c).__name__ for c in p.plant.constraints()]


# ------------------------------------------------------------ sites
def test_mjcf_sites_are_frames_in_the_default_mode():
    p = parse(SITES, like_drake=False)
    assert p.plant.has_frame_named("s", p.instance) and p.plant.has_frame_named("ws", p.instance)
    assert not p.warnings


def test_mjcf_sites_are_ignored_with_drakes_warning_like_drake():
    p = parse(SITES, like_drake=True)
    assert not p.plant.has_frame_named("s", p.instance)
    assert not p.plant.has_frame_named("ws", p.instance)
    assert sorted(p.warnings) == [
        "The tag 'site' found as a child of 'body' is currently unsupported and will be ignored",
        "The tag 'site' found as a child of 'worldbody' is currently unsupported and will be "
        "ignored"]


# ------------------------------------------------------------ equality, plant holds constraints
@pytest.mark.parametrize("element, kind", [(JOINT, "CouplerConstraint"),
                                           (WELD, "WeldConstraint"),
                                           (CONNECT, "BallConstraint"),
                                           (CONNECT_SITES, "BallConstraint")])
def test_mjcf_equalities_keep_mujocos_meaning_in_the_default_mode(element, kind):
    p = parse(EQUALITY.format(element), like_drake=False)
    assert constraint_kinds(p) == [kind]


@pytest.mark.parametrize("element, tag", [(JOINT, "joint"), (WELD, "weld")])
def test_mjcf_joint_and_weld_equalities_are_ignored_with_drakes_warning_like_drake(element, tag):
    for approximation in ("tamsi", "sap"):
        p = parse(EQUALITY.format(element), like_drake=True, time_step=0.001,
                  approximation=approximation)
        assert constraint_kinds(p) == []
        assert f"The tag '{tag}' found as a child of 'equality' is currently unsupported and " \
               "will be ignored" in p.warnings


def test_mjcf_connect_is_a_ball_constraint_like_drake():
    p = parse(EQUALITY.format(CONNECT), like_drake=True)
    assert constraint_kinds(p) == ["BallConstraint"]


def test_mjcf_connect_between_sites_is_ignored_with_drakes_warning_like_drake():
    p = parse(EQUALITY.format(CONNECT_SITES), like_drake=True)
    assert constraint_kinds(p) == []
    assert any("connect node uses the site1 and site2 specification" in w for w in p.warnings)


def test_mjcf_inactive_connect_is_ignored_by_default_but_kept_like_drake():
    default = parse(EQUALITY.format(CONNECT_INACTIVE), like_drake=False)
    assert constraint_kinds(default) == []
    assert any("inactive" in w for w in default.warnings)
    drake = parse(EQUALITY.format(CONNECT_INACTIVE), like_drake=True)
    assert constraint_kinds(drake) == ["BallConstraint"]
    assert any("The attribute 'active' found in a 'connect' tag" in w for w in drake.warnings)


# ------------------------------------------------------------ equality, TAMSI plant
@pytest.mark.parametrize("element", [JOINT, WELD, CONNECT])
def test_mjcf_equality_on_a_tamsi_plant_is_left_out_with_a_located_warning_by_default(element):
    text = EQUALITY.format(element)
    parser = new_parser(time_step=0.001, approximation="tamsi")
    parser.add_models_from_string(text, "xml")
    assert parser.plant().num_constraints() == 0
    (d,) = [d for d in parser.diagnostic_policy().warnings_seen
            if d.code == "constraint-left-out"]
    assert d.line == line_of(text, element)
    assert "--contact-approximation sap" in d.message and "--time-step 0" in d.message


def test_mjcf_connect_on_a_tamsi_plant_is_refused_like_drake():
    text = EQUALITY.format(CONNECT)
    with pytest.raises(ParseError) as e:
        parse(text, like_drake=True, time_step=0.001, approximation="tamsi")
    assert e.value.diagnostic.line == line_of(text, CONNECT)
    assert e.value.diagnostic.code == "constraint-needs-sap"


# ------------------------------------------------------------ mesh files
def test_mjcf_stl_mesh_loads_with_a_drake_refuses_warning_by_default(tmp_path):
    pytest.importorskip("trimesh")
    binary_stl(tmp_path / "t.stl", TETRA)
    (tmp_path / "t.xml").write_text(one_mesh_model("t.stl"))
    parser = new_parser()
    parser.add_models(str(tmp_path / "t.xml"))
    assert parser.plant().has_body_named("b")
    (d,) = [d for d in parser.diagnostic_policy().warnings_seen if d.code == "drake-refuses"]
    assert "only supports mesh files in .obj format" in d.message and d.line == 3


def test_mjcf_non_obj_mesh_is_refused_with_drakes_message_like_drake(tmp_path):
    binary_stl(tmp_path / "t.stl", TETRA)
    (tmp_path / "t.xml").write_text(one_mesh_model("t.stl"))
    with pytest.raises(ParseError) as e:
        new_parser(like_drake=True).add_models(str(tmp_path / "t.xml"))
    d = e.value.diagnostic
    assert d.line == 3 and d.message.startswith(
        "Drake's MuJoCo parser currently only supports mesh files in .obj format, but the "
        f"meshfile \"{tmp_path / 't.stl'}\" was requested")


def test_mjcf_missing_mesh_is_reported_missing_before_its_format_like_drake(write):
    path = write("m.xml", one_mesh_model("absent.stl"))
    with pytest.raises(ParseError) as e:
        new_parser(like_drake=True).add_models(str(path))
    assert e.value.diagnostic.code == "mesh-missing"
