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

from ..numbers import all_finite, shown
from ..spatial import RigidTransform
from .elements import ModelError
from .joints import Joint, PrismaticJoint, QuaternionFloatingJoint, RevoluteJoint, WeldJoint

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from .plant import MultibodyPlant

LOOP_MESSAGE = ("the joints form a closed kinematic loop, which a tree of joints cannot "
                "model; break the loop (remove a joint, or replace it by a constraint such as "
                "a ball or weld constraint)")


class JointConnectivity:
    """Which bodies the plant's joints join so far, kept up to date as joints
    are added: a reader asks whether a joint would close a kinematic loop
    before adding it (each question costs about one pass over the joints
    added since the last)."""

    def __init__(self, plant: "MultibodyPlant"):
        self._plant = plant
        self._up: list[int] = []  # union-find over body indices (see _root)
        self._joints_seen = 0

    def joined(self, body_a, body_b) -> bool:
        """Whether a path of the plant's joints joins ``body_a`` and ``body_b``."""
        plant = self._plant
        up = self._up
        if len(up) < len(plant._bodies):  # (bodies added since: each its own set)
            up.extend(range(len(up), len(plant._bodies)))
        joints = plant._joints
        for i in range(self._joints_seen, len(joints)):
            joint = joints[i]
            a = _root(up, joint.frame_on_parent.body.index)
            b = _root(up, joint.frame_on_child.body.index)
            if a != b:
                up[b] = a
        self._joints_seen = len(joints)
        return _root(up, body_a.index) == _root(up, body_b.index)


def _ephemeral_joint_name(plant: "MultibodyPlant", body) -> str:
    name = body.name
    names = plant._joint_names
    while (body.model_instance, name) in names:
        name = "_" + name
    return name


def _add_base_joint(plant: "MultibodyPlant", body, static: bool) -> None:
    """Joins ``body`` to the world: welded (a body of a static model
    instance) or by a floating joint."""
    name = _ephemeral_joint_name(plant, body)
    world = plant._bodies[0].body_frame
    if static:
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


def _root(up: list[int], i: int) -> int:
    """The representative of ``i``'s set (union-find, path halving)."""
    while up[i] != i:
        up[i] = i = up[up[i]]
    return i


