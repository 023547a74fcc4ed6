"""Fixed-joint lumping: merging the child link of a fixed joint into its parent.

Mass is summed, the centre of mass and inertia are combined about the new
centre (expressed in the parent's inertial orientation), visuals and
collisions move to the parent with their poses composed, joints below are
re-attached to the nearest kept ancestor, and ``<gazebo>`` extensions of the
lumped link follow it (sensor poses and plugin frame names are rewritten).
The order of the steps, and therefore the names and numbers, follow
libsdformat's converter.
"""
from __future__ import annotations

import math

from .. import spatial
from .gazebo import LUMP_PREFIX, Extension, Extensions
from .quat import Pose, Quat
from .sdf_tree import Node, fmt, fmt_short
from .urdf_model import Inertial, Joint, Link

WORLD = "world"


class Lumper:
    """Performs the lumping over a link tree, recording a frame for each
    removed joint and link."""

    def __init__(self, exts: Extensions, preserve_all: bool = False):
        self.exts = exts
        self.preserve_all = preserve_all
        # (joint frame, link frame) for each lumped joint, in lumping order.
        self.frames: list[tuple[Node, Node]] = []

    def reducible(self, joint: Joint | None) -> bool:
        """Whether a fixed joint gets lumped (no opt-out on it)."""
        return (joint is not None and joint.type == "fixed"
                and joint.name not in self.exts.joints_to_revolute
                and joint.name not in self.exts.joints_kept_fixed)

    def lumps(self, joint: Joint | None) -> bool:
        return not self.preserve_all and self.reducible(joint)

    def reduce(self, link: Link) -> None:
        """Lumps every reducible fixed joint below ``link`` (depth first, as the
        reference converter does). The walk keeps its own stack (one step
        generator per link being visited), so a chain of any length is
        walked without Python's recursion limit."""
        stack = [self._reduce_steps(link)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            else:
                stack.append(self._reduce_steps(child))

    def _reduce_steps(self, link: Link):
        """The visit of ``link``: yields each child link to visit (fully)
        before going on, in the reference converter's order."""
        for child in list(link.child_links):
            if self.reducible(child.parent_joint):
                yield child
        parent = link.parent
        if parent is not None and parent.name != WORLD and self.reducible(link.parent_joint):
            self._record_frames(link)
            self._move_extensions(link)
            _lump_inertial(link)
            _lump_shapes(link, visual=True)
            _lump_shapes(link, visual=False)
            self._reattach_joints(link)
        for child in list(link.child_links):
            if not self.reducible(child.parent_joint):
                yield child

    def _record_frames(self, link: Link) -> None:
        joint = link.parent_joint
        frame = Node("frame", {"name": joint.name, "attached_to": link.parent.name})
        frame.sub("pose", " ".join(fmt(v) for v in joint.origin.euler_values()))
        self.frames.append((frame, Node("frame", {"name": link.name, "attached_to": joint.name})))

    def _reattach_joints(self, link: Link) -> None:
        for child in link.child_links:
            joint = child.parent_joint
            if self.reducible(joint):
                continue
            new_parent = link
            while (new_parent.parent_joint is not None and new_parent.parent.name != WORLD
                   and self.reducible(new_parent.parent_joint)):
                joint.origin = joint.origin.in_parent(new_parent.parent_joint.origin)
                new_parent = new_parent.parent
            child.parent = new_parent
            joint.parent_name = new_parent.name

    def _move_extensions(self, link: Link) -> None:
        X_PL = link.parent_joint.origin
        own = self.exts.by_reference.get(link.name)
        if own is not None:
            for ext in own:
                ext.reduction_transform = ext.reduction_transform.in_parent(X_PL)
                for blob in ext.blobs:
                    if blob.name in ("sensor", "projector"):
                        _reduce_element_pose(blob, ext)
            self.exts.by_reference.setdefault(link.parent.name, []).extend(own)
            own.clear()
        for ext in self.exts.all():
            for i, blob in enumerate(ext.blobs):
                if blob.name == "plugin":
                    for key in ("bodyName", "frameName"):
                        _replace_plugin_frame(blob, key, link, ext.reduction_transform)
                elif blob.name == "projector":
                    ext.blobs[i] = _replace_projector_link(blob, link)


def _reduce_element_pose(blob: Node, ext: Extension) -> None:
    """Rewrites the pose of a blob ``<sensor>``/``<projector>`` of a lumped link
    into the link it was lumped into."""
    old = blob.first("pose")
    text = "0 0 0 0 0 0"
    kept = ext.original_pose_text.get(id(blob))
    if old is not None:
        if "relative_to" in old.attrs:
            return
        if kept is not None:
            text = kept
        elif old.text is not None:
            text = old.text
        else:
            return
        blob.remove(old)
    values = text.split()
    try:
        numbers = [float(v) for v in values[:6]]
    except ValueError:
        return
    if len(numbers) < 6:
        return
    ext.original_pose_text.setdefault(id(blob), text)
    element_pose = Pose(tuple(numbers[:3]), Quat.from_rpy(*numbers[3:]))
    total = element_pose.in_parent(ext.reduction_transform)
    blob.sub("pose", " ".join(fmt_short(v) for v in total.p + total.q.urdf_rpy()))


def _replace_plugin_frame(plugin: Node, key: str, link: Link, reduction: Pose) -> None:
    element = plugin.first(key)
    if element is None or element.value() != link.name:
        return
    plugin.remove(element)
    plugin.sub(key, link.parent.name)
    xyz = plugin.first("xyzOffset")
    if xyz is not None:
        v = _vector3(xyz.value())
        reduction = Pose(v, reduction.q)
        plugin.remove(xyz)
    rpy = plugin.first("rpyOffset")
    if rpy is not None:
        reduction = Pose(reduction.p, Quat.from_rpy(*_vector3(rpy.value())))
        plugin.remove(rpy)
    corrected = plugin.first("ignition::corrected_offsets")
    if corrected is not None:
        plugin.remove(corrected)
    reduction = reduction.in_parent(link.parent_joint.origin)
    plugin.sub("xyzOffset", " ".join(fmt_short(v) for v in reduction.p))
    plugin.sub("rpyOffset", " ".join(fmt_short(v) for v in reduction.q.urdf_rpy()))
    plugin.sub("ignition::corrected_offsets", "1")


def _replace_projector_link(projector: Node, link: Link) -> Node:
    text = projector.value()
    if "/" not in text:
        return projector
    link_name, rest = text.split("/", 1)
    if link_name != link.name:
        return projector
    return Node("projector", text=f"{link.parent.name}/{rest}")


def _vector3(text: str) -> tuple[float, float, float]:
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        return (0.0, 0.0, 0.0)
    return tuple(values) if len(values) == 3 else (0.0, 0.0, 0.0)


def _lump_shapes(link: Link, visual: bool) -> None:
    parent = link.parent
    X_PL = link.parent_joint.origin
    shapes = link.visuals if visual else link.collisions
    target = parent.visuals if visual else parent.collisions
    for shape in shapes:
        if LUMP_PREFIX not in shape.name:
            shape.name = shape.name or link.name
        shape.origin = shape.origin.in_parent(X_PL)
        if not any(s is shape for s in target):
            target.append(shape)


# -- inertia, in the rigid-body mass arithmetic of the reference converter -----

def _rot_from_euler(phi: float, theta: float, psi: float):
    """The matrix ODE builds from Euler angles (the transpose of Rz·Ry·Rx)."""
    sphi, cphi = math.sin(phi), math.cos(phi)
    sthe, cthe = math.sin(theta), math.cos(theta)
    spsi, cpsi = math.sin(psi), math.cos(psi)
    return ((cpsi * cthe, spsi * cthe, -sthe),
            (cpsi * sthe * sphi - spsi * cphi, spsi * sthe * sphi + cpsi * cphi, cthe * sphi),
            (cpsi * sthe * cphi + spsi * sphi, spsi * sthe * cphi - cpsi * sphi, cthe * cphi))


class _Mass:
    def __init__(self, mass: float, inertial: Inertial):
        self.mass = mass
        self.c = (0.0, 0.0, 0.0)
        i = inertial
        self.I = ((i.ixx, i.ixy, i.ixz), (i.ixy, i.iyy, i.iyz), (i.ixz, i.iyz, i.izz))

    def rotate(self, R) -> None:
        I = spatial.matmul(R, spatial.matmul(self.I, spatial.transpose(R)))
        self.I = (I[0], (I[0][1], I[1][1], I[1][2]), (I[0][2], I[1][2], I[2][2]))
        self.c = spatial.matvec(R, self.c)

    def translate(self, a) -> None:
        c = self.c
        p = spatial.add(a, c)
        chat2 = _cross_squared(c)
        ahat2 = _cross_squared(p)
        m = self.mass
        I = tuple(tuple(self.I[r][k] + m * (chat2[r][k] - ahat2[r][k]) for k in range(3))
                  for r in range(3))
        self.I = (I[0], (I[0][1], I[1][1], I[1][2]), (I[0][2], I[1][2], I[2][2]))
        self.c = p

    def rotate_by_rpy_inverse(self, q: Quat) -> None:
        phi, theta, psi = q.urdf_rpy()
        self.rotate(_rot_from_euler(-phi, 0.0, 0.0))
        self.rotate(_rot_from_euler(0.0, -theta, 0.0))
        self.rotate(_rot_from_euler(0.0, 0.0, -psi))

    def add(self, other: "_Mass") -> None:
        total = self.mass + other.mass
        # Two massless parts (a link with no <inertial> and a fixed child of
        # mass 0): libsdformat divides by the zero total and writes NaN; the
        # combined centre stays where the parent's was.
        if total != 0.0:
            self.c = tuple((self.c[k] * self.mass + other.c[k] * other.mass) / total
                           for k in range(3))
        self.mass = total
        self.I = tuple(tuple(self.I[r][k] + other.I[r][k] for k in range(3)) for r in range(3))


def _cross_squared(v):
    x, y, z = v
    hat = ((0.0, -z, y), (z, 0.0, -x), (-y, x, 0.0))
    return spatial.matmul(hat, hat)


def _lump_inertial(link: Link) -> None:
    if link.inertial is None:
        return
    parent = link.parent
    if parent.inertial is None:
        parent.inertial = Inertial()
    pi = parent.inertial
    parent_mass = _Mass(pi.mass, pi)
    parent_mass.rotate_by_rpy_inverse(pi.origin.q)
    parent_mass.translate(pi.origin.p)
    li = link.inertial
    link_mass = _Mass(li.mass, li)
    link_mass.rotate_by_rpy_inverse(li.origin.q)
    link_mass.translate(li.origin.p)
    X_PL = link.parent_joint.origin
    link_mass.rotate_by_rpy_inverse(X_PL.q)
    link_mass.translate(X_PL.p)
    parent_mass.add(link_mass)
    pi.mass = parent_mass.mass
    com = parent_mass.c
    pi.origin = Pose(tuple(com), pi.origin.q)
    parent_mass.translate(tuple(-v for v in com))
    parent_mass.rotate(_rot_from_euler(*pi.origin.q.urdf_rpy()))
    I = parent_mass.I
    pi.ixx, pi.iyy, pi.izz = I[0][0], I[1][1], I[2][2]
    pi.ixy, pi.ixz, pi.iyz = I[0][1], I[0][2], I[1][2]
