"""URDF <visual> and <collision>: shapes (with Drake's capsule, ellipsoid and
declare_convex), geometry names, roles, and proximity properties."""
from __future__ import annotations

import pytest

from conftest import line_of, parse_file, parse_urdf, robot
from mbparse import ParseError
from mbparse.geometry import (Box, Capsule, Convex, CoulombFriction, Cylinder, Ellipsoid,
                              HydroelasticType, Mesh, Sphere)
from mbparse.geometry.properties import ILLUSTRATION, PERCEPTION, PROXIMITY


def link(inside: str, name: str = "a") -> str:
    return robot(f'<link name="{name}">{inside}</link>')


def visual(shape: str, extra: str = "", name: str | None = None) -> str:
    name_attr = f' name="{name}"' if name else ""
    return f"<visual{name_attr}><geometry>{shape}</geometry>{extra}</visual>"


def collision(shape: str, extra: str = "", name: str | None = None) -> str:
    name_attr = f' name="{name}"' if name else ""
    return f"<collision{name_attr}><geometry>{shape}</geometry>{extra}</collision>"


def only_geometry(parsed):
    (g,) = parsed.geometries()
    return g


# ------------------------------------------------------------ shapes
@pytest.mark.parametrize("xml, expected", [
    ('<box size="1 2 3"/>', Box(1, 2, 3)),
    ('<sphere radius="0.5"/>', Sphere(0.5)),
    ('<cylinder radius="0.5" length="2"/>', Cylinder(0.5, 2)),
    ('<capsule radius="0.5" length="2"/>', Capsule(0.5, 2)),
    ('<drake:capsule radius="0.5" length="2"/>', Capsule(0.5, 2)),
    ('<drake:ellipsoid a="1" b="2" c="3"/>', Ellipsoid(1, 2, 3)),
], ids=["box", "sphere", "cylinder", "capsule", "drake_capsule", "drake_ellipsoid"])
@pytest.mark.parametrize("role", ["visual", "collision"])
def test_urdf_primitive_shapes(xml, expected, role):
    element = visual(xml) if role == "visual" else collision(xml)
    parsed = parse_urdf(link(element), strict=True)
    assert only_geometry(parsed).shape == expected


@pytest.mark.parametrize("xml", ['<drake:ellipsoid a="1" b="2"/>', '<capsule radius="1"/>',
                                 '<cylinder length="1"/>', "<box/>", "<sphere/>"])
def test_urdf_shape_missing_a_dimension_is_an_error(xml):
    text = link(visual(xml))
    with pytest.raises(ParseError) as info:
        parse_urdf(text)
    assert f"<string>:{line_of(text, xml[:6])}:" in str(info.value)


@pytest.mark.parametrize("xml", ['<box size="1 -2 3"/>', '<sphere radius="-1"/>',
                                 '<drake:ellipsoid a="1" b="0" c="3"/>'])
def test_urdf_invalid_shape_dimension_is_a_located_error(xml):
    text = link(visual(xml))
    with pytest.raises(ParseError) as info:
        parse_urdf(text)
    assert f"<string>:{line_of(text, xml[:6])}:" in str(info.value)


def test_urdf_geometry_without_a_shape_is_an_error():
    with pytest.raises(ParseError, match="shape"):
        parse_urdf(link("<visual><geometry/></visual>"))


def test_urdf_mesh_is_resolved_but_not_read(write, tmp_path):
    write("meshes/part.obj", "this is not an OBJ file and is never read\n")
    text = link(visual('<mesh filename="meshes/part.obj" scale="2 3 4"/>'))
    parsed = parse_file(write("m.urdf", text), strict=True)
    shape = only_geometry(parsed).shape
    assert type(shape) is Mesh
    assert shape.filename == str(tmp_path / "meshes" / "part.obj")
    assert shape.scale == (2.0, 3.0, 4.0)


