"""Drake Model Directives: each directive and option, Drake's name scoping,
the model-name prefix and auto-renaming on directive-made instances."""
from __future__ import annotations

import math

import pytest

from conftest import HEAVY, new_parser, robot
from mbparse import ParseError
from mbparse.formats import dmd
from mbparse.spatial import rpy_to_matrix
from mbparse.workspace import DataSource

ARM = robot(f"""
<link name="base">{HEAVY}<collision><geometry><box size="1 1 1"/></geometry></collision></link>
<link name="tip">{HEAVY}<collision><geometry><box size="1 1 1"/></geometry></collision></link>
<joint name="elbow" type="revolute"><parent link="base"/><child link="tip"/>
  <origin xyz="0 0 1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
""", name="arm")
BLOCK = robot(f'<link name="body">{HEAVY}<collision><geometry><sphere radius="1"/></geometry>'
              f'</collision></link>', name="block")


@pytest.fixture
def pkg(tmp_path):
    """A package 'm' in tmp_path holding arm.urdf and block.urdf; returns a
    function that writes a directives file there and parses it."""
    (tmp_path / "arm.urdf").write_text(ARM)
    (tmp_path / "block.urdf").write_text(BLOCK)

    class Package:
        root = tmp_path

        def write(self, name: str, text: str):
            path = tmp_path / name
            path.write_text(text)
            return path

        def parser(self, **options):
            parser = new_parser(**options)
            parser.package_map().add("m", str(tmp_path))
            return parser

        def parse(self, text: str, name: str = "scene.dmd.yaml", **options):
            parser = self.parser(**options)
            instances = parser.add_models(self.write(name, text))
            return parser, instances
    return Package()


def names(parser, instances):
    return [parser.plant().get_model_instance_name(i) for i in instances]


# ------------------------------------------------------------ add_model
def test_dmd_add_model_parses_the_file_under_the_given_name(pkg):
    parser, instances = pkg.parse("""
directives:
- add_model: {name: left_arm, file: "package://m/arm.urdf"}
- add_model: {name: right_arm, file: "package://m/arm.urdf"}
""")
    assert names(parser, instances) == ["left_arm", "right_arm"]
    assert parser.plant().has_joint_named("elbow", instances[1])


def test_dmd_add_model_default_joint_positions(pkg):
    parser, (arm,) = pkg.parse("""
directives:
- add_model:
    name: arm
    file: package://m/arm.urdf
    default_joint_positions:
      elbow: [0.25]
""")
    assert parser.plant().get_joint_by_name("elbow", arm).default_positions == [0.25]


def test_dmd_add_model_default_free_body_pose_in_the_world(pkg):
    parser, (block,) = pkg.parse("""
directives:
- add_model:
    name: block
    file: package://m/block.urdf
    default_free_body_pose:
      body:
        translation: [1, 2, 3]
        rotation: !Rpy { deg: [10, 20, 30] }
""")
    plant = parser.plant()
    plant.finalize()
    body = plant.get_body_by_name("body", block)
    X_WB = plant.calc_body_poses_in_world()[body.index]
    assert X_WB.p == pytest.approx((1, 2, 3))
    expected = rpy_to_matrix([math.radians(a) for a in (10, 20, 30)])
    for row, want in zip(X_WB.R, expected):
        assert row == pytest.approx(want)
    assert body.is_floating_base_body


def test_dmd_default_free_body_pose_with_empty_name_means_the_only_body(pkg):
    parser, (block,) = pkg.parse("""
directives:
- add_model:
    name: block
    file: package://m/block.urdf
    default_free_body_pose:
      "": {translation: [0, 0, 5]}
""")
    body = parser.plant().get_body_by_name("body", block)
    assert body.default_free_body_pose.p == (0.0, 0.0, 5.0)


def test_dmd_default_free_body_pose_with_empty_name_needs_a_single_body(pkg):
    with pytest.raises(ParseError, match="exactly one body"):
        pkg.parse("""
directives:
- add_model:
    name: arm
    file: package://m/arm.urdf
    default_free_body_pose:
      "": {translation: [0, 0, 5]}
""")


def test_dmd_default_free_body_pose_on_another_base_frame_adds_a_floating_joint(pkg):
    parser, (arm, block) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_model:
    name: block
    file: package://m/block.urdf
    default_free_body_pose:
      body:
        base_frame: arm::tip
        translation: [0, 0, 2]
