"""SpatialInertia.problem(): a one-test fast accept for a finite, physical
inertia, the same answers as the full test for everything else, and an
inertia found physical once is not tested again unless it is replaced."""
from __future__ import annotations

import math

import pytest

from mbparse import MultibodyPlant
from mbparse.plant import ModelError
from mbparse.spatial import SpatialInertia

GOOD = (0.1, 0.1, 0.1, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("mass, com, I, code", [
    (1.0, (0, 0, 0), GOOD, None),
    (0.0, (0, 0, 0), (0.0,) * 6, None),
    (0.0, (1e-100, 0, 0), GOOD, None),
    (0.0, (1e200, 0, 0), GOOD, "number-not-finite"),  # 0 * (1e200)^2: NaN, as before
    (math.nan, (0, 0, 0), GOOD, "number-nan"),
    (-1.0, (0, 0, 0), GOOD, "mass-negative"),
    (math.inf, (0, 0, 0), GOOD, "number-not-finite"),
    (1.0, (math.inf, 0, 0), GOOD, "number-not-finite"),
    (1.0, (math.nan, 0, 0), GOOD, "number-not-finite"),
    (1.0, (0, 0, 0), (math.nan, 0.1, 0.1, 0, 0, 0), "number-nan"),
    (1.0, (0, 0, 0), (math.inf, 0.1, 0.1, 0, 0, 0), "number-not-finite"),
    (1.0, (0, 0, 0), (-1.0, 0.1, 0.1, 0, 0, 0), "inertia-not-positive"),
    (1.0, (0, 0, 0), (1.0, 0.1, 0.1, 0, 0, 0), "inertia-triangle"),
    (1e200, (1e200, 0, 0), GOOD, "number-not-finite"),  # about the origin: overflows
    (1.0, (0, 0, 0), (1e308, 1e308, 1e308, 0, 0, 0), None),
])
def test_spatial_inertia_problem_codes(mass, com, I, code):
    problem = SpatialInertia(mass, com, I).problem()
    assert (problem[0] if problem else None) == code


def test_an_inertia_found_physical_is_tested_again_once_replaced():
    M = SpatialInertia.with_physical_inertia(1.0, (0.0, 0.0, 0.0), GOOD)
    assert M.problem() is None
    M.I_cm = (1.0, 0.1, 0.1, 0.0, 0.0, 0.0)
    assert M.problem()[0] == "inertia-triangle"
    M.I_cm = GOOD
    M.mass = -2.0
    assert M.problem()[0] == "mass-negative"


def test_add_rigid_body_refuses_an_invalid_inertia_with_its_code():
    plant = MultibodyPlant(0.0)
    with pytest.raises(ModelError, match="triangle inequality") as info:
        plant.add_rigid_body("b", 1, SpatialInertia(1.0, (0, 0, 0), (1.0, 0.1, 0.1, 0, 0, 0)))
    assert info.value.code == "inertia-triangle"


def test_add_rigid_body_names_a_taken_name_as_body_or_frame():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", 1)
    plant.add_frame("f", body.body_frame)
    with pytest.raises(ModelError, match="already has a body named 'b'"):
        plant.add_rigid_body("b", 1)
    with pytest.raises(ModelError, match="already has a frame named 'f'"):
        plant.add_rigid_body("f", 1)


def test_add_rigid_body_refuses_an_unknown_model_instance():
    plant = MultibodyPlant(0.0)
    with pytest.raises(ModelError, match="no model instance with index 7"):
        plant.add_rigid_body("b", 7)
    with pytest.raises(ModelError, match="not bool True"):
        plant.add_rigid_body("b", True)