def test_urdf_mesh_with_one_number_scale_scales_uniformly(write):
    write("part.obj", "")
    parsed = parse_file(write("m.urdf", link(visual('<mesh filename="part.obj" scale="2"/>'))))
    assert only_geometry(parsed).shape.scale == (2.0, 2.0, 2.0)


@pytest.mark.parametrize("role", ["visual", "collision"])
def test_urdf_drake_declare_convex_makes_a_convex_shape(write, role):
    write("part.obj", "")
    mesh = '<mesh filename="part.obj"><drake:declare_convex/></mesh>'
    element = visual(mesh) if role == "visual" else collision(mesh)
    parsed = parse_file(write("m.urdf", link(element)), strict=True)
    assert type(only_geometry(parsed).shape) is Convex


def test_urdf_missing_mesh_file_is_a_located_error_like_drake(write):
    text = link(visual('<mesh filename="absent.obj"/>'))
    path = write("m.urdf", text)
    with pytest.raises(ParseError, match="absent.obj") as info:
        parse_file(path, like_drake=True)
    assert f"{path}:{line_of(text, '<mesh')}:" in str(info.value)


def test_urdf_collision_mesh_drake_cannot_make_a_hull_of_is_an_error_like_drake(write):
    write("part.stl", "")
    with pytest.raises(ParseError, match="part.stl"):
        parse_file(write("m.urdf", link(collision('<mesh filename="part.stl"/>'))),
                   like_drake=True)


def test_urdf_visual_mesh_of_any_format_is_accepted(write):
    write("part.stl", "")
    parsed = parse_file(write("m.urdf", link(visual('<mesh filename="part.stl"/>'))))
    assert only_geometry(parsed).shape.extension() == ".stl"


def test_urdf_geometry_origin_sets_the_pose_in_the_body():
    parsed = parse_urdf(link(visual('<box size="1 1 1"/>', '<origin xyz="1 2 3"/>')))
    assert only_geometry(parsed).X_BG.p == (1.0, 2.0, 3.0)


# ------------------------------------------------------------ names
def test_urdf_unnamed_geometries_are_named_after_their_shape():
    text = link(visual('<box size="1 1 1"/>') + visual('<box size="1 1 1"/>')
                + visual('<sphere radius="1"/>') + collision('<box size="1 1 1"/>'))
    parsed = parse_urdf(text, strict=True)
    names = [g.name for g in parsed.geometries()]
    assert names == ["r::Box", "r::Box_1", "r::Sphere", "r::Box"]


def test_urdf_renamed_geometries_take_the_first_free_suffix_past_explicit_names():
    box = '<box size="1 1 1"/>'
    text = link(visual(box) + visual(box, name="Box_2") + visual(box) + visual(box)
                + visual(box, name="Box_5") + visual(box) + visual(box))
    names = [g.name for g in parse_urdf(text, strict=True).geometries()]
    assert names == ["r::Box", "r::Box_2", "r::Box_1", "r::Box_3", "r::Box_5", "r::Box_4",
                     "r::Box_6"]


def test_urdf_naming_many_unnamed_geometries_of_a_link_is_linear(monkeypatch):
    # The search for a free Box_i goes on where the last one stopped: a
    # search from 1 each time made 10,000 boxes on one link take minutes.
    from mbparse.formats.urdf import geometry
    checks = []

    class Counting(geometry.UsedNames):
        def __contains__(self, name):
            checks.append(name)
            return set.__contains__(self, name)

    monkeypatch.setattr("mbparse.formats.urdf.UsedNames", Counting)
    n = 400
    parsed = parse_urdf(link(visual('<box size="1 1 1"/>') * n), strict=True)
    assert len(parsed.geometries()) == n
    assert len(checks) < 3 * n


def test_urdf_geometry_names_are_scoped_by_the_model():
    parsed = parse_urdf(link(visual('<box size="1 1 1"/>', name="shell")
                             + collision('<box size="1 1 1"/>', name="hull")))
    assert sorted(g.name for g in parsed.geometries()) == ["r::hull", "r::shell"]