""")
    plant = parser.plant()
    joint = plant.get_joint_by_name("body", block)
    assert joint.type_name == "quaternion_floating"
    assert joint.parent_body.name == "tip"
    assert joint.default_positions == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0]


def test_dmd_rotation_angle_axis_and_identity(pkg):
    parser, _ = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_frame:
    name: turned
    X_PF: {base_frame: arm::base, rotation: !AngleAxis {angle_deg: 90, axis: [0, 0, 5]}}
- add_frame:
    name: plain
    X_PF: {base_frame: arm::base, rotation: !Identity {}}
- add_frame:
    name: untagged
    X_PF: {base_frame: arm::base, rotation: {}}
""")
    plant = parser.plant()
    turned = plant.get_frame_by_name("turned")
    # 90° about +z (the axis is normalized): x goes to y.
    assert [row[0] for row in turned.X_BF.R] == pytest.approx([0, 1, 0])
    assert plant.get_frame_by_name("plain").X_BF.is_exactly_identity()
    assert plant.get_frame_by_name("untagged").X_BF.is_exactly_identity()


# ------------------------------------------------------------ add_model_instance
def test_dmd_add_model_instance_makes_an_empty_instance_not_returned(pkg):
    parser, instances = pkg.parse("""
directives:
- add_model_instance: {name: empty}
""")
    assert instances == []
    assert parser.plant().has_model_instance_named("empty")


def test_dmd_model_name_prefix_applies_to_directive_instances(pkg):
    parser = pkg.parser(prefix="scene")
    instances = parser.add_models(pkg.write("s.dmd.yaml", """
directives:
- add_model_instance: {name: holder}
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_weld: {parent: world, child: arm::base}
"""))
    assert names(parser, instances) == ["scene::arm"]
    assert parser.plant().has_model_instance_named("scene::holder")
    assert parser.plant().has_joint_named("world_welds_to_base")


def test_dmd_auto_renaming_applies_to_directive_instances(pkg):
    parser = pkg.parser()
    parser.set_auto_renaming(True)
    path = pkg.write("s.dmd.yaml", """
directives:
- add_model_instance: {name: holder}
- add_model: {name: arm, file: "package://m/arm.urdf"}
""")
    parser.add_models(path)
    second = parser.add_models(path)
    assert names(parser, second) == ["arm_1"]
    assert parser.plant().has_model_instance_named("holder_1")


# ------------------------------------------------------------ add_frame
def test_dmd_add_frame_unscoped_joins_the_base_frames_instance(pkg):
    parser, (arm,) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_frame:
    name: camera_mount
    X_PF:
      base_frame: arm::tip
      translation: [0, 0, 0.5]
""")
    frame = parser.plant().get_frame_by_name("camera_mount", arm)
    assert frame.body.name == "tip"
    assert frame.X_BF.p == (0.0, 0.0, 0.5)


def test_dmd_add_frame_scoped_name_picks_the_instance(pkg):
    parser, (arm, block) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_model: {name: block, file: "package://m/block.urdf"}
- add_frame:
    name: block::on_arm
    X_PF: {base_frame: arm::tip}
""")
    frame = parser.plant().get_frame_by_name("on_arm", block)
    assert frame.body.name == "tip"


def test_dmd_add_frame_unscoped_base_frame_must_be_unique(pkg):
    parser, (arm,) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_frame:
    name: f
    X_PF: {base_frame: tip}
""")
    assert parser.plant().get_frame_by_name("f", arm).body.name == "tip"


# ------------------------------------------------------------ add_weld
def test_dmd_add_weld_joins_two_frames_with_an_offset(pkg):
    parser, (arm, block) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_weld: {parent: world, child: arm::base}
- add_model: {name: block, file: "package://m/block.urdf"}
- add_weld:
    parent: arm::tip
    child: block::body
    X_PC:
      translation: [0, 0, 0.1]
      rotation: !Rpy { deg: [0, 0, 90] }
""")
    plant = parser.plant()
    weld = plant.get_joint_by_name("tip_welds_to_body", block)
    assert weld.type_name == "weld"
    assert weld.frame_on_parent.name == "tip" and weld.frame_on_child.name == "body"
    assert weld.X_FM_fixed.p == (0.0, 0.0, 0.1)
    plant.finalize()
    X_WB = plant.calc_body_poses_in_world()[plant.get_body_by_name("body", block).index]
    assert X_WB.p == pytest.approx((0, 0, 1.1))
    assert not plant.get_body_by_name("base", arm).is_floating_base_body


def test_dmd_add_weld_without_offset_is_the_identity(pkg):
    parser, (arm,) = pkg.parse("""
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_weld: {parent: world, child: arm::base}
""")
    assert parser.plant().get_joint_by_name("world_welds_to_base").X_FM_fixed \
        .is_exactly_identity()


