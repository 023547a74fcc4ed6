"""SDFormat frames, links and models posed relative to (or attached to) one
declared after them, in chains of thousands: each pose is found without one
nested call per link of the chain, each frame's body without walking the
chain again per frame, and a cycle however long is the located cycle error."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import ParseError
from mbparse.loading import load

N = 5000


def sdf(body: str) -> str:
    return f'<sdf version="1.9"><model name="m">{body}</model></sdf>'


def test_frames_each_attached_to_and_posed_relative_to_the_next_load(write):
    frames = "".join(f'<frame name="f{i}" attached_to="f{i + 1}"><pose relative_to="f{i + 1}">'
                     "0 0 1 0 0 0</pose></frame>" for i in range(N))
    path = write("m.sdf", sdf(f'<link name="l"/>{frames}<frame name="f{N}" attached_to="l"/>'))
    plant = load(str(path)).plant
    f0 = plant.get_frame_by_name("f0")
    assert f0.body.name == "l"
    # (Drake 1.51 gives each such frame its pose in the frame it is attached
    # to, here 1 up, as it does for a chain of three: so does mbparse)
    assert f0.X_BF.p == (0.0, 0.0, 1.0)


def test_links_each_posed_relative_to_the_next_load(write):
    links = "".join(f'<link name="l{i}"><pose relative_to="l{i + 1}">0 0 1 0 0 0</pose></link>'
                    for i in range(N))
    loaded = load(str(write("m.sdf", sdf(f'{links}<link name="l{N}"/>'))), finalize=False)
    X = loaded.plant.get_body_by_name("l0").default_free_body_pose
    assert X.p[2] == pytest.approx(N)


def test_models_each_placed_on_a_link_of_the_next_load(write):
    n = 2000
    models = "".join(f'<model name="n{i}" placement_frame="l"><pose relative_to="n{i + 1}::l">'
                     '0 0 1 0 0 0</pose><link name="l"/></model>' for i in range(n))
    path = write("m.sdf", sdf(f'{models}<model name="n{n}"><link name="l"/></model>'))
    loaded = load(str(path), finalize=False)
    body = loaded.plant.get_body_by_name("l", loaded.plant.get_model_instance_by_name("m::n0"))
    assert body.default_free_body_pose.p[2] == pytest.approx(n)


@pytest.mark.parametrize("kind", ["relative_to", "attached_to"])
def test_a_cycle_of_thousands_of_frames_is_the_located_cycle_error(write, kind):
    if kind == "relative_to":
        frames = "".join(f'<frame name="f{i}" attached_to="l"><pose relative_to="f{(i + 1) % N}"/>'
                         "</frame>" for i in range(N))
    else:
        frames = "".join(f'<frame name="f{i}" attached_to="f{(i + 1) % N}"/>' for i in range(N))
    path = write("m.sdf", sdf(f'<link name="l"/>{frames}'))
    with pytest.raises(ParseError, match=f"The {kind} references form a cycle") as info:
        load(str(path))
    assert info.value.diagnostic.line == 1 and info.value.diagnostic.file == str(path)


def test_a_short_relative_to_cycle_names_the_frame_met_twice(write):
    frames = ('<frame name="a" attached_to="l"><pose relative_to="b"/></frame>'
              '<frame name="b" attached_to="l"><pose relative_to="c"/></frame>'
              '<frame name="c" attached_to="l"><pose relative_to="a"/></frame>')
    with pytest.raises(ParseError, match="cycle through 'm::a'"):
        load(str(write("m.sdf", sdf(f'<link name="l"/>{frames}'))))