def test_urdf_repeated_geometry_name_in_a_link_is_renamed_with_a_warning():
    text = link(visual('<box size="1 1 1"/>', name="v") + visual('<box size="1 1 1"/>', name="v"))
    parsed = parse_urdf(text)
    assert [g.name for g in parsed.geometries()] == ["r::v", "r::v_1"]
    assert len(parsed.warnings) == 1 and "v_1" in parsed.warnings[0]


def test_urdf_geometry_names_need_only_be_unique_per_link():
    text = robot('<link name="a">' + visual('<box size="1 1 1"/>') + "</link>"
                 '<link name="b">' + visual('<box size="1 1 1"/>') + "</link>")
    parsed = parse_urdf(text, strict=True)
    assert [g.name for g in parsed.geometries()] == ["r::Box", "r::Box"]


# ------------------------------------------------------------ roles
def test_urdf_visual_has_illustration_and_perception_roles():
    g = only_geometry(parse_urdf(link(visual('<box size="1 1 1"/>'))))
    assert g.has_role(ILLUSTRATION) and g.has_role(PERCEPTION) and not g.has_role(PROXIMITY)


def test_urdf_collision_has_proximity_role_with_default_friction():
    g = only_geometry(parse_urdf(link(collision('<box size="1 1 1"/>'))))
    assert g.has_role(PROXIMITY) and not g.has_role(ILLUSTRATION)
    friction = g.properties(PROXIMITY).get_property("material", "coulomb_friction")
    assert friction == CoulombFriction(1.0, 1.0)


@pytest.mark.parametrize("tag, kept", [("drake:illustration_properties", PERCEPTION),
                                       ("drake:perception_properties", ILLUSTRATION)])
def test_urdf_visual_role_can_be_disabled(tag, kept):
    parsed = parse_urdf(link(visual('<box size="1 1 1"/>', f'<{tag} enabled="false"/>')),
                        strict=True)
    assert only_geometry(parsed).instance.roles == [kept]


@pytest.mark.parametrize("tag", ["drake:illustration_properties",
                                 "drake:perception_properties"])
def test_urdf_visual_role_enabled_true_is_the_same_as_absent(tag):
    g = only_geometry(parse_urdf(link(visual('<box size="1 1 1"/>', f'<{tag} enabled="true"/>'))))
    assert g.has_role(ILLUSTRATION) and g.has_role(PERCEPTION)


def test_urdf_visual_with_both_roles_disabled_is_dropped_with_a_warning():
    extra = ('<drake:illustration_properties enabled="false"/>'
             '<drake:perception_properties enabled="false"/>')
    parsed = parse_urdf(link(visual('<box size="1 1 1"/>', extra)))
    assert parsed.geometries() == []
    assert len(parsed.warnings) == 1


def test_urdf_visual_role_enabled_must_be_true_or_false():
    extra = '<drake:illustration_properties enabled="yes"/>'
    with pytest.raises(ParseError, match="yes"):
        parse_urdf(link(visual('<box size="1 1 1"/>', extra)))


def test_urdf_drake_accepting_renderer_goes_to_perception_only():
    extra = ('<drake:accepting_renderer name="vtk"/>'
             '<drake:accepting_renderer name="gl"/>')
    g = only_geometry(parse_urdf(link(visual('<box size="1 1 1"/>', extra)), strict=True))
    assert g.properties(PERCEPTION).get_property("renderer", "accepting") == {"vtk", "gl"}
    assert not g.properties(ILLUSTRATION).has_property("renderer", "accepting")


def test_urdf_no_accepting_renderer_means_every_renderer():
    g = only_geometry(parse_urdf(link(visual('<box size="1 1 1"/>'))))
    assert not g.properties(PERCEPTION).has_property("renderer", "accepting")


def test_urdf_drake_accepting_renderer_without_name_is_an_error():
    with pytest.raises(ParseError, match="accepting_renderer"):
        parse_urdf(link(visual('<box size="1 1 1"/>', "<drake:accepting_renderer/>")))


