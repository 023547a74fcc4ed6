"""inspect --json writes the large sections of the summary as text straight
from the plant: the same text json.dumps gives the summary's dicts, for
every kind of number (non-finite, negative zero, integers)."""
from __future__ import annotations

import json
import math

import pytest

from mbparse.loading import load
from mbparse.summary import _float_text, _floats_text, num, summarize, summary_json, vec


@pytest.mark.parametrize("values", [
    [], [0.0], [-0.0, 0.0], [1, 2, 3], [True, 2.5], [math.inf, -math.inf, math.nan],
    [1e308, 1e308], [-1e-320, 5e-324], (0.1, 0.2, 0.30000000000000004), [2, math.nan]])
def test_a_vector_is_written_as_json_writes_the_summarys_list(values):
    assert _floats_text(values) == json.dumps(vec(values))


@pytest.mark.parametrize("v", [0.0, -0.0, 1, math.inf, -math.inf, math.nan, 1e-300, 7.25])
def test_a_number_is_written_as_json_writes_the_summarys_number(v):
    assert _float_text(v) == json.dumps(num(v))


def test_a_model_with_unbounded_limits_and_negative_zeros_is_written_as_json_dumps_writes_it(
        write):
    path = str(write("r.urdf", """<robot name='r'>
      <link name='a'><inertial><origin xyz='-0.0 0 0'/><mass value='2'/>
        <inertia ixx='1' iyy='1' izz='1' ixy='-0.0' ixz='0' iyz='0'/></inertial>
        <visual><origin xyz='0 -0.0 1' rpy='0 0.5 0'/><geometry><box size='1 2 3'/></geometry>
          <material name='m'><color rgba='1 0 0 1'/></material></visual>
        <collision><geometry><sphere radius='0.5'/></geometry></collision></link>
      <link name='b'/>
      <joint name='j' type='continuous'><parent link='a'/><child link='b'/>
        <axis xyz='0 -1 0'/><dynamics damping='0.5'/></joint>
      <link name='c'/>
      <joint name='k' type='floating'><parent link='b'/><child link='c'/></joint>
    </robot>"""))
    loaded = load(path)
    expected = json.dumps({**summarize(loaded.plant, loaded.parser, loaded.instances),
                           "file": path})
    assert summary_json(loaded.plant, loaded.parser, loaded.instances, {"file": path}) == expected
    assert "Infinity" not in expected and '"inf"' in expected


def test_a_vector_met_again_is_written_the_same_and_zeros_keep_their_sign():
    for values in ([math.inf, -0.0], [math.inf, 0.0], [math.inf, -0.0], [-math.inf, math.inf],
                   [-math.inf, math.inf], (-math.inf, math.inf), [math.nan, 1.0]):
        assert _floats_text(values) == json.dumps(vec(values))


def test_bodies_and_poses_that_differ_only_in_the_sign_of_a_zero_are_written_apart(write):
    links = "".join(
        f"<link name='l{i}'><inertial><origin xyz='{x} 0 0' rpy='0 0 {x}'/><mass value='1'/>"
        f"<inertia ixx='1' iyy='1' izz='1' ixy='{x}' ixz='0' iyz='0'/></inertial></link>"
        for i, x in enumerate(["0", "-0.0", "0", "-0.0"]))
    joints = "".join(f"<joint name='j{i}' type='fixed'><parent link='l{i - 1}'/><child "
                     f"link='l{i}'/><origin xyz='{x} 0 0' rpy='{x} 0 0'/></joint>"
                     for i, x in ((1, "-0.0"), (2, "0"), (3, "-0.0")))
    path = str(write("r.urdf", f"<robot name='r'>{links}{joints}</robot>"))
    loaded = load(path)
    text = summary_json(loaded.plant, loaded.parser, loaded.instances)
    assert text == json.dumps(summarize(loaded.plant, loaded.parser, loaded.instances))
    assert "-0.0" in text


def test_shapes_limits_and_poses_met_again_are_written_as_their_own_numbers():
    """The summary's text keeps what a model repeats (shapes, a joint's
    limits, the poses of frames, joints and geometries): an entry equal to
    one met before but written differently (1 and 1.0, 0.0 and -0.0) keeps
    its own text."""
    from mbparse import MultibodyPlant, Parser, SceneGraph
    from mbparse.geometry import Box, GeometryInstance, GeometryProperties, Mesh, Rgba, Sphere
    from mbparse.geometry.properties import ILLUSTRATION, PERCEPTION
    from mbparse.plant.joints import RevoluteJoint
    from mbparse.spatial import RigidTransform

    plant = MultibodyPlant(0.001)
    parser = Parser(plant, SceneGraph())
    shapes = [Box(1, 2, 3), Box(1.0, 2.0, 3.0), Box(1, 2, 3), Sphere(0.0), Sphere(-0.0),
              Sphere(0), Sphere(0.5), Sphere(0.5), Mesh("/m/a.obj", (1, 1, 1)),
              Mesh("/m/a.obj", (1.0, 1.0, 1.0)), Mesh("/m/a.obj", [2.0, 2.0, 2.0])]
    parent = plant.world_body()
    for i, shape in enumerate(shapes):
        zero = -0.0 if i % 2 else 0.0
        body = plant.add_rigid_body(f"b{i}")
        X = RigidTransform(((1.0, zero, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), (zero, 0, 1))
        plant.register_visual_geometry(body, GeometryInstance(X, shape, f"g{i}"))
        plant.add_frame(f"f{i}", body.body_frame, X)
        joint = plant.add_joint(RevoluteJoint, f"j{i}", parent, X, body, None, (0, 0, 1),
                                zero, 1 if i % 3 else 1.0, zero)
        joint.set_default_positions([zero])
        parent = body
    # One mapping of property values read by two geometries in different roles.
    values = {("phong", "diffuse"): Rgba(1, 0, 0, 1)}
    for role in (ILLUSTRATION, PERCEPTION):
        plant.register_visual_geometry(parent, GeometryInstance(
            RigidTransform(), Box(1, 1, 1), f"shared_{role}",
            {role: GeometryProperties.sharing(values)}))
    plant.finalize()
    text = summary_json(plant, parser, [0, 1])
    assert text == json.dumps(summarize(plant, parser, [0, 1]))
    data = json.loads(text)
    assert [g["shape"] for g in data["geometries"]][:3] == [
        {"type": "box", "size": [1, 2, 3]}, {"type": "box", "size": [1.0, 2.0, 3.0]},
        {"type": "box", "size": [1, 2, 3]}]
    assert '"radius": -0.0' in text and '"radius": 0}' in text
    assert '"pos_lower": [-0.0]' in text and '"pos_lower": [0.0]' in text
    shared = {g["name"]: g["props"] for g in data["geometries"] if g["name"].startswith("shared")}
    assert {name: list(props) for name, props in shared.items()} == {
        "shared_illustration": ["illustration"], "shared_perception": ["perception"]}
