"""Writing the SDFormat ``<model>`` of a (lumped) URDF link tree: links with
their inertials, collisions and visuals, joints, and the ``<gazebo>``
extensions in their places. Names, element order and numbers follow
libsdformat's converter (``LINK_collision``, ``LINK_collision_1``, ...;
continuous joints become revolute joints without position limits)."""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import DiagnosticPolicy
from .gazebo import (COLLISION_SUFFIX, LUMP_PREFIX, VISUAL_SUFFIX, Extensions,
                     insert_collision_extensions, insert_joint_extensions,
                     insert_link_extensions, insert_model_extensions,
                     insert_visual_extensions)
from .lumping import WORLD, Lumper
from .quat import Pose
from .sdf_tree import Node, fmt, fmt_short, fmt_values
from .urdf_model import Geometry, Link, Shape, UrdfModel

MASS_EPSILON = 1e-6


@dataclass
class ConvertOptions:
    """Choices of the conversion.

    ``preserve_fixed_joints`` keeps every fixed joint (no lumping at all).
    ``lumped_joint_frames`` writes a ``<frame>`` for each lumped joint and link,
    as current libsdformat does. ``legacy_massless_links`` reproduces
    libsdformat before 12.7.2, where a massless link that was lumped away still
    cut off the links below it; later versions keep them. ``always_write_static``
    writes ``<static>false</static>`` for a reference-less ``<gazebo>`` that does
    not set it, as libsdformat before 12.7 did.
    """

    preserve_fixed_joints: bool = False
    lumped_joint_frames: bool = True
    legacy_massless_links: bool = False
    always_write_static: bool = False

    @classmethod
    def like_libsdformat_12_3(cls) -> "ConvertOptions":
        """The behaviour of libsdformat 12.3 (Debian 12's package): no frames for
        lumped joints (added in 12.7), the static flag always written (until
        12.7), massless lumped links cutting off their subtree (until 12.7.2)."""
        return cls(lumped_joint_frames=False, legacy_massless_links=True,
                   always_write_static=True)