# ------------------------------------------------------------ collision filter groups
def test_dmd_add_collision_filter_group_members_member_groups_and_ignored(pkg):
    parser, (a, b, c) = pkg.parse("""
directives:
- add_model: {name: a, file: "package://m/block.urdf"}
- add_model: {name: b, file: "package://m/block.urdf"}
- add_model: {name: c, file: "package://m/block.urdf"}
- add_collision_filter_group:
    name: ab
    members: [a::body, b::body]
- add_collision_filter_group:
    name: abc
    members: [c::body]
    member_groups: [ab]
    ignored_collision_filter_groups: [abc]
""")
    groups = parser.get_collision_filter_groups()
    assert groups.groups() == {"ab": {"a::body", "b::body"},
                               "abc": {"a::body", "b::body", "c::body"}}
    assert groups.exclusion_pairs() == {("abc", "abc")}
    sg = parser.plant().scene_graph
    bodies = [parser.plant().get_body_by_name("body", i).index for i in (a, b, c)]
    assert sg.is_excluded(bodies[0], bodies[2]) and sg.is_excluded(bodies[1], bodies[2])


def test_dmd_collision_filter_group_model_namespace_scopes_its_names(pkg):
    parser, _ = pkg.parse("""
directives:
- add_model_instance: {name: right}
- add_model: {name: "right::a", file: "package://m/block.urdf"}
- add_collision_filter_group:
    name: g
    model_namespace: right
    members: [a::body]
    ignored_collision_filter_groups: [g]
""")
    groups = parser.get_collision_filter_groups()
    assert groups.groups() == {"right::g": {"right::a::body"}}
    assert groups.exclusion_pairs() == {("right::g", "right::g")}


def test_dmd_collision_filter_groups_are_skipped_without_a_scene_graph(pkg):
    parser, _ = pkg.parse("""
directives:
- add_model: {name: a, file: "package://m/block.urdf"}
- add_collision_filter_group: {name: g, members: [a::body]}
""", scene_graph=False)
    assert parser.get_collision_filter_groups().empty()


# ------------------------------------------------------------ add_directives
def test_dmd_add_directives_scopes_names_in_the_model_namespace(pkg):
    pkg.write("arm.dmd.yaml", """
directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_model: {name: block, file: "package://m/block.urdf"}
- add_weld: {parent: arm::tip, child: block::body}
- add_frame:
    name: mount
    X_PF: {base_frame: arm::tip}
- add_collision_filter_group: {name: g, members: [arm::tip, block::body]}
""")
    parser, instances = pkg.parse("""
directives:
- add_model_instance: {name: left}
- add_directives: {file: "package://m/arm.dmd.yaml", model_namespace: left}
- add_model_instance: {name: right}
- add_directives: {file: "package://m/arm.dmd.yaml", model_namespace: right}
- add_weld: {parent: world, child: "left::arm::base"}
""")
    plant = parser.plant()
    assert names(parser, instances) == ["left::arm", "left::block", "right::arm",
                                        "right::block"]
    # The frame's unscoped name joins its base frame's instance.
    mount = plant.get_frame_by_name("mount", plant.get_model_instance_by_name("right::arm"))
    assert mount.body.model_instance == plant.get_model_instance_by_name("right::arm")
    assert set(parser.get_collision_filter_groups().groups()) == {"left::g", "right::g"}
    assert plant.has_joint_named("world_welds_to_base")


def test_dmd_add_directives_without_namespace_shares_the_scope(pkg):
    pkg.write("sub.dmd.yaml", "directives:\n- add_model: {name: a, file: "
                              "\"package://m/block.urdf\"}\n")
    parser, instances = pkg.parse("""
directives:
- add_directives: {file: "package://m/sub.dmd.yaml"}
- add_weld: {parent: world, child: a::body}
""")
    assert names(parser, instances) == ["a"]


def test_dmd_from_string(pkg):
    parser = pkg.parser()
    instances = parser.add_models_from_string(
        'directives:\n- add_model: {name: a, file: "package://m/block.urdf"}\n', "dmd.yaml")
    assert names(parser, instances) == ["a"]


def test_dmd_single_model_request_is_an_error(pkg):
    path = pkg.write("s.dmd.yaml", "directives: []\n")
    parser = pkg.parser()
    with pytest.raises(ParseError, match="read whole"):
        dmd.add_model(DataSource(filename=str(path)), "x", None, parser.make_workspace())


def test_dmd_add_model_of_a_directives_file_is_an_error(pkg):
    pkg.write("sub.dmd.yaml", "directives: []\n")
    with pytest.raises(ParseError, match="read whole"):
        pkg.parse('directives:\n- add_model: {name: x, file: "package://m/sub.dmd.yaml"}\n')


def test_dmd_empty_directives_list_adds_nothing(pkg):
    parser, instances = pkg.parse("directives: []\n")
    assert instances == []
