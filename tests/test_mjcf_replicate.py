"""<replicate> (MuJoCo 3 model composition) expands as MuJoCo expands it:
names with the copy's suffix, poses from the per-copy rotation and offset,
nested replicates innermost first."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import line_of, new_parser, parse_file
from mbparse import ParseError

DATA = Path(__file__).parent / "data" / "mjcf"
MODEL = DATA / "own_replicate.xml"


def mjcf(body: str) -> str:
    return f'<mujoco model="m">\n<worldbody>\n{body}\n</worldbody>\n</mujoco>\n'


def test_mjcf_replicate_names_bodies_and_joints_as_mujoco_does():
    mujoco = pytest.importorskip("mujoco")
    m = mujoco.MjModel.from_xml_path(str(MODEL))
    parsed = parse_file(MODEL)
    plant, instance = parsed.plant, parsed.instance
    bodies = {m.body(i).name for i in range(1, m.nbody)}
    joints = {m.joint(j).name for j in range(m.njnt) if m.joint(j).name}
    assert "toe_100" in joints and "post-2" in bodies
    for name in bodies:
        assert plant.has_body_named(name, instance), name
    for name in joints:
        assert plant.get_joint_by_name(name, instance) is not None, name
    assert plant.num_bodies() - 1 == len(bodies)


def test_mjcf_replicated_bodies_move_with_their_joints_as_in_mujoco():
    pytest.importorskip("mujoco")
    from test_mjcf_mujoco_agreement import test_mjcf_joint_frames_move_bodies_as_mujoco_does
    test_mjcf_joint_frames_move_bodies_as_mujoco_does(MODEL.name)


def test_mjcf_replicate_pads_the_index_to_the_digits_of_count():
    text = mjcf('<replicate count="10">\n<body name="b">\n<joint/>\n<geom size="0.1"/>\n'
                '</body>\n</replicate>')
    parser = new_parser()
    (instance,) = parser.add_models_from_string(text, "xml")
    plant = parser.plant()
    assert plant.has_body_named("b00", instance) and plant.has_body_named("b09", instance)
    assert not plant.has_body_named("b0", instance)


def test_mjcf_replicate_of_zero_copies_adds_nothing():
    text = mjcf('<replicate count="0">\n<body name="b">\n<geom size="0.1"/>\n</body>\n'
                '</replicate>')
    parser = new_parser()
    parser.add_models_from_string(text, "xml")
    assert parser.plant().num_bodies() == 1


def test_mjcf_replicate_without_count_is_a_located_error(write):
    text = mjcf('<replicate offset="1 0 0">\n<body name="b">\n<geom size="0.1"/>\n</body>\n'
                '</replicate>')
    path = write("r.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, '<replicate')}:" in str(info.value)
    assert "count" in str(info.value)


def test_mjcf_replicate_with_an_unknown_class_is_a_located_error(write):
    text = mjcf('<replicate count="2" childclass="nope">\n<body name="b">\n'
                '<geom size="0.1"/>\n</body>\n</replicate>')
    path = write("r.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, '<replicate')}:" in str(info.value)
    assert "nope" in str(info.value)


def test_mjcf_errors_inside_replicated_bodies_point_at_the_written_line(write):
    text = mjcf('<replicate count="2">\n<body name="b">\n<joint/>\n'
                '<geom size="0.1" pos="1 x 2"/>\n</body>\n</replicate>')
    path = write("r.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, 'pos=')}:" in str(info.value)


@pytest.mark.parametrize("body, made", [
    ('<replicate count="1000000000"><body><geom size="1"/></body></replicate>',
     "3,000,000,000 elements (1,000,000,000 copies of 2)"),
    ('<replicate count="100"><replicate count="100"><replicate count="100">'
     '<body><geom size="1"/></body></replicate></replicate></replicate>',
     "after the"),
])
def test_mjcf_replicate_making_more_elements_than_the_limit_is_a_located_error(tmp_path, body, made):
    from mbparse.formats.mjcf.replicate import MAX_REPLICATED_ELEMENTS
    path = tmp_path / "m.xml"
    path.write_text(f'<mujoco model="m"><worldbody>\n{body}\n</worldbody></mujoco>')
    with pytest.raises(ParseError, match=f"at most {MAX_REPLICATED_ELEMENTS:,}") as info:
        parse_file(path)
    d = info.value.diagnostic
    assert made in d.message and d.code == "size-limit" and d.line == 2


def test_a_replicate_at_the_top_of_an_included_file_is_expanded_where_it_is_spliced(write):
    # The includes are spliced (and the splice kept) before the replicates
    # expand: the expansion must reach the element the include was spliced into.
    write("part.xml", '<mujocoinclude><replicate count="3" offset="0.5 0 0">'
                      '<body name="b"><joint type="hinge"/><geom size="0.1"/></body>'
                      '</replicate></mujocoinclude>')
    main = write("main.xml", mjcf('<include file="part.xml"/>'))
    parser = new_parser()
    parser.add_models(str(main))
    plant = parser.plant()
    assert [plant.has_body_named(f"b{k}") for k in range(3)] == [True, True, True]
    assert parser.diagnostic_policy().warnings_seen == []