def finalize(plant: "MultibodyPlant") -> None:
    """Adds the base joints, the offset frames of the joints and the default
    collision filters, after refusing loops and poses past a double. One
    pass over the joints gathers what every step needs: the loops, the
    bound on the bodies' distance from the world (see
    :func:`_check_default_poses_finite`), whether some joint may need the
    offset frames of :func:`_add_mobilizer_frames` (a weld with an offset, an
    axis joint whose axis is not +x, +y or +z -- or, when some joint is
    modelled reversed, -x, -y or -z --, a joint of another kind that makes
    such frames), the body pairs adjacent-body filtering excludes and the
    bodies welds join."""
    bodies = plant._bodies
    n = len(bodies)
    up = list(range(n))  # union-find over body indices, inline in the loop (a tree's joints)
    as_child = [0] * n
    as_parent = [0] * n
    reach = 0.0
    frames_always = frames_if_reversed = False
    adjacent: list[tuple[int, int]] = []  # (child, parent) of joints not from the world
    welds: list[tuple[int, int]] = []
    joints = plant._joints
    for joint in joints:
        frame_p, frame_c = joint.frame_on_parent, joint.frame_on_child
        p, c = frame_p.body.index, frame_c.body.index
        if as_child[c] or as_parent[c]:
            rp, rc = p, c
            while up[rp] != rp:
                up[rp] = rp = up[up[rp]]
            while up[rc] != rc:
                up[rc] = rc = up[up[rc]]
            if rp == rc:
                raise ModelError(f"joint '{joint.name}' closes a loop: " + LOOP_MESSAGE,
                                 element=joint, code="kinematic-loop")
            up[rc] = rp
        else:  # (a child no joint has joined yet, a tree's usual case: a set of its own)
            up[c] = p
        as_child[c] += 1
        as_parent[p] += 1
        if not frame_p.is_body_frame:  # (a body frame is at its body's origin)
            x, y, z = frame_p.X_BF.p
            reach += abs(x) + abs(y) + abs(z)
        if not frame_c.is_body_frame:
            x, y, z = frame_c.X_BF.p
            reach += abs(x) + abs(y) + abs(z)
        for value in joint.default_positions:
            reach += abs(value)
        kind = joint.__class__
        if kind is RevoluteJoint or kind is PrismaticJoint:
            axis = joint.axis
            if not (axis[0] == 1.0 or axis[1] == 1.0 or axis[2] == 1.0):
                frames_always = True
            elif not (axis[0] == -1.0 or axis[1] == -1.0 or axis[2] == -1.0):
                frames_if_reversed = True
            if p != 0:
                adjacent.append((c, p))
            continue
        if kind is WeldJoint:
            X = joint.X_FM_fixed
            x, y, z = X.p
            reach += abs(x) + abs(y) + abs(z)
            if not frames_always and not X.is_exactly_identity():
                frames_always = True
        elif kind.mobilizer_frames is not Joint.mobilizer_frames:
            frames_always = True
        name = joint.type_name
        if name == "weld":
            welds.append((p, c))
        if p != 0 and name != "quaternion_floating":
            adjacent.append((c, p))
    # Whether every joint points away from the world once each body has a
    # path to it (no body is a child of two joints, the world of none): then
    # no joint is modelled reversed (see _add_mobilizer_frames).
    all_forward = as_child[0] == 0 and max(as_child) <= 1
    declared = len(joints)
    # Each joint joined two sets of bodies: n - 1 of them joined every body
    # to the world, and no base joint is needed.
    if declared != n - 1:
        _add_base_joints(plant, up, as_child, as_parent)
    # The base joints just added (welds or floating joints from the world to
    # a body frame: no adjacent-body filter), as the pass above takes the
    # others in.
    for joint in joints[declared:]:
        for value in joint.default_positions:
            reach += abs(value)
        if joint.__class__ is WeldJoint:
            X = joint.X_FM_fixed
            x, y, z = X.p
            reach += abs(x) + abs(y) + abs(z)
            if not X.is_exactly_identity():
                frames_always = True
            welds.append((0, joint.frame_on_child.body.index))

    if frames_always or (frames_if_reversed and not all_forward):
        _add_mobilizer_frames(plant)
    if not reach < _REACH_LIMIT:
        _check_default_poses_finite(plant)
    _apply_default_collision_filters(plant, adjacent, welds)


def _add_base_joints(plant: "MultibodyPlant", up: list[int], as_child: list[int],
                     as_parent: list[int]) -> None:
    """Joins to the world every set of bodies the joints (``up``: their
    union-find; ``as_child``, ``as_parent``: how many joints each body is a
    child, a parent of) leave apart from it."""
    bodies = plant._bodies
    instances = plant._instances
    for instance in instances:
        if instance.static:
            _weld_static_bodies(plant, up, as_child, as_parent)
            break

    # Each set of bodies not joined to the world gets one base joint: a set
    # of two or more on its body that is a child of fewest joints, then a
    # parent of most, then of lowest index; the sets in that order too. Then
    # the lone bodies, in index order.
    world = _root(up, 0)
    chosen: dict[int, tuple] = {}  # set representative -> (key, body)
    lone = []
    for body in bodies[1:]:
        b = body.index
        r = _root(up, b)
        if r == world:
            continue
        if as_child[b] or as_parent[b]:
            key = (as_child[b], -as_parent[b], b)
            best = chosen.get(r)
            if best is None or key < best[0]:
                chosen[r] = (key, body)
        else:
            lone.append(body)
    for _, body in (sorted(chosen.values(), key=_first) if len(chosen) > 1
                    else chosen.values()):
        _add_base_joint(plant, body, instances[body.model_instance].static)
    for body in lone:
        _add_base_joint(plant, body, instances[body.model_instance].static)


def _first(pair: tuple):
    return pair[0]


def _weld_static_bodies(plant: "MultibodyPlant", up: list[int], as_child: list[int],
                        as_parent: list[int]) -> None:
    """Welds to the world each body of a static model instance that no
    joint joins (the first step of :func:`_add_base_joints`)."""
    instances = plant._instances
    for body in plant._bodies[1:]:
        b = body.index
        if instances[body.model_instance].static and not (as_child[b] or as_parent[b]) \
                and _root(up, b) != _root(up, 0):
            _add_base_joint(plant, body, True)
            up[_root(up, b)] = _root(up, 0)


