"""The Python API: unknown names and wrong types are clear errors that list
what exists."""
from __future__ import annotations

import pytest

from mbparse.plant import ModelError
from conftest import HEAVY, parse_urdf, robot


@pytest.fixture
def plant():
    parsed = parse_urdf(robot('<link name="a"/><link name="b">' + HEAVY + '</link><joint '
                              'name="j" type="revolute"><parent link="a"/><child link="b"/>'
                              '<axis xyz="0 0 1"/></joint>'))
    parsed.plant.finalize()
    return parsed.plant


def test_body_poses_with_an_unscoped_joint_name_suggest_the_scoped_one(plant):
    with pytest.raises(ModelError, match=r"did you mean 'r::j'"):
        plant.calc_body_poses_in_world({"j": [0.5]})


def test_body_poses_with_an_unknown_joint_name_list_the_joints(plant):
    with pytest.raises(ModelError, match=r"'nope'.*r::j"):
        plant.calc_body_poses_in_world({"nope": [0.5]})


@pytest.mark.parametrize("q", [0.5, "0.5", [0.1, 0.2], [float("nan")]])
def test_body_poses_with_wrong_positions_say_what_the_joint_needs(plant, q):
    with pytest.raises(ModelError, match=r"joint 'r::j'.*1"):
        plant.calc_body_poses_in_world({"r::j": q})


def test_body_poses_with_a_scalar_instead_of_a_dict_is_a_clear_error(plant):
    with pytest.raises(ModelError, match="dict"):
        plant.calc_body_poses_in_world(0.5)


def test_body_poses_with_good_positions_move_the_child(plant):
    import math
    X = plant.calc_body_poses_in_world({"r::j": [math.pi / 2]})[plant.get_body_by_name("b").index]
    assert X.R[0][1] == pytest.approx(-1.0)


def test_joint_lookup_in_a_model_instance_that_does_not_exist_lists_the_instances(plant):
    with pytest.raises(ModelError, match=r"no model instance with index 99.*2 'r'"):
        plant.get_joint_by_name("j", 99)


def test_joint_lookup_with_a_name_of_the_wrong_type_is_a_clear_error(plant):
    with pytest.raises(ModelError, match="name"):
        plant.get_joint_by_name(3)