class SdfWriter:
    """Builds the ``<sdf>`` tree of a URDF model."""

    def __init__(self, model: UrdfModel, exts: Extensions, options: ConvertOptions,
                 policy: DiagnosticPolicy, file: str | None):
        self.model = model
        self.exts = exts
        self.options = options
        self.policy = policy
        self.file = file
        self.lumper = Lumper(exts, options.preserve_fixed_joints)

    def build(self, robot_origin: Pose | None = None) -> Node:
        model = Node("model", {"name": self.model.name})
        root = self.model.root
        if not self.options.preserve_fixed_joints:
            self.lumper.reduce(root)
        if root.name == WORLD:
            for child in root.child_links:
                self._create(model, child)
        else:
            self._create(model, root)
        insert_model_extensions(model, self.exts, self.options.always_write_static)
        if robot_origin is not None:
            model.set_value("pose", fmt_values(robot_origin.p + robot_origin.q.urdf_rpy()))
        if self.options.lumped_joint_frames:
            self._add_frames(model)
        sdf = Node("sdf", {"version": "1.9"})
        sdf.append(model)
        return sdf

    def _add_frames(self, model: Node) -> None:
        """The frames of lumped joints and links. URDF lets a joint share a link's
        name, SDFormat does not: a joint frame whose name is taken is left out and
        its link frame takes the joint's pose directly (libsdformat writes both,
        giving a model its own reader refuses)."""
        taken = {c.attrs.get("name") for c in model.children if c.name in ("link", "joint")}
        standing_in: dict[str, str] = {}  # a link frame not written -> the frame it sat on
        for joint_frame, link_frame in self.lumper.frames:
            if joint_frame.attrs["name"] in taken:
                self.policy.warning(f"no <frame> is written for lumped joint "
                                    f"'{joint_frame.attrs['name']}': a link has that name; frame "
                                    f"'{link_frame.attrs['name']}' is placed by the joint's pose "
                                    "instead", self.file, None, code="convert-frame-name-taken")
                link_frame.attrs["attached_to"] = joint_frame.attrs["attached_to"]
                link_frame.children = joint_frame.children
            else:
                model.append(joint_frame)
                taken.add(joint_frame.attrs["name"])
            if link_frame.attrs["name"] in taken:
                self.policy.warning(f"no <frame> is written for lumped link "
                                    f"'{link_frame.attrs['name']}': the name is taken",
                                    self.file, None, code="convert-frame-name-taken")
                standing_in[link_frame.attrs["name"]] = link_frame.attrs["attached_to"]
                continue
            model.append(link_frame)
            taken.add(link_frame.attrs["name"])
        # A lumped joint named as its lumped parent link took that link's
        # frame name, and so was attached to itself (a cycle libsdformat
        # refuses): it hangs from the frame that stood for the link (the link
        # frame sits on its joint's frame, so the pose is unchanged).
        for frame in model.all("frame"):
            name = frame.attrs.get("name")
            if frame.attrs.get("attached_to") == name and name in standing_in:
                frame.attrs["attached_to"] = standing_in[name]

    # -- links --------------------------------------------------------------

    def _massless(self, link: Link) -> bool:
        if link.inertial is None:
            return True
        if self.options.legacy_massless_links:
            return abs(link.inertial.mass) <= MASS_EPSILON
        return link.inertial.mass <= 0

    def _create(self, model: Node, top: Link) -> None:
        """Writes ``top`` and the links below it, depth first (with its own
        stack: a chain of any length is written without Python's recursion
        limit)."""
        stack = [top]
        while stack:
            link = stack.pop()
            if self._create_one(model, link):
                stack.extend(reversed(link.child_links))

    def _create_one(self, model: Node, link: Link) -> bool:
        """Writes one link; whether the links below it are written too."""
        lumped = (link.parent is not None and link.parent.name != WORLD
                  and self.lumper.lumps(link.parent_joint))
        massless = link.name != WORLD and self._massless(link)
        if massless:
            parent_joint_lumped = self.lumper.lumps(link.parent_joint)
            if self.options.legacy_massless_links or not parent_joint_lumped:
                self._warn_dropped(link, lumped)
                return False
        if not lumped and not massless:
            self._create_link(model, link)
        return True

    def _warn_dropped(self, link: Link, lumped: bool) -> None:
        if lumped and not link.child_links:
            return  # its content went to the parent; nothing is lost
        what = "no <inertial>" if link.inertial is None else "no positive mass"
        below = f" and the {len(link.child_links)} link(s) below it" if link.child_links else ""
        self.policy.warning(f"link '{link.name}' has {what}; it{below} are left out of the "
                            "SDFormat model, as libsdformat's converter does", self.file, link.line,
                            code="convert-unsupported")

    def _create_link(self, model: Node, link: Link) -> None:
        node = Node("link", {"name": link.name})
        if link.parent_joint is not None:
            node.sub("pose", "0 0 0 0 0 0", relative_to=link.parent_joint.name)
        node.append(_inertial(link))
        for i, shape in enumerate(link.collisions):
            node.append(self._shape(link, shape, i, visual=False))
        for i, shape in enumerate(link.visuals):
            node.append(self._shape(link, shape, i, visual=True))
        insert_link_extensions(node, link.name, self.exts)
        self._create_joint(model, link)
        model.append(node)

    def _shape(self, link: Link, shape: Shape, index: int, visual: bool) -> Node:
        base = (shape.name or link.name) + (VISUAL_SUFFIX if visual else COLLISION_SUFFIX)
        if index > 0:
            base += f"_{index}"
        name = base if base.startswith(link.name) else link.name + LUMP_PREFIX + base
        node = Node("visual" if visual else "collision", {"name": name})
        node.sub("pose", fmt_values(shape.origin.urdf_values()))
        geometry = _geometry(shape.geometry)
        if geometry is not None:
            node.append(geometry)
        if visual:
            insert_visual_extensions(node, link.name, self.exts)
            if shape.material is not None:
                _material_colors(node, shape)
        else:
            insert_collision_extensions(node, link.name, self.exts)
        return node

    # -- joints -------------------------------------------------------------

    def _create_joint(self, model: Node, link: Link) -> None:
        joint = link.parent_joint
        if joint is None:
            return
        jtype = {"continuous": "revolute", "revolute": "revolute", "prismatic": "prismatic",
                 "fixed": "fixed"}.get(joint.type, "")
        to_revolute = jtype == "fixed" and joint.name in self.exts.joints_to_revolute
        if link.parent.name != WORLD and self.lumper.lumps(joint):
            return
        if not jtype:
            self.policy.warning(f"joint '{joint.name}' of type '{joint.type}' has no SDFormat "
                                "counterpart in the converter and is left out", self.file,
                                joint.line, code="convert-unsupported")
            return
        node = Node("joint", {"type": "revolute" if to_revolute else jtype, "name": joint.name})
        parent_name = link.parent.name
        node.sub("pose", fmt_values(joint.origin.euler_values()),
                 relative_to="__model__" if parent_name == WORLD else parent_name)
        node.sub("parent", parent_name)
        node.sub("child", link.name)
        axis, limit, dynamics = Node("axis"), Node("limit"), Node("dynamics")
        if to_revolute:
            limit.sub("lower", "0")
            limit.sub("upper", "0")
            dynamics.sub("damping", "0")
            dynamics.sub("friction", "0")
        elif jtype != "fixed":
            axis.sub("xyz", fmt_values(joint.axis))
            if joint.dynamics is not None:
                dynamics.sub("damping", fmt(joint.dynamics.damping))
                dynamics.sub("friction", fmt(joint.dynamics.friction))
            if joint.limits is not None:
                lim = joint.limits
                if joint.type != "continuous":
                    if lim.lower > lim.upper:
                        self.policy.warning(f"joint '{joint.name}' has lower limit {lim.lower} "
                                            f"above upper limit {lim.upper}; they are swapped",
                                            self.file, joint.line, code="limit-inverted")
                        lim.lower, lim.upper = lim.upper, lim.lower
                    limit.sub("lower", fmt(lim.lower))
                    limit.sub("upper", fmt(lim.upper))
                limit.sub("effort", fmt(lim.effort))
                limit.sub("velocity", fmt(lim.velocity))
        if jtype != "fixed" or to_revolute:
            axis.append(limit)
            axis.append(dynamics)
            node.append(axis)
        insert_joint_extensions(node, joint.name, self.exts)
        model.append(node)


