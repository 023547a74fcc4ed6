"""The plant and the scene graph make their bodies, body frames and geometry
records without calling the classes (a speed measure: see their comments),
so each field is set by hand there. These tests fail when a class gains a
field those places do not set: every slot must be readable on what they
make, and equal to what the class's own constructor gives."""
from __future__ import annotations

from mbparse import MultibodyPlant, SceneGraph
from mbparse.geometry.scene_graph import Geometry
from mbparse.plant.elements import Frame, RigidBody


def _slots(cls) -> list[str]:
    names = []
    for klass in cls.__mro__:
        names.extend(getattr(klass, "__slots__", ()))
    return [n for n in names if n not in ("__weakref__", "__dict__")]


def test_a_body_and_its_frame_have_every_field_set():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b")
    for obj, cls in ((body, RigidBody), (body.body_frame, Frame)):
        missing = [n for n in _slots(cls) if not hasattr(obj, n)]
        assert not missing, f"{cls.__name__} made by the plant lacks {missing}"
    made = RigidBody(body.index, body.name, body.model_instance, body.default_spatial_inertia,
                     body.body_frame, source=body.source)
    for n in _slots(RigidBody):
        assert getattr(made, n) == getattr(body, n), n


def test_a_geometry_record_has_every_field_set():
    from mbparse.geometry.shapes import Sphere
    from mbparse.geometry.scene_graph import GeometryInstance
    from mbparse.spatial import RigidTransform

    sg = SceneGraph()
    g = sg.register_geometry(0, GeometryInstance(RigidTransform(), Sphere(1.0), "s"))
    missing = [n for n in _slots(Geometry) if not hasattr(g, n)]
    assert not missing, f"Geometry made by the scene graph lacks {missing}"
    made = Geometry(g.id, g.body, g.instance, g.deformable)
    for n in _slots(Geometry):
        assert getattr(made, n) == getattr(g, n), n