# Below this sum of the joints' offsets no body's default pose in the world
# can overflow a double (each product with a rotation keeps a vector's size);
# the sum is of the coordinates' sizes, a bound above the vectors' lengths
# (and NaN, which no reader lets through, is checked too).
_REACH_LIMIT = 1e300


def _check_default_poses_finite(plant: "MultibodyPlant") -> None:
    """Refuses a model whose bodies are, at the default positions, past what
    a double holds: offsets that are each finite (1e308 along a chain of
    joints) add up to infinity, a pose no consumer can use. A sum over the
    joints' offsets (gathered by finalize's pass over the joints) bounds
    every body's distance from the world, so this is only called, and the
    poses only computed, when that sum reaches :data:`_REACH_LIMIT`."""
    poses = body_poses(plant, {})
    for joint in plant._joints:
        for body in (joint.child_body, joint.parent_body):
            p = poses[body.index].p
            if not all_finite(p):
                raise ModelError(f"body '{body.name}' is not at a finite place at the default "
                                 f"positions: its position in the world is {shown(p)}, as the "
                                 f"offsets of joint '{joint.name}' and those before it add up "
                                 "past what a double holds; give smaller numbers", joint,
                                 code="number-not-finite")


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
    frame_names = plant._frame_names
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
                    while (joint.model_instance, name) in frame_names:  # (has_frame_named)
                        name = "_" + name
                    try:
                        added = plant.add_frame(name, frame, X, joint.model_instance)
                    except ModelError as e:  # said at the joint, which the file declared
                        raise ModelError(f"joint '{joint.name}': {e}", joint, code=e.code) from None
                    added.is_ephemeral = True
        level = following


def _apply_default_collision_filters(plant: "MultibodyPlant", adjacent: list[tuple[int, int]],
                                     welds: list[tuple[int, int]]) -> None:
    """Filters the body pairs ``adjacent`` (when the plant filters adjacent
    bodies) and within each set of bodies ``welds`` (body pairs) join."""
    sg = plant._scene_graph
    if sg is None:
        return
    if plant._adjacent_bodies_collision_filters and adjacent:
        sg.exclude_pairs(adjacent)
    if welds:
        for group in _welded_groups(welds):
            sg.exclude_within(group)


def _welded_groups(welds: list[tuple[int, int]]) -> list[set[int]]:
    """The sets of bodies the ``welds`` (body pairs) join, ordered by their
    lowest index (:func:`welded_subgraphs` without singletons)."""
    up: dict[int, int] = {}

    def root(i: int) -> int:
        while (j := up.setdefault(i, i)) != i:
            up[i] = i = up[j]
        return i

    for p, c in welds:
        a, b = root(p), root(c)
        if a != b:
            up[b] = a
    groups: dict[int, set[int]] = {}
    for i in sorted(up):
        groups.setdefault(root(i), set()).add(i)
    return list(groups.values())


def welded_subgraphs(plant: "MultibodyPlant", singletons: bool = True) -> list[set[int]]:
    """Sets of body indices welded together (the world's set included),
    ordered by their lowest index; ``singletons``: with every body welded
    to no other as a set of its own."""
    up: dict[int, int] = {}  # union-find over the bodies some weld joins

    def root(i: int) -> int:
        while (j := up.setdefault(i, i)) != i:
            up[i] = i = up[j]
        return i

    for joint in plant._joints:
        if joint.type_name == "weld":
            a, b = root(joint.frame_on_parent.body.index), root(joint.frame_on_child.body.index)
            if a != b:
                up[b] = a
    groups: dict[int, set[int]] = {}
    for i in (range(plant.num_bodies()) if singletons else sorted(up)):
        groups.setdefault(root(i) if i in up else i, set()).add(i)
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
    # X_PC by the three poses it is made of (the objects themselves: a
    # reader shares equal poses, and a chain of 80,000 joints has a few).
    offsets: dict[tuple, RigidTransform] = {}
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
            made_of = (joint.frame_on_parent.X_BF, joint.X_FM(q), joint.frame_on_child.X_BF)
            X_PC = offsets.get(made_of)
            if X_PC is None:
                X_PF, X_FM, X_CM = made_of
                X_PC = offsets[made_of] = X_PF @ X_FM @ X_CM.inverse()
            if outward:
                poses[c] = poses[b] @ X_PC
                queue.append(c)
            else:
                poses[p] = poses[b] @ X_PC.inverse()
                queue.append(p)
    return [X if X is not None else RigidTransform() for X in poses]