def _inertial(link: Link) -> Node:
    i = link.inertial
    node = Node("inertial")
    node.sub("pose", fmt_values(i.origin.euler_values()))
    node.sub("mass", fmt(i.mass))
    inertia = node.sub("inertia")
    for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
        inertia.sub(key, fmt(getattr(i, key)))
    return node


def _geometry(g: Geometry) -> Node | None:
    geometry = Node("geometry")
    shape = geometry.sub(g.kind)
    if g.kind == "box":
        shape.sub("size", fmt_values(g.size))
    elif g.kind == "cylinder":
        shape.sub("length", fmt(g.length))
        shape.sub("radius", fmt(g.radius))
    elif g.kind == "sphere":
        shape.sub("radius", fmt(g.radius))
    elif g.kind == "mesh":
        shape.sub("scale", " ".join(fmt_short(v) for v in g.scale))
        uri = g.filename
        pos = uri.find("package://")
        if pos >= 0:
            uri = uri[:pos] + "model://" + uri[pos + len("package://"):]
        shape.sub("uri", uri)
    else:
        return None
    return geometry


def _clamp(v: float) -> float:
    return min(max(v, 0.0), 1.0)


def _material_colors(visual: Node, shape: Shape) -> None:
    material = visual.first("material")
    if material is None:
        material = visual.sub("material", "")
    if material.first("diffuse") is None and material.first("ambient") is None:
        r, g, b, a = shape.material.color
        material.sub("diffuse", fmt_values((_clamp(r / 0.8), _clamp(g / 0.8), _clamp(b / 0.8), a)))
        material.sub("ambient", fmt_values((_clamp(0.5 * r / 0.4), _clamp(0.5 * g / 0.4),
                                            _clamp(0.5 * b / 0.4), a)))
