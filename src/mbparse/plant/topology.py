"""The plant's topology: spanning tree, free bodies, loops, default filters,
and forward kinematics at default positions.

Drake models the user's graph of bodies and joints as a spanning forest rooted
at the world. A set of bodies connected among themselves but not to the world
gets one floating joint on a base body chosen as Drake chooses it (the body
that is a child of fewest joints, then a parent of most, then the lowest
index); a lone body gets its own. A joint that would close a loop is an error.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ..spatial import RigidTransform
from .elements import ModelError
from .joints import QuaternionFloatingJoint, WeldJoint

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from .plant import MultibodyPlant

LOOP_MESSAGE = ("the joints form a closed kinematic loop, which a tree of joints cannot "
                "model; break the loop (remove a joint, or replace it by a constraint such as "
                "a ball or weld constraint)")


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[rb] = ra
        return True

    def grow(self, n: int) -> None:
        """Makes room for elements up to index ``n - 1``, each its own set."""
        self.parent.extend(range(len(self.parent), n))


class JointConnectivity:
    """Which bodies the plant's joints join so far, kept up to date as joints
    are added: a reader asks whether a joint would close a kinematic loop
    before adding it (each question costs about one pass over the joints
    added since the last)."""

    def __init__(self, plant: "MultibodyPlant"):
        self._plant = plant
        self._sets = _UnionFind(0)
        self._joints_seen = 0

    def joined(self, body_a, body_b) -> bool:
        """Whether a path of the plant's joints joins ``body_a`` and ``body_b``."""
        plant = self._plant
        self._sets.grow(plant.num_bodies())
        joints = plant._joints
        for joint in joints[self._joints_seen:]:
            self._sets.union(joint.parent_body.index, joint.child_body.index)
        self._joints_seen = len(joints)
        return self._sets.find(body_a.index) == self._sets.find(body_b.index)


def _ephemeral_joint_name(plant: "MultibodyPlant", body) -> str:
    name = body.name
    while plant.has_joint_named(name, body.model_instance):
        name = "_" + name
    return name


def _add_base_joint(plant: "MultibodyPlant", body) -> None:
    name = _ephemeral_joint_name(plant, body)
    world = plant.world_body().body_frame
    if plant.model_instance(body.model_instance).static:
        joint = WeldJoint(name, world, body.body_frame,
                          body.default_free_body_pose or RigidTransform())
    else:
        joint = QuaternionFloatingJoint(name, world, body.body_frame)
        body.is_floating_base_body = True
        X = body.default_free_body_pose
        if X is not None:
            from ..spatial import matrix_to_quaternion
            joint.default_positions = list(matrix_to_quaternion(X.R)) + list(X.p)
    joint.is_ephemeral = True
    plant._register_joint(joint)


def finalize(plant: "MultibodyPlant") -> None:
    bodies = plant._bodies
    n = len(bodies)
    uf = _UnionFind(n)
    as_child = [0] * n
    as_parent = [0] * n
    jointed = [False] * n
    for joint in plant._joints:
        p, c = joint.parent_body.index, joint.child_body.index
        if not uf.union(p, c):
            raise ModelError(f"joint '{joint.name}' closes a loop: " + LOOP_MESSAGE,
                             element=joint, code="kinematic-loop")
        as_child[c] += 1
        as_parent[p] += 1
        jointed[p] = jointed[c] = True

    # Bodies of static model instances are welded to the world first.
    for body in bodies[1:]:
        if plant.model_instance(body.model_instance).static and uf.find(body.index) != uf.find(0):
            if jointed[body.index]:
                continue
            _add_base_joint(plant, body)
            uf.union(0, body.index)

    # Trees of two or more bodies not yet connected to the world.
    candidates = [b for b in bodies[1:] if jointed[b.index] and uf.find(b.index) != uf.find(0)]
    candidates.sort(key=lambda b: (as_child[b.index], -as_parent[b.index], b.index))
    for body in candidates:
        if uf.find(body.index) == uf.find(0):
            continue
        _add_base_joint(plant, body)
        uf.union(0, body.index)

    # Lone bodies.
    for body in bodies[1:]:
        if uf.find(body.index) != uf.find(0):
            _add_base_joint(plant, body)
            uf.union(0, body.index)

    _add_mobilizer_frames(plant)
    _apply_default_collision_filters(plant)


