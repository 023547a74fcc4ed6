"""What a yourdfpy or pydrake user reaches for (issue 29, item 14):
``mbparse.load(path)`` returns the finalized model in one line; forward
kinematics at a configuration given by joint name (``model.poses(q)``,
``model.transform(frame_a, frame_b, q)``); ``RigidTransform.translation()``
and ``.rotation()`` beside ``.p`` and ``.R``."""
from __future__ import annotations

import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import mbparse
from mbparse import ModelError, ParseError, ParseWarning
from mbparse.spatial import RigidTransform, axis_angle_to_matrix

ARM = Path(__file__).parents[1] / "examples" / "two_link_arm.urdf"


@pytest.fixture(scope="module")
def arm():
    return mbparse.load(ARM)


def test_load_returns_the_finalized_model_the_cli_loads(arm):
    assert arm.plant.is_finalized()
    assert arm.joint_names() == ["shoulder", "elbow"]
    assert sorted(arm.poses()) == ["base", "forearm", "upper_arm", "world"]
    assert arm.plant.num_positions() == 2


def test_load_takes_load_options_by_name(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><worldbody><body name="b"><joint name="j" '
                    'damping="-1"/><geom size="0.1"/></body></worldbody></mujoco>')
    with pytest.warns(ParseWarning, match="Drake refuses this"):
        assert mbparse.load(path).plant.get_joint_by_name("j").damping == [0.0]
    with pytest.raises(ParseError, match="damping must be non-negative"):
        mbparse.load(path, like="drake")


def test_poses_by_joint_name_match_the_plants_kinematics(arm):
    q = {"shoulder": 0.3, "elbow": -0.5}
    poses = arm.poses(q)
    X_WB = arm.plant.calc_body_poses_in_world({"two_link_arm::shoulder": [0.3],
                                               "two_link_arm::elbow": [-0.5]})
    forearm = arm.plant.get_body_by_name("forearm")
    assert poses["forearm"].p == X_WB[forearm.index].p
    assert poses["forearm"].R == X_WB[forearm.index].R
    # scoped names and one-element lists mean the same
    assert arm.poses({"two_link_arm::shoulder": [0.3], "elbow": [-0.5]})["forearm"].p == \
        poses["forearm"].p
    # joints not given stay at their default positions
    assert arm.poses({"elbow": -0.5})["upper_arm"].p == arm.poses()["upper_arm"].p


def test_transform_is_the_pose_of_frame_b_in_frame_a(arm):
    X = arm.transform("base", "forearm", {"elbow": 0.5})
    assert X.p == pytest.approx((0.0, 0.0, 0.55))
    assert np.allclose(X.rotation(), np.array(axis_angle_to_matrix((0, 1, 0), 0.5)))
    # a frame of the file, and the world
    tool = arm.transform("world", "tool", {"shoulder": math.pi / 2, "elbow": 0.0})
    assert tool.p == pytest.approx((0.9, 0.0, 0.05))
    back = arm.transform("forearm", "base", {"elbow": 0.5})
    assert (X @ back).p == pytest.approx((0, 0, 0))


@pytest.mark.parametrize("call, message", [
    (lambda m: m.poses({"elbw": 1.0}), "no moving joint named 'elbw'; did you mean 'elbow'"),
    (lambda m: m.poses({"base_weld": []}), "no moving joint named 'base_weld'"),
    (lambda m: m.poses({"elbow": [1.0, 2.0]}), "takes 1 finite number"),
    (lambda m: m.poses({"elbow": float("nan")}), "takes 1 finite number"),
    (lambda m: m.poses([0.1, 0.2]), "q must be a dict"),
    (lambda m: m.transform("base", "forarm"), "no frame named 'forarm'; did you mean 'forearm'"),
])
def test_bad_names_and_values_are_clear_model_errors(arm, call, message):
    with pytest.raises(ModelError, match=message):
        call(arm)


def test_translation_and_rotation_are_numpy_arrays():
    X = RigidTransform(axis_angle_to_matrix((0, 0, 1), 0.25), (1.0, 2.0, 3.0))
    assert isinstance(X.translation(), np.ndarray) and X.translation().tolist() == [1, 2, 3]
    assert X.rotation().shape == (3, 3) and X.rotation().tolist() == [list(r) for r in X.R]


def test_load_issues_the_warnings_it_saw_at_the_model_line(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r">\n<link name="a">\n<visual><geometry><box size="1 1 1"/>'
                    '</geometry><material name="m"><color rgba="2 0 0 1"/></material></visual>\n'
                    '</link>\n</robot>\n')
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        model = mbparse.load(path)
    said = [x for x in w if issubclass(x.category, ParseWarning)]
    assert [(x.filename, x.lineno) for x in said] == [(str(path), 3)]
    assert model.warnings == [x.message.diagnostic for x in said]


def test_import_mbparse_still_imports_no_typing():
    code = "import sys, mbparse; print(sorted({'typing', 'dataclasses'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_first_example_of_docs_api_runs_as_written(monkeypatch, capsys):
    import re
    root = Path(__file__).parents[1]
    text = (root / "docs" / "API.md").read_text()
    first = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(root)
    exec(compile(first, "docs/API.md", "exec"), {})
    assert "['shoulder', 'elbow']" in capsys.readouterr().out
