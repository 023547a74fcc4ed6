"""Memory in proportion to the model: no per-element dicts in the model, the
JSON summary written without holding it whole, a large URDF's tree freed as
it is read, and the C heap's freed pages handed back."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from mbparse import MultibodyPlant, Parser, SceneGraph, memory
from mbparse.geometry import Box, Mesh, Sphere
from mbparse.loading import LoadOptions, load
from mbparse.summary import summarize, summary_json

DATA = os.path.join(os.path.dirname(__file__), "data")

LINK = ('<link name="l{i}"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" '
        'ixy="0" ixz="0" iyz="0"/></inertial><visual><origin xyz="0 0 0.05"/><geometry>'
        '<box size="0.1 0.1 0.1"/></geometry></visual><collision><geometry><sphere '
        'radius="0.05"/></geometry></collision></link>')
JOINT = ('<joint name="j{i}" type="revolute"><parent link="l{p}"/><child link="l{i}"/>'
         '<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
         'velocity="1"/></joint>')


def chain_urdf(n: int) -> str:
    return ('<robot name="chain">' + "".join(LINK.format(i=i) for i in range(n))
            + "".join(JOINT.format(i=i, p=i - 1) for i in range(1, n)) + "</robot>")


def _models() -> list[str]:
    names = ["convert/features.urdf", "check/valid_with_extensions.urdf",
             "check/valid_with_gazebo.sdf", "check/valid_with_options.xml",
             "mjcf/dmc_cheetah.xml", "mjcf/dmc_humanoid.xml"]
    return [p for p in (os.path.join(DATA, n) for n in names) if os.path.exists(p)]


@pytest.mark.parametrize("path", _models())
def test_summary_json_is_the_text_json_dumps_gives_the_summary(path):
    loaded = load(path, LoadOptions())
    expected = json.dumps({**summarize(loaded.plant, loaded.parser, loaded.instances),
                           "file": path})
    assert summary_json(loaded.plant, loaded.parser, loaded.instances, {"file": path}) == expected


def test_summary_json_of_a_chain_names_every_link_joint_and_geometry(tmp_path):
    path = tmp_path / "chain.urdf"
    path.write_text(chain_urdf(50))
    loaded = load(str(path), LoadOptions())
    data = json.loads(summary_json(loaded.plant, loaded.parser, loaded.instances))
    assert len(data["bodies"]) == 50
    assert len(data["joints"]) == 50  # 49 revolute, and the floating joint finalize gives l0
    assert len(data["geometries"]) == 100
    assert data == summarize(loaded.plant, loaded.parser, loaded.instances)


def test_model_elements_carry_no_per_element_dict(tmp_path):
    path = tmp_path / "chain.urdf"
    path.write_text(chain_urdf(3))
    plant = MultibodyPlant(0.001)
    Parser(plant, SceneGraph()).add_models(str(path))
    body = plant.get_body_by_name("l1")
    geometry = plant.scene_graph.geometries()[0]
    for element in (body, body.body_frame, geometry, geometry.instance, Box(1, 1, 1), Sphere(1),
                    Mesh("/x.obj")):
        assert not hasattr(element, "__dict__"), type(element).__name__


def test_a_urdf_read_in_pieces_gives_the_same_model_as_one_read_whole(tmp_path):
    """Links leave the tree once read: what comes after them (joints, frames,
    transmissions) still finds every link."""
    text = chain_urdf(40).replace("</robot>", (
        '<frame name="tip" link="l39" xyz="0 0 1" rpy="0 0 0"/>'
        '<transmission type="SimpleTransmission"><joint name="j5"/>'
        '<actuator name="a5"/></transmission></robot>'))
    path = tmp_path / "chain.urdf"
    path.write_text(text)
    plant = MultibodyPlant(0.001)
    Parser(plant, SceneGraph()).add_models(str(path))
    plant.finalize()
    assert plant.num_bodies() == 41
    assert plant.has_frame_named("tip")
    assert plant.get_frame_by_name("tip").body.name == "l39"
    assert plant.num_actuators() == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_freed_memory_can_be_handed_back_on_linux():
    assert memory.release_freed_memory() in (True, False)  # musl has no malloc_trim
    import ctypes
    if hasattr(ctypes.CDLL(None), "malloc_trim"):
        assert memory.release_freed_memory() is True


def test_only_inputs_of_some_megabytes_count_as_large(tmp_path):
    small = tmp_path / "small.urdf"
    small.write_text(chain_urdf(2))
    assert not memory.source_is_large(str(small), None)
    assert not memory.source_is_large(None, "<robot/>")
    assert memory.source_is_large(None, " " * memory.LARGE_INPUT_BYTES)
    assert not memory.source_is_large(str(tmp_path / "missing.urdf"), None)


PEAK = textwrap.dedent("""
    import resource, sys
    from mbparse import MultibodyPlant, Parser, SceneGraph
    plant = MultibodyPlant(0.001)
    Parser(plant, SceneGraph()).add_models(sys.argv[1])
    plant.finalize()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kB on Linux")
def test_peak_memory_grows_in_proportion_to_a_urdf_not_to_a_copy_per_stage(tmp_path):
    """Between a 0.7 MB and a 2.7 MB chain the peak grows by less than 32
    times the added text: about 21 with the tree freed as links are read
    (lxml's tree alone is about 15 times the text), 28 when every stage kept
    its copy."""
    peaks, sizes = [], []
    for n in (1500, 6000):
        path = tmp_path / f"chain_{n}.urdf"
        path.write_text(chain_urdf(n))
        out = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True,
                             text=True, check=True).stdout
        peaks.append(int(out.split()[-1]) * 1024)
        sizes.append(os.path.getsize(path))
    growth = (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])
    assert growth < 32, f"peak memory grew by {growth:.1f} times the added text"