def test_urdf_drake_accepting_renderer_with_an_empty_name_is_an_error():
    """The reference: "If the value is empty, that is a parsing error."
    Drake 1.51's URDF reader lets an empty name through (its SDFormat reader
    refuses it); we follow the reference, which we believe is right."""
    with pytest.raises(ParseError, match="accepting_renderer"):
        parse_urdf(link(visual('<box size="1 1 1"/>', '<drake:accepting_renderer name=""/>')))


# ------------------------------------------------------------ proximity properties
def proximity(inside: str):
    text = link(collision('<box size="1 1 1"/>',
                          f"<drake:proximity_properties>{inside}</drake:proximity_properties>"))
    return only_geometry(parse_urdf(text, strict=True)).properties(PROXIMITY)


def test_urdf_drake_rigid_hydroelastic():
    props = proximity("<drake:rigid_hydroelastic/>")
    assert props.get_property("hydroelastic", "compliance_type") == HydroelasticType.RIGID


def test_urdf_drake_compliant_hydroelastic_with_modulus():
    props = proximity('<drake:compliant_hydroelastic/>'
                      '<drake:hydroelastic_modulus value="5e7"/>')
    assert props.get_property("hydroelastic", "compliance_type") == HydroelasticType.COMPLIANT
    assert props.get_property("hydroelastic", "hydroelastic_modulus") == 5e7


def test_urdf_rigid_and_compliant_together_is_an_error():
    with pytest.raises(ParseError, match="rigid"):
        proximity("<drake:rigid_hydroelastic/><drake:compliant_hydroelastic/>")


@pytest.mark.parametrize("tag, group, key", [
    ("drake:mesh_resolution_hint", "hydroelastic", "resolution_hint"),
    ("drake:hunt_crossley_dissipation", "material", "hunt_crossley_dissipation"),
    ("drake:point_contact_stiffness", "material", "point_contact_stiffness"),
    ("drake:relaxation_time", "material", "relaxation_time"),
    ("drake:hydroelastic_margin", "hydroelastic", "margin"),
])
def test_urdf_drake_proximity_scalar_properties(tag, group, key):
    assert proximity(f'<{tag} value="0.25"/>').get_property(group, key) == 0.25


@pytest.mark.parametrize("inside, expected", [
    ('<drake:mu_static value="0.8"/><drake:mu_dynamic value="0.5"/>', (0.8, 0.5)),
    ('<drake:mu_dynamic value="0.5"/>', (0.5, 0.5)),
    ('<drake:mu_static value="0.8"/>', (0.8, 0.8)),
])
def test_urdf_drake_mu_static_and_mu_dynamic_set_the_friction(inside, expected):
    friction = proximity(inside).get_property("material", "coulomb_friction")
    assert (friction.static_friction, friction.dynamic_friction) == expected


def test_urdf_dynamic_friction_above_static_is_an_error():
    with pytest.raises(ParseError, match="friction"):
        proximity('<drake:mu_static value="0.2"/><drake:mu_dynamic value="0.5"/>')


@pytest.mark.parametrize("tag", ["drake:hunt_crossley_dissipation", "drake:relaxation_time",
                                 "drake:hydroelastic_margin"])
def test_urdf_negative_proximity_value_is_an_error(tag):
    with pytest.raises(ParseError, match=tag):
        proximity(f'<{tag} value="-1"/>')


def test_urdf_proximity_value_without_value_attribute_is_an_error():
    with pytest.raises(ParseError, match="value"):
        proximity("<drake:mesh_resolution_hint/>")


def test_urdf_unknown_proximity_property_warns():
    text = link(collision('<box size="1 1 1"/>', "<drake:proximity_properties>"
                          '<drake:stickiness value="1"/></drake:proximity_properties>'))
    parsed = parse_urdf(text)
    assert len(parsed.warnings) == 1 and "stickiness" in parsed.warnings[0]
