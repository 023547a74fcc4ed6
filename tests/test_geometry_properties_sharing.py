"""Property sets that geometries get the same way are shared until one
changes (copy-on-write): what each geometry reads, and what a change to one
does, is as if each had its own set."""
from __future__ import annotations

from conftest import parse_urdf, robot
from mbparse import MultibodyPlant, SceneGraph
from mbparse.geometry import Box, DEFAULT_FRICTION, GeometryInstance, GeometryProperties, Rgba
from mbparse.geometry.properties import (ILLUSTRATION, PERCEPTION, PROXIMITY,
                                         default_proximity_properties, no_properties)
from mbparse.spatial import IDENTITY


def test_a_copy_and_its_original_change_apart():
    original = GeometryProperties()
    original.add_property("phong", "diffuse", Rgba(1, 0, 0))
    copy = original.copy()
    copy.add_property("renderer", "accepting", frozenset({"vtk"}))
    original.add_property("phong", "diffuse_map", "a.png")
    assert dict(copy.items()) == {("phong", "diffuse"): Rgba(1, 0, 0),
                                  ("renderer", "accepting"): frozenset({"vtk"})}
    assert dict(original.items()) == {("phong", "diffuse"): Rgba(1, 0, 0),
                                      ("phong", "diffuse_map"): "a.png"}


def test_a_set_sharing_values_never_changes_them():
    values = {("material", "x"): 1.0}
    shared = GeometryProperties.sharing(values)
    shared.add_property("material", "y", 2.0)
    assert values == {("material", "x"): 1.0}
    assert shared.get_property("material", "y") == 2.0


def test_default_sets_stay_default_after_one_is_changed():
    changed = default_proximity_properties()
    changed.add_property("material", "coulomb_friction", "changed")
    empty = no_properties()
    empty.add_property("phong", "diffuse", Rgba(0, 0, 1))
    assert default_proximity_properties().get_property("material", "coulomb_friction") \
        is DEFAULT_FRICTION
    assert len(default_proximity_properties()) == 1
    assert len(no_properties()) == 0


URDF = robot('<material name="red"><color rgba="1 0 0 1"/></material>'
             '<link name="a">'
             '<visual><geometry><box size="1 1 1"/></geometry><material name="red"/></visual>'
             '<visual><geometry><box size="1 1 1"/></geometry><material name="red"/></visual>'
             '<collision><geometry><box size="1 1 1"/></geometry></collision>'
             '<collision><geometry><box size="1 1 1"/></geometry></collision>'
             '</link>')


def test_urdf_visuals_of_one_material_read_its_colour_and_change_apart():
    g1, g2 = [g for g in parse_urdf(URDF, strict=True).geometries() if not g.has_role(PROXIMITY)]
    for g in (g1, g2):
        for role in (ILLUSTRATION, PERCEPTION):
            assert g.properties(role).get_property("phong", "diffuse") == Rgba(1, 0, 0, 1)
    g1.properties(ILLUSTRATION).add_property("phong", "diffuse", Rgba(0, 1, 0))
    assert g1.properties(PERCEPTION).get_property("phong", "diffuse") == Rgba(1, 0, 0, 1)
    assert g2.properties(ILLUSTRATION).get_property("phong", "diffuse") == Rgba(1, 0, 0, 1)


def test_urdf_collisions_read_the_default_friction_and_change_apart():
    c1, c2 = [g for g in parse_urdf(URDF, strict=True).geometries() if g.has_role(PROXIMITY)]
    c1.properties(PROXIMITY).add_property("material", "point_contact_stiffness", 1e5)
    assert c1.properties(PROXIMITY).get_property("material", "point_contact_stiffness") == 1e5
    assert not c2.properties(PROXIMITY).has_property("material", "point_contact_stiffness")
    assert c2.properties(PROXIMITY).get_property("material", "coulomb_friction") \
        == DEFAULT_FRICTION
    again = parse_urdf(URDF, strict=True).geometries()
    assert all(not g.properties(PROXIMITY).has_property("material", "point_contact_stiffness")
               for g in again if g.has_role(PROXIMITY))


def test_plant_gives_a_bare_visual_two_roles_that_change_apart():
    plant = MultibodyPlant(0.0)
    plant.register_as_source_for_scene_graph(SceneGraph())
    body = plant.add_rigid_body("b")
    g = plant.register_visual_geometry(body, GeometryInstance(IDENTITY, Box(1, 1, 1), "v"))
    g.properties(ILLUSTRATION).add_property("phong", "diffuse", Rgba(1, 1, 1))
    assert len(g.properties(PERCEPTION)) == 0
    h = plant.register_visual_geometry(body, GeometryInstance(IDENTITY, Box(1, 1, 1), "w"))
    assert len(h.properties(ILLUSTRATION)) == 0


def test_plant_gives_a_bare_collision_the_default_friction():
    plant = MultibodyPlant(0.0)
    plant.register_as_source_for_scene_graph(SceneGraph())
    body = plant.add_rigid_body("b")
    g = plant.register_collision_geometry(body, GeometryInstance(IDENTITY, Box(1, 1, 1), "c"))
    assert dict(g.properties(PROXIMITY).items()) == {
        ("material", "coulomb_friction"): DEFAULT_FRICTION}
    own = GeometryProperties()
    own.add_property("material", "hunt_crossley_dissipation", 2.0)
    h = plant.register_collision_geometry(body, GeometryInstance(IDENTITY, Box(1, 1, 1), "d"),
                                          own)
    assert h.properties(PROXIMITY).get_property("material", "coulomb_friction") \
        == DEFAULT_FRICTION
    assert h.properties(PROXIMITY).get_property("material", "hunt_crossley_dissipation") == 2.0


def test_shared_sets_copy_and_pickle_as_sets_of_their_own():
    import copy
    import pickle
    parsed = parse_urdf(URDF, strict=True)
    for g in parsed.geometries():
        for role in g.instance.properties:
            props = g.properties(role)
            for twin in (copy.copy(props), copy.deepcopy(props),
                         pickle.loads(pickle.dumps(props))):
                assert dict(twin.items()) == dict(props.items())
                twin.add_property("test", "x", 1)
                assert not props.has_property("test", "x")
    pickle.loads(pickle.dumps(parsed.plant.scene_graph))
