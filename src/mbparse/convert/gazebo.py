"""The ``<gazebo>`` extension of URDF: reading it, and putting it into the
SDFormat elements the conversion writes.

A ``<gazebo>`` without ``reference`` applies to the model; with a link's or a
joint's name it applies to that link (and its visuals and collisions) or
joint. A few child elements have a special meaning (the tables of the
reference); everything else is copied as it stands ("blob insertion").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import DiagnosticPolicy
from .quat import Pose
from .sdf_tree import Node, fmt, from_lxml

LUMP_PREFIX = "_fixed_joint_lump__"
COLLISION_SUFFIX = "_collision"
VISUAL_SUFFIX = "_visual"
MATERIAL_SCRIPT_URI = "file://media/materials/scripts/gazebo.material"

_PREFIX_NUMBER = re.compile(r"\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)",
                            re.IGNORECASE)


@dataclass
class Extension:
    """One ``<gazebo>`` element, digested."""

    old_link_name: str = ""
    material: str = ""
    visual_blobs: list[Node] = field(default_factory=list)
    collision_blobs: list[Node] = field(default_factory=list)
    static: bool | None = None
    gravity: bool | None = None
    damping_factor: float | None = None
    max_vel: float | None = None
    min_depth: float | None = None
    mu1: float | None = None
    mu2: float | None = None
    fdir1: str = ""
    kp: float | None = None
    kd: float | None = None
    self_collide: bool | None = None
    max_contacts: int | None = None
    laser_retro: float | None = None
    spring_reference: float | None = None
    spring_stiffness: float | None = None
    stop_cfm: float | None = None
    stop_erp: float | None = None
    fudge_factor: float | None = None
    provide_feedback: bool | None = None
    implicit_spring_damper: bool | None = None
    blobs: list[Node] = field(default_factory=list)
    # Where the extension's link sits in the link it was lumped into.
    reduction_transform: Pose = field(default_factory=Pose)
    # The original pose text of a blob <sensor>/<projector>, kept across reductions.
    original_pose_text: dict[int, str] = field(default_factory=dict)


@dataclass
class Extensions:
    """All ``<gazebo>`` elements by reference ("" for the model), in file order,
    and the joints whose lumping is switched off."""

    by_reference: dict[str, list[Extension]] = field(default_factory=dict)
    joints_to_revolute: set[str] = field(default_factory=set)
    joints_kept_fixed: set[str] = field(default_factory=set)

    def get(self, reference: str) -> list[Extension]:
        return self.by_reference.get(reference, [])

    def all(self):
        for key in sorted(self.by_reference):
            yield from self.by_reference[key]


def _value_text(el) -> str:
    if el.get("value") is not None:
        return el.get("value").strip()
    return (el.text or "").strip()


def _truthy(text: str) -> bool:
    return text.lower() in ("true", "yes") or text == "1"


def read_extensions(robot, policy: DiagnosticPolicy, file: str | None) -> Extensions:
    """Reads every ``<gazebo>`` child of ``<robot>``."""
    exts = Extensions()

    def number(el) -> float:
        text = _value_text(el)
        m = _PREFIX_NUMBER.match(text)
        if not m:
            policy.error(f"<{el.tag}> needs a number, found '{text}'", file, el.sourceline,
                         code="convert-value-invalid")
        if m.end() != len(text):
            policy.warning(f"<{el.tag}> value '{text}' has trailing text; only the leading "
                           "number is used", file, el.sourceline, code="convert-unsupported")
        return float(m.group(0))

    for gz in robot.findall("gazebo"):
        ref = gz.get("reference") or ""
        exts.by_reference.setdefault(ref, [])
        ext = Extension()
        for child in gz:
            if not isinstance(child.tag, str):
                continue
            ext.old_link_name = ref
            name = child.tag if "}" not in child.tag else from_lxml(child).name
            if name == "material":
                ext.material = _value_text(child)
            elif name in ("collision", "visual"):
                target = ext.collision_blobs if name == "collision" else ext.visual_blobs
                target.extend(from_lxml(c) for c in child if isinstance(c.tag, str))
            elif name == "static":
                ext.static = _truthy(_value_text(child))
            elif name == "turnGravityOff":
                text = _value_text(child)
                ext.gravity = text.lower() in ("false", "no") or text == "0"
            elif name in _NUMERIC:
                setattr(ext, _NUMERIC[name], number(child))
            elif name == "maxContacts":
                ext.max_contacts = int(number(child))
            elif name == "fdir1":
                ext.fdir1 = _value_text(child)
            elif name == "selfCollide":
                ext.self_collide = _truthy(_value_text(child))
            elif name == "provideFeedback":
                ext.provide_feedback = _truthy(_value_text(child))
            elif name == "canonicalBody":
                policy.warning("<canonicalBody> has no meaning in SDFormat and is ignored",
                               file, child.sourceline, code="convert-unsupported")
            elif name in ("cfmDamping", "implicitSpringDamper"):
                if name == "cfmDamping":
                    policy.warning("<cfmDamping> is deprecated; it is read as "
                                   "<implicitSpringDamper>", file, child.sourceline,
                                   code="convert-unsupported")
                ext.implicit_spring_damper = _truthy(_value_text(child))
            elif name == "disableFixedJointLumping":
                if _truthy(_value_text(child)):
                    exts.joints_to_revolute.add(ref)
            elif name == "preserveFixedJoint":
                if _truthy(_value_text(child)):
                    exts.joints_kept_fixed.add(ref)
            else:
                ext.blobs.append(from_lxml(child))
        exts.by_reference[ref].append(ext)
    # preserveFixedJoint wins over disableFixedJointLumping.
    exts.joints_to_revolute -= exts.joints_kept_fixed
    return exts


_NUMERIC = {"dampingFactor": "damping_factor", "maxVel": "max_vel", "minDepth": "min_depth",
            "mu1": "mu1", "mu2": "mu2", "kp": "kp", "kd": "kd", "laserRetro": "laser_retro",
            "springReference": "spring_reference", "springStiffness": "spring_stiffness",
            "stopCfm": "stop_cfm", "stopErp": "stop_erp", "fudgeFactor": "fudge_factor"}


def _applies(element_name: str, link_name: str, ext: Extension, suffix: str) -> bool:
    """Whether an extension of ``link_name`` reaches a visual/collision: the link's
    own extensions reach its own (not lumped) shapes; a lumped link's extensions
    reach only the shapes lumped from it."""
    was_reduced = link_name == ext.old_link_name
    lumped_from_it = (LUMP_PREFIX + ext.old_link_name + suffix) in element_name
    has_lump = LUMP_PREFIX in element_name
    return (was_reduced and not has_lump) or (not was_reduced and lumped_from_it)


def insert_collision_extensions(collision: Node, link_name: str, exts: Extensions) -> None:
    """Friction, contact and blob settings into one ``<collision>``."""
    if link_name not in exts.by_reference:
        return
    surface = collision.first("surface")
    friction = friction_ode = contact = contact_ode = None
    name = collision.attrs.get("name", "")
    for ext in exts.get(link_name):
        if not _applies(name, link_name, ext, COLLISION_SUFFIX):
            continue
        for blob in ext.collision_blobs:
            if blob.name == "surface":
                if surface is not None:
                    collision.remove(surface)
                surface = collision.append(blob.copy())
                contact = surface.first("contact")
                contact_ode = contact.first("ode") if contact is not None else None
                friction = surface.first("friction")
                friction_ode = friction.first("ode") if friction is not None else None
            else:
                collision.append(blob.copy())
        if surface is None:
            surface = collision.sub("surface")
        if contact is None:
            contact = surface.first("contact") or surface.sub("contact")
        if contact_ode is None:
            contact_ode = contact.first("ode") or contact.sub("ode")
        if friction is None:
            friction = surface.first("friction") or surface.sub("friction")
        if friction_ode is None:
            friction_ode = friction.first("ode") or friction.sub("ode")
        if ext.mu1 is not None:
            friction_ode.set_value("mu", fmt(ext.mu1))
        if ext.mu2 is not None:
            friction_ode.set_value("mu2", fmt(ext.mu2))
        if ext.fdir1:
            friction_ode.set_value("fdir1", ext.fdir1)
        for attr, key in (("kp", "kp"), ("kd", "kd"), ("max_vel", "max_vel"),
                          ("min_depth", "min_depth")):
            if getattr(ext, attr) is not None:
                contact_ode.set_value(key, fmt(getattr(ext, attr)))
        if ext.laser_retro is not None:
            collision.set_value("laser_retro", fmt(ext.laser_retro))
        if ext.max_contacts is not None:
            collision.set_value("max_contacts", str(ext.max_contacts))


def insert_visual_extensions(visual: Node, link_name: str, exts: Extensions) -> None:
    """Material and blob settings into one ``<visual>``."""
    if link_name not in exts.by_reference:
        return
    material = visual.first("material")
    script = None
    name = visual.attrs.get("name", "")
    for ext in exts.get(link_name):
        if not _applies(name, link_name, ext, VISUAL_SUFFIX):
            continue
        for blob in ext.visual_blobs:
            if blob.name == "material":
                if material is not None:
                    visual.remove(material)
                material = visual.append(blob.copy())
                script = material.first("script")
            else:
                visual.append(blob.copy())
        if ext.material:
            if material is None:
                material = visual.sub("material")
            if script is None:
                script = material.first("script") or material.sub("script")
            script.set_value("name", ext.material)
            script.set_value("uri", MATERIAL_SCRIPT_URI)


def insert_link_extensions(link: Node, link_name: str, exts: Extensions) -> None:
    """Gravity, velocity decay, self collision and blobs into a ``<link>``."""
    for ext in exts.get(link_name):
        if ext.gravity is not None:
            link.set_value("gravity", "true" if ext.gravity else "false")
        if ext.damping_factor is not None:
            decay = link.sub("velocity_decay")
            decay.sub("linear", fmt(ext.damping_factor))
            decay.sub("angular", fmt(ext.damping_factor))
        if ext.self_collide is not None:
            link.set_value("self_collide", "1" if ext.self_collide else "0")
        for blob in ext.blobs:
            link.append(blob.copy())


def insert_joint_extensions(joint: Node, joint_name: str, exts: Extensions) -> None:
    """ODE limits, spring, feedback and blob settings into a ``<joint>``."""
    for ext in exts.get(joint_name):
        physics = joint.first("physics")
        new_physics = physics is None
        physics = physics or Node("physics")
        ode = physics.first("ode")
        new_ode = ode is None
        ode = ode or Node("ode")
        limit = ode.first("limit")
        new_limit = limit is None
        limit = limit or Node("limit")
        axis = joint.first("axis")
        new_axis = axis is None
        axis = axis or Node("axis")
        dynamics = axis.first("dynamics")
        new_dynamics = dynamics is None
        dynamics = dynamics or Node("dynamics")
        if ext.stop_cfm is not None:
            limit.set_value("cfm", fmt(ext.stop_cfm))
        if ext.stop_erp is not None:
            limit.set_value("erp", fmt(ext.stop_erp))
        if ext.spring_reference is not None:
            dynamics.set_value("spring_reference", fmt(ext.spring_reference))
        if ext.spring_stiffness is not None:
            dynamics.set_value("spring_stiffness", fmt(ext.spring_stiffness))
        if ext.provide_feedback is not None:
            text = "true" if ext.provide_feedback else "false"
            physics.set_value("provide_feedback", text)
            ode.set_value("provide_feedback", text)
        if ext.implicit_spring_damper is not None:
            text = "true" if ext.implicit_spring_damper else "false"
            ode.set_value("implicit_spring_damper", text)
            ode.set_value("cfm_damping", text)
        if ext.fudge_factor is not None:
            ode.set_value("fudge_factor", fmt(ext.fudge_factor))
        if new_dynamics:
            axis.append(dynamics)
        if new_axis:
            joint.append(axis)
        if new_limit:
            ode.append(limit)
        if new_ode:
            physics.append(ode)
        if new_physics:
            joint.append(physics)
        for blob in ext.blobs:
            joint.append(blob.copy())


def insert_model_extensions(model: Node, exts: Extensions, always_static: bool = False) -> None:
    """The static flag and blobs of reference-less ``<gazebo>`` into ``<model>``.

    ``always_static`` writes ``<static>`` for every such element, given or not
    (libsdformat before 12.7 did)."""
    for ext in exts.get(""):
        if ext.static is not None or always_static:
            model.set_value("static", "true" if ext.static else "false")
        for blob in ext.blobs:
            model.append(blob.copy())
