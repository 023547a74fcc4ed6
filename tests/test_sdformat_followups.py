"""SDFormat details that follow libsdformat's own arithmetic and document
rules: poses with unnormalised quaternions, ``<inertial auto="true">`` and
the unflattening of pre-1.8 ``a::b`` names."""
from __future__ import annotations

import math

import pytest

from conftest import CORPUS, line_of, new_parser
from mbparse import ParseError

NS = 'xmlns:drake="http://drake.mit.edu"'


def sdf(body: str, version: str = "1.9") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}" {NS}>\n{body}\n</sdf>\n'


def parse(text: str, **options):
    parser = new_parser(**options)
    instances = parser.add_models_from_string(text, "sdf")
    return parser.plant(), instances, parser


def parse_file(path):
    parser = new_parser()
    instances = parser.add_models(path)
    return parser.plant(), instances, parser


def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------ unnormalised quaternions
def test_sdf_model_frame_offset_follows_libsdformat_for_a_non_unit_quaternion():
    # The link's quaternion has a squared norm of 0.99999887: libsdformat
    # inverts the link pose without normalising, and Drake keeps the result.
    path = CORPUS / "sdformat/test/sdf/rotations_in_quaternions.sdf"
    plant, _, _ = parse_file(path)
    X = plant.get_frame_by_name("__model__").X_BF
    assert close(X.p, (2.9925266891823625, -2.2410782010920625, -0.14959843262091566))


def test_sdf_non_unit_model_quaternion_offsets_the_model_frame_from_its_link():
    # Model pose with a (slightly) non-unit quaternion, link at the model
    # frame: libsdformat's inverse leaves a small offset, as in Drake.
    plant, _, _ = parse_file(CORPUS / "sdformat/test/sdf/pose_1_9.sdf")
    m = plant.get_model_instance_by_name("model_quat_xyzw")
    X = plant.get_frame_by_name("__model__", m).X_BF
    assert close(X.p, (0.0, 5.3212476647246376e-08, -2.6606238656690095e-07), 1e-15)


def test_sdf_unit_quaternions_give_the_exact_model_frame():
    plant, _, _ = parse(sdf('<model name="m"><pose rotation_format="quat_xyzw">'
                            '1 2 3  0 0 0.6 0.8</pose><link name="L"/></model>'))
    assert plant.get_frame_by_name("__model__").X_BF.p == (0.0, 0.0, 0.0)


def test_sdf_axis_in_a_frame_with_a_scaled_quaternion_is_rotated_as_libsdformat_does():
    # F's quaternion (w=1, z=1) has squared norm 2: libsdformat's
    # quaternion-times-vector gives (1 - 2)·x + 2·(R x) = (-1, 2, 0), not R x.
    plant, _, _ = parse(sdf(
        '<model name="m"><link name="A"/><link name="B"/>'
        '<frame name="F"><pose rotation_format="quat_xyzw">0 0 0  0 0 1 1</pose></frame>'
        '<joint name="j" type="revolute"><parent>A</parent><child>B</child>'
        '<axis><xyz expressed_in="F">1 0 0</xyz></axis></joint></model>'))
    axis = plant.get_joint_by_name("j").axis
    assert close(axis, (-1 / math.sqrt(5), 2 / math.sqrt(5), 0.0))
