"""Models nested hundreds deep (near the XML depth limit) are posed as
libsdformat poses them: each link in the world is the product of the poses
of every model around it, outermost first; each such product is made once
per model, not once per frame inside it."""
from __future__ import annotations

import pytest

from mbparse import MultibodyPlant, Parser, SceneGraph

DEPTH = 300


def nested_models(depth: int, link_pose: str = "0 0 0 0 0 0") -> str:
    text = ['<?xml version="1.0"?>\n<sdf version="1.9"><model name="top">']
    for d in range(1, depth + 1):
        text.append(f'<model name="m{d}"><pose>0 0 1 0 0 0.5</pose>'
                    f'<link name="l"><pose>{link_pose}</pose></link>'
                    f'<frame name="f" attached_to="l"><pose>1 0 0 0 0 0</pose></frame>')
    text.append("</model>" * depth + "</model></sdf>\n")
    return "".join(text)


def load(text: str) -> MultibodyPlant:
    plant = MultibodyPlant(0.0)
    Parser(plant, SceneGraph()).add_models_from_string(text, "sdf")
    plant.finalize()
    return plant


def test_a_link_nested_300_models_deep_is_posed_by_every_model_around_it():
    plant = load(nested_models(DEPTH))
    poses = plant.calc_body_poses_in_world()
    prefix = "top::" + "::".join(f"m{d}" for d in range(1, DEPTH + 1))
    deepest = plant.get_body_by_name("l", plant.get_model_instance_by_name(prefix))
    # each model is raised 1 along z (which the yaw leaves alone)
    assert poses[deepest.index].p[2] == DEPTH
    middle = plant.get_body_by_name("l", plant.get_model_instance_by_name(
        "top::" + "::".join(f"m{d}" for d in range(1, 151))))
    assert poses[middle.index].p[2] == 150


def test_poses_nested_deep_are_the_products_of_the_chain_outermost_first():
    """The world pose of every level's link is X_W1 · X_12 · ... · X_ML
    (to rounding: the reader turns a pose's angles into a rotation as
    libsdformat does, through a quaternion)."""
    from mbparse.spatial import RigidTransform, rpy_to_matrix
    plant = load(nested_models(40, link_pose="0.1 0 0 0 0 0.3"))
    poses = plant.calc_body_poses_in_world()
    X_model = RigidTransform(rpy_to_matrix((0.0, 0.0, 0.5)), (0.0, 0.0, 1.0))
    X_link = RigidTransform(rpy_to_matrix((0.0, 0.0, 0.3)), (0.1, 0.0, 0.0))
    X = RigidTransform()
    for d in range(1, 41):
        X = X @ X_model
        name = "top::" + "::".join(f"m{k}" for k in range(1, d + 1))
        body = plant.get_body_by_name("l", plant.get_model_instance_by_name(name))
        expected = X @ X_link
        assert poses[body.index].p == pytest.approx(expected.p, abs=1e-9)
        for row, expected_row in zip(poses[body.index].R, expected.R):
            assert row == pytest.approx(expected_row, abs=1e-12)
