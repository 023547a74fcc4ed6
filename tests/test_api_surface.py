"""The public API reads well: every public method of the four API classes has
a docstring, none has Python's default repr, and no source line is too long."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse import MultibodyPlant, Parser, SceneGraph
from mbparse.package_map import PackageMap

API_CLASSES = (Parser, MultibodyPlant, SceneGraph, PackageMap)
SRC = Path(__file__).parents[1] / "src"
MAX_LINE = 200


@pytest.mark.parametrize("cls", API_CLASSES, ids=lambda c: c.__name__)
def test_every_public_method_has_a_docstring(cls):
    undocumented = [name for name, member in vars(cls).items()
                    if not name.startswith("_")
                    and (callable(member) or isinstance(member, (property, staticmethod,
                                                                 classmethod)))
                    and not (getattr(member, "__doc__", None) or "").strip()]
    assert undocumented == []


def _instances():
    plant = MultibodyPlant(0.001)
    scene_graph = SceneGraph()
    parser = Parser(plant, scene_graph)
    return {Parser: parser, MultibodyPlant: plant, SceneGraph: scene_graph,
            PackageMap: parser.package_map()}


@pytest.mark.parametrize("cls", API_CLASSES, ids=lambda c: c.__name__)
def test_the_repr_says_what_the_object_holds(cls):
    text = repr(_instances()[cls])
    assert text.startswith(cls.__name__ + "(")
    assert " object at 0x" not in text


def test_a_plant_repr_counts_its_contents_and_state():
    plant = MultibodyPlant(0.0)
    plant.add_model_instance("arm")
    plant.finalize()
    assert repr(plant) == ("MultibodyPlant(3 instances, 1 bodies, 0 joints, time_step=0, "
                           "finalized)")


def test_no_source_line_is_longer_than_the_limit():
    long = [f"{p.relative_to(SRC)}:{n}" for p in SRC.rglob("*.py")
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > MAX_LINE]
    assert long == []


def test_a_warning_is_shown_once_at_the_model_files_own_line(tmp_path):
    import subprocess
    import sys
    model = tmp_path / "robot.urdf"
    model.write_text('<robot name="r">\n<link name="a">\n  <foo/>\n</link>\n</robot>\n')
    script = ("from mbparse import MultibodyPlant, Parser\n"
              f"Parser(MultibodyPlant(0.0)).add_models({str(model)!r})\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{model}:3: ParseWarning: <foo>")
    assert lines[1].strip() == "<foo/>"  # the model's own line, not one of mbparse's
    assert "mbparse" not in "".join(lines[1:]) and len(lines) == 2


@pytest.mark.parametrize("text, kind", [("v 0 0 0\n", "obj"),
                                        ("directives:\n- add_model: {name: m}\n", "dmd.yaml")])
def test_dmd_and_obj_errors_go_through_the_diagnostic_policy(text, kind):
    from mbparse.diagnostics import ParseError
    parser = Parser(MultibodyPlant(0.0))
    seen = []
    policy = parser.diagnostic_policy()
    original = policy.error

    def recording_error(message, *args, **kwargs):
        seen.append((message, kwargs.get("code")))
        original(message, *args, **kwargs)

    policy.error = recording_error
    with pytest.raises(ParseError):
        parser.add_models_from_string(text, kind)
    assert seen and all(code for _, code in seen)
