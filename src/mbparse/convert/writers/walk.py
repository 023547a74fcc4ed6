"""The model as every writer walks it: a forest of bodies hung from the world,
each by the one joint that connects it to its tree parent (turned round when
the model declared it the other way), with its geometries and frames.

URDF and MJCF nest bodies in a tree and SDFormat places links by pose; all
three need each body's pose in its tree parent, which :meth:`BodyNode.X_PB`
gives at the zero or the default configuration.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...geometry import Geometry, SceneGraph
from ...plant import MultibodyPlant
from ...plant.elements import Frame, RigidBody
from ...plant.joints import Joint, PrismaticJoint, RevoluteJoint, WeldJoint
from ...spatial import IDENTITY, RigidTransform
from ..loss import APPROXIMATED, ConvertError, LossReport


def used_instances(plant: MultibodyPlant) -> list[int]:
    """The model instances (not the world's) that hold a body, a joint or a
    frame a model file declared, in index order."""
    used = {b.model_instance for b in plant.bodies()[1:]}
    used |= {j.model_instance for j in plant.joints() if not j.is_ephemeral}
    used |= {f.model_instance for f in plant.frames()
             if not f.is_body_frame and not f.is_ephemeral and f.name != "__model__"}
    return sorted(used - {0})


def where(element) -> tuple[str | None, int | None]:
    """The (file, line) a reader recorded on a model element, if any."""
    src = getattr(element, "source", None)
    if isinstance(src, tuple) and len(src) == 2:
        return src
    return (None, None)


@dataclass(eq=False)
class Hinge:
    """A joint as written: from the tree parent P to the tree child C.

    ``X_PF`` and ``X_CM`` place the joint's frames in the two bodies; for a
    joint the model declared the other way round they are swapped, and the
    axis of a revolute or prismatic joint is negated (so the positions and
    limits keep their meaning)."""

    joint: Joint
    X_PF: RigidTransform
    X_CM: RigidTransform
    reversed: bool = False

    @property
    def axis(self):
        axis = getattr(self.joint, "axis", None)
        if axis is not None and self.reversed:
            return tuple(-a for a in axis)
        return axis

    def X_FM(self, at_default: bool) -> RigidTransform:
        j = self.joint
        q = j.default_positions if at_default else j.zero_positions()
        X = j.X_FM(q)
        return X.inverse() if self.reversed else X


@dataclass(eq=False)
class BodyNode:
    body: RigidBody
    parent: "BodyNode | None"  # None: hangs from the world
    hinge: Hinge | None        # None: a free body (or a static model's root)
    welded_root: bool = False  # a root of a static model instance: fixed where it stands
    children: list["BodyNode"] = field(default_factory=list)
    geometries: list[Geometry] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.body.name

    def X_PB(self, at_default: bool) -> RigidTransform:
        """This body's pose in its tree parent (the world for a root), at the
        joints' default positions or at zero positions (welds as welded)."""
        if self.hinge is None:
            return self.body.default_free_body_pose or IDENTITY
        h = self.hinge
        return h.X_PF @ h.X_FM(at_default) @ h.X_CM.inverse()

    def is_free(self) -> bool:
        return self.hinge is None and not self.welded_root


class ModelWalk:
    """The forest of the plant's bodies; ``roots`` hang from the world.

    ``instances`` lists the model instances (other than the world's) that hold
    bodies, in index order. A plant need not be finalized; the joints and
    frames finalize() adds are left out.
    """

    def __init__(self, plant: MultibodyPlant, scene_graph: SceneGraph | None,
                 report: LossReport):
        self.plant = plant
        self.report = report
        bodies = plant.bodies()
        self.nodes: dict[int, BodyNode] = {}
        self.roots: list[BodyNode] = []
        self.world_geometries: list[Geometry] = []
        self.world_frames: list[Frame] = []
        joints = [j for j in plant.joints() if not j.is_ephemeral]
        self.joints = joints
        self._build(bodies, joints)
        joint_frames = {id(f) for j in plant.joints() for f in (j.frame_on_parent,
                                                                 j.frame_on_child)}
        for frame in plant.frames():
            if (frame.is_body_frame or frame.is_ephemeral or id(frame) in joint_frames
                    or frame.name == "__model__"):  # every SDFormat model has its own
                continue
            if frame.body.index == 0:
                self.world_frames.append(frame)
            else:
                self.nodes[frame.body.index].frames.append(frame)
        if scene_graph is not None:
            for g in scene_graph.geometries():
                if g.body == 0:
                    self.world_geometries.append(g)
                else:
                    self.nodes[g.body].geometries.append(g)
        self.instances = used_instances(plant)
        if not self.nodes and not self.world_geometries:
            raise ConvertError("the model has no rigid bodies and no geometry on the world: "
                               "there is nothing to write")

    def _build(self, bodies: list[RigidBody], joints: list[Joint]) -> None:
        adjacency: dict[int, list[Joint]] = {}
        for j in joints:
            adjacency.setdefault(j.parent_body.index, []).append(j)
            adjacency.setdefault(j.child_body.index, []).append(j)
        plant = self.plant
        # Roots first from the world, then each remaining tree from its base
        # (the body Drake would float: child of fewest joints, parent of most).
        as_child = {b.index: 0 for b in bodies}
        as_parent = {b.index: 0 for b in bodies}
        for j in joints:
            as_child[j.child_body.index] += 1
            as_parent[j.parent_body.index] += 1
        self._grow(None, 0, adjacency)
        rest = sorted((b for b in bodies[1:]),
                      key=lambda b: (as_child[b.index], -as_parent[b.index], b.index))
        for body in rest:
            if body.index in self.nodes:
                continue
            static = plant.model_instance(body.model_instance).static
            node = BodyNode(body, None, None, welded_root=static)
            self.nodes[body.index] = node
            self.roots.append(node)
            self._grow(node, body.index, adjacency)
        for j in joints:
            p, c = self.nodes.get(j.parent_body.index), self.nodes.get(j.child_body.index)
            used = c is not None and c.hinge is not None and c.hinge.joint is j or (
                p is not None and p.hinge is not None and p.hinge.joint is j)
            if not used:
                raise ConvertError(f"joint '{j.name}' closes a kinematic loop, which the "
                                   "written tree cannot hold; nothing was written")

    def _grow(self, node: BodyNode | None, index: int, adjacency) -> None:
        stack = [(node, index)]
        while stack:
            parent_node, b = stack.pop()
            for j in adjacency.get(b, ()):
                reversed_ = j.child_body.index == b
                other = j.parent_body if reversed_ else j.child_body
                if other.index in self.nodes or other.index == 0:
                    continue
                hinge = self._hinge(j, reversed_)
                child = BodyNode(other, parent_node, hinge)
                self.nodes[other.index] = child
                (parent_node.children if parent_node else self.roots).append(child)
                stack.append((child, other.index))

    def _hinge(self, j: Joint, reversed_: bool) -> Hinge:
        F, M = j.frame_on_parent.X_BF, j.frame_on_child.X_BF
        if not reversed_:
            return Hinge(j, F, M)
        if not isinstance(j, (WeldJoint, RevoluteJoint, PrismaticJoint)):
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            f"its {j.type_name} joint is declared from the body farther from "
                            "the world; it is written from the nearer body, so its positions "
                            "measure the opposite motion", where(j))
        return Hinge(j, M, F, reversed=True)

    # -- helpers the writers share ------------------------------------------

    def preorder(self) -> list[BodyNode]:
        """Every node, parents before children."""
        out: list[BodyNode] = []
        stack = list(reversed(self.roots))
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(reversed(n.children))
        return out

    def instance_name(self, index: int) -> str:
        return self.plant.get_model_instance_name(index)

    def single_instance(self) -> bool:
        """One model instance (or none: only geometry on the world)."""
        return len(self.instances) <= 1

    def model_name(self, fallback: str) -> str:
        """The name of a one-model output: its instance's, else (geometry on
        the world only) that of the one instance the file made, else
        ``fallback``."""
        if len(self.instances) == 1:
            return self.instance_name(self.instances[0])
        made = range(2, self.plant.num_model_instances())  # 0 world, 1 default
        if not self.instances and len(made) == 1:
            return self.instance_name(made[0])
        return fallback
