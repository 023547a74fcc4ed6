"""mbparse tree on corpus files: DOT text, pictures drawn by Graphviz, and
clear advice when Graphviz is missing."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse import tree

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
ACROBOT = CORPUS / "drake" / "examples" / "acrobot" / "Acrobot.urdf"
PANDA = CORPUS / "drake_models" / "franka_description" / "urdf" / "panda_arm_hand.urdf"

needs_corpus = pytest.mark.skipif(not ACROBOT.is_file(), reason="the shared corpus is absent")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (apt-get install graphviz)")


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(["tree", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@needs_corpus
def test_tree_dot_has_a_node_per_body_and_an_edge_per_joint(capsys):
    status, out, _ = run(capsys, ACROBOT)
    assert status == 0 and out.startswith("digraph kinematic_tree {")
    nodes = re.findall(r"^\s*(b\d+) \[label=", out, re.M)
    edges = re.findall(r"^\s*(b\d+) -> (b\d+) ", out, re.M)
    assert len(nodes) == 4  # world, base_link, upper_link, lower_link
    assert len(edges) == 3  # base_weld, shoulder, elbow
    assert 'label="upper_link\\n1 kg"' in out
    assert 'label="shoulder\\nrevolute\\naxis (0, 1, 0)"' in out
    assert re.search(r'base_weld\\nweld".*style=dashed', out)


@needs_corpus
def test_tree_edges_show_limits_with_units_and_added_floating_joints(capsys):
    _, out, _ = run(capsys, PANDA)
    assert "panda_joint4\\nrevolute\\naxis (0, 0, 1)\\n[-3.072, -0.0698] rad" in out
    assert "panda_finger_joint1\\nprismatic\\naxis (0, 1, 0)\\n[0, 0.04] m" in out
    assert re.search(r"quaternion floating \(added: free body\)\".*style=dotted", out)


@needs_corpus
def test_tree_model_instances_are_clusters(capsys):
    _, out, _ = run(capsys, PANDA)
    cluster = re.search(r"subgraph cluster_\d+ \{\n\s*label=\"panda\";(.*?)\n  \}", out, re.S)
    assert cluster is not None
    assert cluster.group(1).count("[label=") == 12


def test_tree_marks_a_massless_moving_body(capsys, tmp_path):
    model = tmp_path / "m.urdf"
    model.write_text('<robot name="m"><link name="a"/><link name="b"/>'
                     '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>'
                     '</joint></robot>')
    _, out, _ = run(capsys, model)
    assert re.search(r'label="b\\n0 kg", fillcolor="#fdecea"', out)


@needs_corpus
@needs_dot
def test_tree_svg_is_drawn_with_graphviz(capsys, tmp_path):
    target = tmp_path / "tree.svg"
    status, out, err = run(capsys, PANDA, "-o", target)
    assert status == 0, err
    svg = target.read_text()
    assert "<svg" in svg and "panda_joint7" in svg and "panda_leftfinger" in svg


@needs_corpus
@needs_dot
def test_tree_png_is_drawn_with_graphviz(capsys, tmp_path):
    target = tmp_path / "tree.png"
    assert run(capsys, ACROBOT, "-o", target, "--rankdir", "LR")[0] == 0
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@needs_corpus
def test_tree_dot_file_needs_no_graphviz(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(tree.shutil, "which", lambda name: None)
    target = tmp_path / "tree.gv"
    assert run(capsys, ACROBOT, "-o", target)[0] == 0
    assert target.read_text().startswith("digraph")


@needs_corpus
def test_tree_picture_without_graphviz_says_how_to_install_it(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(tree.shutil, "which", lambda name: None)
    status, _, err = run(capsys, ACROBOT, "-o", tmp_path / "tree.svg")
    assert status == 2
    assert "apt-get install graphviz" in err and ".dot" in err
    assert not (tmp_path / "tree.svg").exists()


def test_tree_unknown_output_suffix_is_refused(capsys, tmp_path):
    status, _, err = run(capsys, "x.urdf", "-o", tmp_path / "tree.jpeg")
    assert status == 2 and ".svg" in err


def test_tree_of_a_broken_file_is_a_located_error(capsys, tmp_path):
    model = tmp_path / "m.urdf"
    model.write_text('<robot name="m">\n<link name="a"/>\n<joint name="j" type="nope"/>\n</robot>')
    status, _, err = run(capsys, model)
    assert status == 1 and f"{model}:3" in err
