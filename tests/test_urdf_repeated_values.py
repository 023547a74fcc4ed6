"""A reader remembers the numbers and poses of texts it has read within one
file (a model repeats "0 0 0" and friends); what it remembers never hides a
diagnostic: every element with a questionable value gets its own, at its line."""
from __future__ import annotations

from conftest import line_of, parse_urdf, robot

LINKS = "".join(f'<link name="l{i}"/>' for i in range(4))


def joint(i: int, origin: str) -> str:
    return (f'<joint name="j{i}" type="fixed"><parent link="l{i - 1}"/><child link="l{i}"/>'
            f"\n<origin {origin}/></joint>\n")


def test_repeated_origin_with_extra_numbers_warns_at_every_element():
    # The same text first read as a colour (four numbers are right there).
    text = robot('<material name="m"><color rgba="1 2 3 4"/></material>' + LINKS + "\n"
                 + joint(1, 'xyz="1 2 3 4"') + joint(2, 'xyz="1 2 3 4"') + joint(3, 'xyz="1 2 3 4"'))
    parsed = parse_urdf(text)
    lines = [d.line for d in parsed.parser.diagnostic_policy().warnings_seen
             if "should be 3 numbers" in d.message]
    first = line_of(text, 'xyz="1 2 3 4"')
    assert lines == [first, first + 2, first + 4]
    parsed.plant.finalize()
    poses = parsed.plant.calc_body_poses_in_world()
    assert [tuple(poses[b.index].p) for b in parsed.plant.bodies()[1:]] == [
        (0.0, 0.0, 0.0), (1.0, 2.0, 3.0), (2.0, 4.0, 6.0), (3.0, 6.0, 9.0)]


def test_repeated_partly_numeric_text_warns_at_every_element():
    text = robot(LINKS + "\n" + joint(1, 'xyz="0 0 1,5"') + joint(2, 'xyz="0 0 1,5"'))
    lines = [d.line for d in parse_urdf(text).parser.diagnostic_policy().warnings_seen
             if "write a plain number" in d.message]
    first = line_of(text, 'xyz="0 0 1,5"')
    assert lines == [first, first + 2]


def test_repeated_pose_texts_give_equal_poses_per_joint():
    text = robot(LINKS + "\n" + joint(1, 'xyz="0 0 1" rpy="0 0 1.5"')
                 + joint(2, 'xyz="0 0 1" rpy="0 0 1.5"') + joint(3, 'rpy="0 0 1.5" xyz="0 0 1"'))
    plant = parse_urdf(text).plant
    frames = [j.frame_on_parent.X_BF for j in plant.joints()]
    assert all(f.p == (0.0, 0.0, 1.0) and f.R == frames[0].R for f in frames)


def test_repeated_shape_sizes_share_one_shape_and_keep_every_warning():
    # A shape is an immutable value: a file's repeated plain sizes make it once.
    # A size that is said something about is read again, and said again.
    def link(i: int, shape: str) -> str:
        return (f'<link name="s{i}"><collision><geometry>{shape}</geometry></collision>\n'
                "</link>\n")
    text = robot(link(0, '<box size="1 2 3"/>') + link(1, '<box size="1 2 3"/>')
                 + link(2, '<cylinder radius="1" length="2"/>')
                 + link(3, '<cylinder length="2" radius="1"/>')
                 + link(4, '<sphere radius="1,5"/>') + link(5, '<sphere radius="1,5"/>'))
    parsed = parse_urdf(text)
    shapes = [g.shape for g in parsed.geometries()]
    assert len(shapes) == 6
    assert shapes[0] is shapes[1] and shapes[2] is shapes[3]
    assert shapes[0].size() == (1.0, 2.0, 3.0) and shapes[2].length == 2.0
    assert shapes[4] == shapes[5] and shapes[4].radius == 1.0
    lines = [d.line for d in parsed.parser.diagnostic_policy().warnings_seen
             if "write a plain number" in d.message]
    first = line_of(text, 'radius="1,5"')
    assert lines == [first, first + 2]
