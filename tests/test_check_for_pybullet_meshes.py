"""check --for pybullet finds meshes where Bullet's URDF importer finds them
(UrdfFindMeshFile: file:// dropped, then package:// or model://, the rest
tried as an absolute path and after each folder above the URDF), so that it
reports no mesh pybullet loads. Where pybullet is installed, each case is
loaded by pybullet itself: it refuses the file exactly when check says it
will not find the mesh."""
from __future__ import annotations

import subprocess
import sys

import pytest

from mbparse.lint import lint_file

STL = ("solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
       "endloop\nendfacet\nendsolid t\n")

# name -> (mesh filename, with {root} for the robot's folder; whether pybullet finds it)
CASES = {
    "file-uri-relative": ("file://meshes/link0.stl", True),          # gym-ignition's habit
    "file-uri-absolute": ("file://{root}/meshes/link0.stl", True),
    "package-uri": ("package://robot/meshes/link0.stl", True),
    "model-uri": ("model://robot/meshes/link0.stl", True),
    "relative-up": ("../meshes/link0.stl", True),
    "relative-above": ("meshes/link0.stl", True),
    "absolute": ("{root}/meshes/link0.stl", True),
    "file-uri-missing": ("file://meshes/nothere.stl", False),
    "other-package": ("package://other/meshes/link0.stl", False),
}


def _robot(tmp_path, name: str) -> str:
    root = tmp_path / "robot"
    (root / "meshes").mkdir(parents=True, exist_ok=True)
    (root / "urdf").mkdir(exist_ok=True)
    (root / "meshes" / "link0.stl").write_text(STL)
    filename = CASES[name][0].format(root=root)
    path = root / "urdf" / f"{name}.urdf"
    path.write_text(
        '<robot name="r">\n  <link name="base">\n    <inertial><mass value="1"/><inertia '
        'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>\n'
        f'    <visual><geometry><mesh filename="{filename}"/></geometry></visual>\n'
        '  </link>\n</robot>\n')
    return str(path)


def _not_found(path: str) -> list:
    return [f for f in lint_file(path, consumers=("pybullet",))
            if f.rule == "for-pybullet-mesh-not-found"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_mesh_is_reported_only_where_pybullet_does_not_find_it(tmp_path, name):
    found = _not_found(_robot(tmp_path, name))
    if CASES[name][1]:
        assert found == []
    else:
        assert len(found) == 1 and found[0].line == 4
        assert "refuses the file" in found[0].message


# Loads each file in a fresh pybullet (in a child process, from an empty
# working folder, so that no mesh is found relative to it); prints 1 or 0.
PYBULLET = """
import sys
import pybullet
pybullet.connect(pybullet.DIRECT)
try:
    pybullet.loadURDF(sys.argv[1])
    print(1)
except pybullet.error:
    print(0)
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_pybullet_itself_agrees(tmp_path, tmp_path_factory, name):
    pytest.importorskip("pybullet")
    path = _robot(tmp_path, name)
    run = subprocess.run([sys.executable, "-c", PYBULLET, path], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path_factory.mktemp("elsewhere"))
    loaded = run.stdout.strip().splitlines()[-1] == "1"
    assert loaded == CASES[name][1], run.stdout + run.stderr
    assert loaded == (not _not_found(path))
