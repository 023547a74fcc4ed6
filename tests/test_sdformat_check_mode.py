"""SDFormat in `mbparse check`'s mode (every error collected, reading going
on after each): a value the document check refused, read again by the
model readers, is the same located error, and what refers to a link that
was not read is a located error too -- never an internal exception."""
from __future__ import annotations

import pytest

from mbparse.loading import LoadOptions, load


def link(body: str = "", name: str = "l") -> str:
    return f'<link name="{name}">{body}</link>'


def visual(body: str) -> str:
    return f'<visual name="v">{body}<geometry><box><size>1 1 1</size></box></geometry></visual>'


@pytest.mark.parametrize("model, tag, words", [
    (link(visual("<pose>1 2</pose>")), "pose", "as a pose"),
    (link(visual("<material><diffuse>1 0 x 1</diffuse></material>")), "diffuse", "as a color"),
    (link('<collision name="c"><geometry><plane><normal>0 0 false</normal>'
          "<size>1 1</size></plane></geometry></collision>"), "normal", "as a vector3"),
    ('<static>0 1</static>' + link(), "static", "as a bool"),
], ids=["pose", "colour", "plane-normal", "static"])
def test_a_value_the_check_refused_is_the_same_located_error_when_read_again(
        write, model, tag, words):
    path = write("m.sdf", f'<sdf version="1.9"><model name="m">{model}</model></sdf>')
    loaded = load(str(path), LoadOptions(collect_errors=True))
    at_tag = [d for d in loaded.errors if d.element == tag]
    assert at_tag and all(d.code in ("sdf-value-invalid", "number-malformed")
                          and words in d.message and d.line == 1 for d in at_tag)


def test_a_joint_to_a_link_that_was_not_read_is_a_located_error_in_check_mode(write):
    text = ('<sdf version="1.9"><model name="m">\n'
            + link("<inertial><mass>x</mass></inertial>", "a") + "\n"
            + link(name="b") + "\n"
            + '<joint name="j" type="revolute"><parent>b</parent><child>a</child>'
              "<axis><xyz>0 0 1</xyz></axis></joint>\n</model></sdf>")
    loaded = load(str(write("m.sdf", text)), LoadOptions(collect_errors=True))
    refers = [d for d in loaded.errors if "which was not read" in d.message]
    assert refers and refers[0].line == 4 and refers[0].code == "sdf-unknown-reference"
    assert any(d.line == 2 for d in loaded.errors)  # the link's own error


def test_a_link_without_a_name_is_located_errors_in_check_mode_not_an_exception(write):
    text = ('<sdf version="1.9"><model name="m">\n<link><visual name="v"><pose>0 0 0 0 0 0'
            "</pose><geometry><box><size>1 1 1</size></box></geometry></visual></link>\n"
            '<link name="b"/>\n</model></sdf>')
    loaded = load(str(write("m.sdf", text)), LoadOptions(collect_errors=True))
    assert loaded.errors and all(d.line is not None for d in loaded.errors)


def test_a_plant_refuses_a_body_name_that_is_not_a_string():
    from mbparse.plant import ModelError, MultibodyPlant
    with pytest.raises(ModelError, match="must be a string"):
        MultibodyPlant(0.0).add_rigid_body(None)  # type: ignore[arg-type]