def _add_mobilizer_frames(plant: "MultibodyPlant") -> None:
    """Adds the offset frames Drake makes when it models joints (a revolute
    axis that is not +x, +y or +z; a weld with an offset), walking the tree
    outward from the world so that reversed joints are known."""
    n = plant.num_bodies()
    adjacency: list[list] = [[] for _ in range(n)]
    for joint in plant._joints:
        adjacency[joint.parent_body.index].append(joint)
        adjacency[joint.child_body.index].append(joint)
    seen = [False] * n
    seen[0] = True
    level = [0]
    while level:
        following = []
        for b in level:
            for joint in adjacency[b]:
                p, c = joint.parent_body.index, joint.child_body.index
                other = c if p == b else p
                if seen[other]:
                    continue
                seen[other] = True
                following.append(other)
                for frame, suffix, X in joint.mobilizer_frames(reversed_=(c == b)):
                    name = f"{joint.name}_{frame.name}_{suffix}"
                    while plant.has_frame_named(name, joint.model_instance):
                        name = "_" + name
                    plant.add_frame(name, frame, X, joint.model_instance).is_ephemeral = True
        level = following


def _apply_default_collision_filters(plant: "MultibodyPlant") -> None:
    sg = plant.scene_graph
    if sg is None:
        return
    if plant._adjacent_bodies_collision_filters:
        for joint in plant._joints:
            parent, child = joint.parent_body, joint.child_body
            if parent.index == 0 or joint.type_name == "quaternion_floating":
                continue
            sg.exclude_between([child.index], [parent.index])
    for group in welded_subgraphs(plant):
        if len(group) > 1:
            sg.exclude_within(group)


def welded_subgraphs(plant: "MultibodyPlant") -> list[set[int]]:
    """Sets of body indices welded together (the world's set included)."""
    uf = _UnionFind(plant.num_bodies())
    for joint in plant._joints:
        if joint.type_name == "weld":
            uf.union(joint.parent_body.index, joint.child_body.index)
    groups: dict[int, set[int]] = {}
    for i in range(plant.num_bodies()):
        groups.setdefault(uf.find(i), set()).add(i)
    return list(groups.values())


def body_poses(plant: "MultibodyPlant",
               positions: dict[str, Sequence[float]]) -> list[RigidTransform]:
    n = plant.num_bodies()
    adjacency: list[list] = [[] for _ in range(n)]
    for joint in plant._joints:
        adjacency[joint.parent_body.index].append(joint)
        adjacency[joint.child_body.index].append(joint)
    poses: list[RigidTransform | None] = [None] * n
    poses[0] = RigidTransform()
    queue = deque([0])
    while queue:
        b = queue.popleft()
        for joint in adjacency[b]:
            p, c = joint.parent_body.index, joint.child_body.index
            outward = p == b and poses[c] is None
            if not outward and not (c == b and poses[p] is None):
                continue  # (its other end is placed already)
            q = (positions.get(plant.scoped_name(joint), joint.default_positions) if positions
                 else joint.default_positions)
            X_PF = joint.frame_on_parent.X_BF
            X_CM = joint.frame_on_child.X_BF
            X_PC = X_PF @ joint.X_FM(q) @ X_CM.inverse()
            if outward:
                poses[c] = poses[b] @ X_PC
                queue.append(c)
            else:
                poses[p] = poses[b] @ X_PC.inverse()
                queue.append(p)
    return [X if X is not None else RigidTransform() for X in poses]
