"""URDF reader (http://wiki.ros.org/urdf/XML) with Drake's extensions.

Read in the order Drake reads: materials, links, collision filter groups,
joints, mimic tags, transmissions, then frames, bushings, spring-dampers and
constraints. Unsupported tags warn, or are ignored silently, as the reference
lists them.
"""
from __future__ import annotations

import math
import os
from typing import NamedTuple

from ...plant import (BallRpyJoint, CurvilinearJoint, PlanarJoint, PrismaticJoint, RevoluteJoint,
                     ScrewJoint, UniversalJoint, WeldJoint)
from ...spatial import (IDENTITY, RigidTransform, closest_rotation_from_unit_z, fast_number,
                        norm, parse_float_prefixes)
from ...source_location import CURRENT_SOURCE
from ...description import describe
from ... import memory
from ...diagnostics import ParseError
from ...workspace import DataSource, Workspace
from ..common import drake
from . import force_elements, loop_joints, sensors, spec
from .geometry import GeometryReader, UsedNames
from ..common.xml import (MEMO_LIMIT, REFUSALS, attr, child_map, children,
                          first_child, load_xml, qname)
from .comma_numbers import UrdfXmlDiagnostic
from ..common.suggest import did_you_mean, too_many

WORLD = "world"
# In a large file, the C heap's free pages are handed back after every so many
# links are read and freed (see mbparse.memory).
RELEASE_EVERY_LINKS = 2048
INF = math.inf
INERTIA_KEYS = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")


class LinkEnd(NamedTuple):
    """One end of a two-link element: the body its ``link`` attribute names,
    and the end element (for its pose and for locating problems)."""

    body: object
    node: object

# Children of <robot> this reader understands, or ignores on purpose.
KNOWN_ROBOT_CHILDREN = {
    "material", "link", "joint", "drake:joint", "transmission", "frame", "loop_joint",
    "force_element", "sensor",  # read by loop_joints/force_elements/sensors (not Drake's)
    "drake:collision_filter_group", "drake:linear_bushing_rpy", "drake:linear_spring_damper",
    "drake:ball_constraint", "drake:distance_constraint", "drake:tendon_constraint",
    "gazebo",  # ignored silently, as the reference says
}
# Children of <transmission> that are warned about, in this order.
UNSUPPORTED_TRANSMISSION_CHILDREN = (
    "leftActuator", "rightActuator", "flexJoint", "rollJoint", "gap_joint", "passive_joint",
    "use_simulated_gripper_joint")
# Children of <link> that other URDF consumers read and Drake does not: valid
# input, so a note rather than a warning (pybullet's contact parameters, the
# URDF schema's self-collision flag).
OTHER_CONSUMERS_LINK_CHILDREN = {"contact", "self_collision_checking"}
def _unknown_child(diag, child, tag: str, parent: str, known) -> None:
    """An element neither URDF nor a known extension gives ``parent``: a
    warning naming the element probably meant when one is within an edit or
    two (a typo such as <inertail>), otherwise a note -- the element of some
    other tool (<ros2_control>, <mujoco>, <self_filter>), valid input that
    Drake ignores too."""
    meant = did_you_mean(tag, known, element=True)
    if meant:
        diag.warning(child, f"<{tag}> is not a child {parent} may have; it is ignored.{meant}",
                     code="urdf-unknown-element")
    else:
        diag.warning(child, f"<{tag}> is not a child {parent} may have in URDF or Drake's "
                            "extensions (another tool's element?); it is ignored",
                     code="urdf-unsupported")


# The attributes of a joint's <limit>, in the order limits() returns them.
# The children of an <inertial>, each read (and checked) by spatial_inertia.
_INERTIAL_CHILDREN = ("origin", "mass", "inertia")
LIMIT_ATTRIBUTES = ("lower", "upper", "velocity", "drake:acceleration", "effort")
SAFETY_ATTRIBUTES = ("soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity")
CALIBRATION_ATTRIBUTES = ("rising", "falling", "reference_position")
STANDARD_JOINT_TYPES = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}
CUSTOM_JOINT_TYPES = {"ball", "screw", "universal", "curvilinear"}


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    index = add_model(source, "", parent_model_name, workspace)
    return [] if index is None else [index]


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    return UrdfReader(source, model_name, parent_model_name, workspace, None).parse()[0]


def merge_model(source: DataSource, model_name: str, into_instance: int,
                workspace: Workspace) -> str:
    return UrdfReader(source, model_name, None, workspace, into_instance).parse()[1]


class UrdfReader:
    def __init__(self, source: DataSource, model_name: str, parent_model_name: str | None,
                 workspace: Workspace, merge_into: int | None):
        self.source = source
        self.model_name = model_name
        self.parent_model_name = parent_model_name
        self.ws = workspace
        self.plant = workspace.plant
        self.merge_into = merge_into
        self.diag = UrdfXmlDiagnostic(workspace.diagnostic, source.name())
        self.geometry = GeometryReader(self.diag, workspace.package_map, source.root_dir())
        self.instance = -1
        self.effort_limits: dict[str, float] = {}
        # (joint element, its <mimic>), in document order, as joint() finds them
        self._mimics: list[tuple] = []
        # The values of <inertia> attribute texts read as six plain numbers
        # (a model repeats a few inertias; per file, as XmlDiagnostic's memos).
        self._inertias: dict[tuple, tuple[float, ...]] = {}

    # ------------------------------------------------------------ robot
    def _unnamed_robot(self, root) -> str:
        """The model name of a ``<robot>`` without one: Drake (and urdfdom)
        refuse it; the default mode names it after its file (``ur3.urdf``,
        ``arm.urdf.xacro`` -> ``ur3``, ``arm``). Contents given as a string
        have no file to name it after and stay refused."""
        message = "<robot> has no name attribute and no model name was given; name the robot"
        filename = self.source.filename
        if filename is None and self.source.display_name:
            filename = self.source.display_name.removesuffix(" (expanded)")
        stem = os.path.basename(filename or "")
        while True:
            base, ext = os.path.splitext(stem)
            if not base or ext.lower() not in (".urdf", ".xacro", ".xml"):
                break
            stem = base
        if not stem or self.diag.policy.like_drake:
            self.diag.error(root, message, code="urdf-attribute-missing")
        self.diag.drake_refuses(root, message, f"the model is named '{stem}' after its file",
                                code="urdf-attribute-missing")
        return stem

    def parse(self) -> tuple[int | None, str]:
        diag = self.diag
        root = load_xml(self.source, diag, "file" if self.source.is_file() else "string")
        if root.tag != "robot":
            diag.error(root, f"the root element is <{root.tag}>, not <robot>; this is not a URDF file",
                       code="urdf-root")
        diag.warn_unsupported_attribute(root, "version")
        self.spec = check = spec.SpecCheck(diag, root)
        self.geometry.spec = check
        try:
            return self._read(root)
        except Exception:
            check.rest(root)  # (the parts not read yet)
            raise

    def _read(self, root) -> tuple[int | None, str]:
        diag = self.diag
        check = self.spec
        # One pass over <robot>'s children, in document order per tag.
        by_tag: dict[str, list] = {}
        joint_elements = []
        for child in root:
            tag = raw = child.tag
            if tag.__class__ is not str or tag[0] == "{":
                if tag.__class__ is not str:
                    continue  # (not an element)
                tag = qname(child)
            if tag not in KNOWN_ROBOT_CHILDREN:
                _unknown_child(diag, child, tag, "<robot>", KNOWN_ROBOT_CHILDREN)
            by_tag.setdefault(tag, []).append(child)
            if tag == "joint" or tag == "drake:joint":
                joint_elements.append(child)  # (each checked as it is read)
            elif tag != "link" and raw not in spec.FOREIGN:
                check.subtree(child)
        found = by_tag.get
        name = self.model_name or root.get("name")
        if not name:
            name = self._unnamed_robot(root)
        if self.merge_into is None:
            name = self.ws.make_model_name(name, self.parent_model_name)
            with diag.located(root):
                self.instance = self.plant.add_model_instance(name)
        else:
            self.instance = self.merge_into

        recovering = diag.policy.recovering
        for el in found("material", ()):
            with recovering():
                self.geometry.material(el, name_required=True)
        self._read_links(root, by_tag.pop("link", []))
        if self.plant.geometry_source_is_registered():
            for el in found("drake:collision_filter_group", ()):
                with recovering():
                    self.collision_filter_group(el)
        policy = diag.policy
        for el in joint_elements:
            try:
                self.joint(el)
            except ParseError as e:  # (as recovering(), without a context per joint)
                if not policy.recovered(e):
                    raise
        for el, node in self._mimics:
            with recovering():
                self.mimic(el, node)
        for el in found("transmission", ()):
            try:
                self.transmission(el)
            except ParseError as e:
                if not policy.recovered(e):
                    raise
        for el in found("loop_joint", ()):
            with recovering():
                loop_joints.read_loop_joint(self, el)
        for el in found("frame", ()):
            with recovering():
                self.frame(el)
        parts = UrdfDrakeParts(self)
        for tag, read in (("drake:linear_bushing_rpy", drake.read_linear_bushing_rpy),
                          ("drake:linear_spring_damper", drake.read_linear_spring_damper),
                          ("drake:ball_constraint", drake.read_ball_constraint),
                          ("drake:distance_constraint", drake.read_distance_constraint)):
            for el in found(tag, ()):
                with recovering():
                    read(parts, el)
        for el in found("force_element", ()):
            with recovering():
                force_elements.read_force_element(self, el)
        if "sensor" in by_tag:
            with recovering():
                sensors.read_sensors(self, root)
        for el in found("drake:tendon_constraint", ()):
            with recovering():
                diag.error(el, "<drake:tendon_constraint> is not supported by mbparse yet; the "
                           "model would be incomplete", code="urdf-not-supported")
        return self.instance, name

    # ------------------------------------------------------------ links
    def _read_links(self, root, links: list) -> None:
        """Reads every ``<link>``, in document order, and then takes it out
        of the tree: nothing later reads a link's element (joints and the
        rest find links by name in the plant), and links are most of a large
        file's tree, so the tree shrinks as the model grows. ``links`` is
        emptied as it goes, so that no reference keeps a read link alive."""
        policy = self.diag.policy
        links.reverse()
        count = 0
        while links:
            el = links.pop()
            try:
                self.link(el)
            except ParseError as e:  # (as policy.recovering(), without a context per link)
                if not policy.recovered(e):
                    raise
            root.remove(el)
            del el
            count += 1
            if count % RELEASE_EVERY_LINKS == 0:
                memory.release_freed_memory()

    def link(self, el) -> None:
        diag = self.diag
        name = ignore = kind = None
        # (one lxml call, where a get() costs as much for each name, found or not)
        for key, value in el.items():
            if key == "name":
                name = value
            elif key == "drake_ignore":
                ignore = value
            elif key == "type":
                kind = value
        if ignore == "true":
            self.spec.subtree(el)
            return
        if kind is not None:
            diag.warn_unsupported_attribute(el, "type")
        if name is None:
            diag.error(el, "<link> has no name attribute", code="urdf-attribute-missing")
        inertial = sv = None
        visuals, collisions = [], []
        for child in el:  # (plain iteration, the cheapest lxml offers; comments skipped below)
            tag = child.tag
            if tag.__class__ is not str:
                continue  # a comment or processing instruction
            if tag[0] == "{":
                tag = qname(child)
            if tag == "visual":
                visuals.append(child)
            elif tag == "collision":
                collisions.append(child)
            elif tag == "inertial" and inertial is None:
                inertial = child
            else:
                if tag == "drake:surface_velocity_axis":
                    sv = child if sv is None else sv
                elif tag in OTHER_CONSUMERS_LINK_CHILDREN:
                    diag.warning(child, f"<{tag}> of a link is read by other simulators, not by "
                                        "Drake; it is ignored", code="urdf-unsupported")
                elif tag != "inertial":
                    _unknown_child(diag, child, tag, "<link>", ("visual", "collision", "inertial"))
                self.spec.subtree(child)  # (not read further)
        if name == WORLD:
            body = self.plant.world_body()
            if inertial is not None:
                self.spec.subtree(inertial)
                diag.warning(el, "the world link cannot have mass properties; its <inertial> is "
                                 "ignored (only <visual> and <collision> may be given to it)",
                             code="urdf-unsupported")
        else:
            M = None
            if inertial is not None:
                try:
                    M = self.spatial_inertia(inertial)
                except ParseError as e:  # recovered: else the body and its joints are lost too
                    if not diag.policy.recovered(e):
                        raise
            # (as diag.located(el), without a context object per link)
            token = CURRENT_SOURCE.set(diag.where(el))
            try:
                body = self.plant.add_rigid_body(name, self.instance, M)
            except REFUSALS as e:
                diag.refused(el, e)
            finally:
                CURRENT_SOURCE.reset(token)
        if (visuals or collisions) and self.plant.geometry_source_is_registered():
            plant, geometry = self.plant, self.geometry
            if visuals:
                self._add_geometries(body, name, visuals, geometry.visual,
                                     plant.register_visual_geometry)
            if collisions:
                self._add_geometries(body, name, collisions, geometry.collision,
                                     plant.register_collision_geometry)
        else:
            for child in visuals + collisions:
                self.spec.subtree(child)
        if sv is not None:
            if body.is_world():
                diag.warning(el, "the world link cannot have a surface velocity; its "
                                 "<drake:surface_velocity_axis> is ignored",
                             code="urdf-unsupported")
            elif diag.vector(sv, "axis", 3) is None:
                diag.error(sv, "<drake:surface_velocity_axis> needs an 'axis' attribute of three numbers",
                           code="urdf-attribute-missing")
            else:
                diag.warning(sv, "<drake:surface_velocity_axis> is read but not kept by mbparse: "
                                 "surface velocities are not part of its model.",
                             code="urdf-unsupported")

    def _add_geometries(self, body, link_name: str, elements: list, read, register) -> None:
        """Reads each of a link's visuals (or collisions) with ``read`` and
        adds it with ``register``; an error ends only that element. (A
        geometry instance carries its own source: no located() context.)"""
        diag = self.diag
        used = UsedNames()
        for el in elements:
            try:
                instance = read(el, link_name, used)
                if instance is not None:
                    try:
                        register(body, instance)
                    except REFUSALS as e:
                        diag.refused(el, e)
            except ParseError as e:
                if not diag.policy.recovered(e):
                    raise

    def spatial_inertia(self, el):
        diag = self.diag
        check = self.spec
        kids, _ = check.children(el, "inertial" if el.tag == "inertial" else None, None,
                                 _INERTIAL_CHILDREN)
        origin_el, mass_el, inertia_el = kids.get("origin"), kids.get("mass"), kids.get("inertia")
        X = IDENTITY if origin_el is None else diag.origin(origin_el, check.origin_has_others)
        mass = 0.0
        if mass_el is not None:
            text = mass_el.get("value")
            check.counted(mass_el, "mass", text is not None)
            mass = diag.scalar(mass_el, "value", 0.0, text)
        values = [0.0] * 6
        if inertia_el is not None:
            texts = tuple(map(inertia_el.get, INERTIA_KEYS))
            check.counted(inertia_el, "inertia", 6 - texts.count(None))
            known = self._inertias.get(texts)
            if known is not None:
                values[:] = known
            else:
                for i, text in enumerate(texts):
                    if text is not None:
                        values[i] = fast_number(text)
                if None in values:  # not six plain numbers: the strict reading, which says why
                    for i, key in enumerate(INERTIA_KEYS):
                        values[i] = diag.scalar(inertia_el, key, 0.0)
                elif len(self._inertias) < MEMO_LIMIT:
                    self._inertias[texts] = tuple(values)
        return drake.spatial_inertia(X, mass, values,
                                     lambda m, code: diag.warning(el, m, code=code))

    def _link_hint(self, name: str) -> str:
        """" Did you mean 'x'?" when ``name`` is a typo of a link of this model."""
        if too_many(self.plant.num_bodies()):
            return ""
        names = [b.name for b in self.plant.get_bodies_in_model_instance(self.instance)]
        return did_you_mean(name, names)

    def link_end(self, el, tag: str, name: str, what: str) -> LinkEnd:
        """The end ``<tag link="..."/>`` of the two-link element ``name`` (a
        loop joint, a spring-damper, a wing's parent), called ``what`` in
        messages: the body it names and the end element itself."""
        node = first_child(el, tag)
        if node is None:
            self.diag.error(el, f"{what} has no <{tag}> element", code="urdf-element-missing")
        link = node.get("link")
        if not link:
            self.diag.error(node, f"<{tag}> of {what} needs a 'link' attribute",
                            code="urdf-attribute-missing")
        return LinkEnd(self.body(name, link, node), node)

    def body(self, element_name: str, link_name: str, el):
        """The link ``link_name`` of this model (or the world) that element
        ``element_name`` refers to at ``el``; an unknown link is an error."""
        if link_name == WORLD:
            return self.plant.world_body()
        body = self.plant.find_body(link_name, self.instance)
        if body is None:
            self.diag.error(el, f"'{element_name}' refers to link '{link_name}', which model "
                                f"'{self.plant.get_model_instance_name(self.instance)}' does not "
                                f"have.{self._link_hint(link_name)}", code="urdf-unknown-link")
        return body

    # ------------------------------------------------------------ joints
    def joint(self, el) -> None:
        diag = self.diag
        # (the one pass over the joint's children, each checked)
        kids, _ = self.spec.children(el, "joint" if el.tag == "joint" else None)
        mimic = kids.get("mimic")
        if mimic is not None and mimic.tag != "mimic":  # (a namespaced one came first)
            mimic = first_child(el, "mimic")
        if mimic is not None:  # read after every joint is added
            self._mimics.append((el, mimic))
        get = el.get
        if get("drake_ignore") == "true":
            self.spec.origin_has_others(kids.get("origin"))  # (left to the reader: checked here)
            return
        if "calibration" in kids or "safety_controller" in kids:
            for tag in ("calibration", "safety_controller"):
                if tag in kids:  # (as Drake says; the converters still write it)
                    diag.warning(kids[tag], f"<{tag}> inside <joint> is not supported by the "
                                 "model (as in Drake); it is ignored here, but kept for "
                                 "`mbparse convert`", code="xml-unsupported")
        name = get("name")
        if name is None:
            diag.error(el, "<joint> has no name attribute", code="urdf-attribute-missing")
        jtype = get("type")
        if jtype is None:
            diag.error(el, f"joint '{name}' has no type attribute", code="urdf-attribute-missing")
        parent_el = kids.get("parent")
        if parent_el is None:
            diag.error(el, f"joint '{name}' has no <parent> element", code="urdf-element-missing")
        parent_link = parent_el.get("link")
        if parent_link is None:
            diag.error(parent_el, f"<parent> of joint '{name}' has no link attribute",
                       code="urdf-structure")
        child_el = kids.get("child")
        if child_el is None:
            diag.error(el, f"joint '{name}' has no <child> element", code="urdf-element-missing")
        child_link = child_el.get("link")
        if child_link is None:
            diag.error(child_el, f"<child> of joint '{name}' has no link attribute",
                       code="urdf-structure")
        parent = self.body(name, parent_link, parent_el)
        child = self.body(name, child_link, child_el)
        X_PB = diag.origin(kids.get("origin"), self.spec.origin_has_others)
        axis = (1.0, 0.0, 0.0)
        axis_el = kids.get("axis")
        if axis_el is not None and jtype not in ("fixed", "floating", "ball"):
            axis = diag.vector(axis_el, "xyz", 3, axis)
            n = norm(axis)
            if n != 1.0:
                if n < 1e-8:
                    diag.error(axis_el, f"joint '{name}' has a zero axis; give a non-zero "
                                        "direction", code="axis-zero")
                axis = (axis[0] / n, axis[1] / n, axis[2] / n)

        custom = el.tag != "joint" and qname(el) == "drake:joint"
        if jtype in CUSTOM_JOINT_TYPES and not custom:
            diag.error(el, f"joint '{name}' has type '{jtype}', which only <drake:joint> may "
                           "declare; write it as <drake:joint>", code="urdf-value-invalid")
        if custom and jtype in STANDARD_JOINT_TYPES and jtype != "planar":
            diag.error(el, f"joint '{name}' has the standard type '{jtype}'; write it as a "
                           "plain <joint>, not <drake:joint>", code="urdf-value-invalid")
        if jtype == "spherical" and not custom:
            diag.drake_refuses(el, f"joint '{name}' has the unknown type '{jtype}'",
                               "mbparse reads it as a ball joint (pybullet names ball joints "
                               "spherical)", code="urdf-value-invalid")
            jtype = "ball"
        # Drake gives every URDF joint a frame on its parent, "<joint>_parent",
        # even at the body's origin (the names of its offset frames follow it).
        X_PF = X_PB
        plant = self.plant
        effort = INF
        joint = None
        with diag.located(el):
            if jtype in ("revolute", "continuous", "prismatic"):
                lower, upper, velocity, accel, effort = self.limits(el, kids.get("limit"))
                dynamics = kids.get("dynamics")
                damping = 0.0 if dynamics is None else self.dynamics(el, dynamics)
                kind = PrismaticJoint if jtype == "prismatic" else RevoluteJoint
                joint = plant.add_joint(kind, name, parent, X_PF, child, None, axis=axis,
                                        pos_lower=lower, pos_upper=upper, damping=damping)
                joint.set_velocity_and_acceleration_limits(velocity, accel)
            elif jtype == "fixed":
                joint = plant.add_joint(WeldJoint, name, parent, X_PF, child, None)
            elif jtype == "floating":
                diag.warning(el, f"joint '{name}' has type floating, which is not a joint here: "
                                 f"'{child.name}' is left a free body", code="urdf-unsupported")
            elif jtype == "ball":
                joint = plant.add_joint(BallRpyJoint, name, parent, X_PF, child, None,
                                damping=self.dynamics(el, first_child(el, "dynamics")))
            elif jtype == "planar":
                damping = (0.0, 0.0, 0.0)
                dyn = first_child(el, "dynamics")
                if dyn is not None:
                    damping = diag.vector(dyn, "damping", 3, damping)
                X_BM = RigidTransform(closest_rotation_from_unit_z(axis))
                X_PM = X_PB @ X_BM
                X_PF = X_PM
                joint = plant.add_joint(PlanarJoint, name, parent, X_PF, child, X_BM, damping=damping)
            elif jtype == "screw":
                damping = self.dynamics(el, first_child(el, "dynamics"))
                pitch_el = kids.get("drake:screw_thread_pitch")
                if pitch_el is None:
                    diag.error(el, f"screw joint '{name}' needs a <drake:screw_thread_pitch>; none was found",
                               code="urdf-element-missing")
                pitch = diag.scalar(pitch_el, "value")
                if pitch is None:
                    diag.error(pitch_el, "<drake:screw_thread_pitch> has no value attribute",
                               code="urdf-attribute-missing")
                joint = plant.add_joint(ScrewJoint, name, parent, X_PF, child, None, axis=axis,
                                screw_pitch=pitch, damping=damping)
            elif jtype == "universal":
                joint = plant.add_joint(UniversalJoint, name, parent, X_PF, child, None,
                                damping=self.dynamics(el, first_child(el, "dynamics")))
            elif jtype == "curvilinear":
                self.curvilinear(el, name, parent, X_PF, child)
            else:
                diag.error(el, f"joint '{name}' has the unknown type '{jtype}'",
                           code="urdf-value-invalid")
        self.effort_limits[name] = effort
        if joint is not None:
            self.describe_joint(joint, kids, effort)

    def describe_joint(self, joint, kids, effort: float) -> None:
        """Records what the joint's elements say that the plant does not hold
        (mbparse.description): the effort limit (an actuator holds it only
        under a <transmission>), dry friction, the safety controller and the
        calibration, for the writers."""
        diag = self.diag
        # (an effort attribute is read as a finite number or refused, and
        # its absence leaves the limit infinite: no second lookup)
        if math.isfinite(effort):
            describe(joint, "effort", [effort] * joint.nv)
        dyn = kids.get("dynamics")
        if dyn is not None:
            friction = diag.scalar(dyn, "friction")
            if friction:
                describe(joint, "friction", [friction] * joint.nv)
        for tag, names in (("safety_controller", SAFETY_ATTRIBUTES),
                           ("calibration", CALIBRATION_ATTRIBUTES)):
            node = kids.get(tag)
            if node is not None:
                given = {k: diag.scalar(node, k) for k in names if node.get(k) is not None}
                describe(joint, tag, {k: v for k, v in given.items() if v is not None})

    def limits(self, el, node=None):
        """lower, upper, velocity, acceleration and effort limits of a joint
        (``node``: its <limit>, when the caller has looked it up)."""
        diag = self.diag
        values = [-INF, INF, INF, INF, INF]
        if node is None:
            node = first_child(el, "limit")
        if node is not None:
            diag.scalars(node, LIMIT_ATTRIBUTES, values)
            # A continuous joint's inverted limits fail later, in the plant, in
            # Drake's mode; the default mode reads them as "no limit" here too.
            if values[0] > values[1] and (el.get("type") != "continuous"
                                          or not diag.policy.like_drake):
                # pybullet's convention for "no limit"; Drake's joint refuses it. The
                # code keeps it an error in `mbparse check`.
                message = (f"Joint '{el.get('name')}': the position lower limit {values[0]} "
                           f"is greater than the upper limit {values[1]}")
                if diag.policy.like_drake:
                    diag.error(el, message, code="limit-inverted")
                diag.warning(el, f"{message} [Drake refuses this; mbparse leaves the joint's "
                                 "position unlimited, as pybullet reads a lower limit above "
                                 "the upper one]", code="limit-inverted")
                values[0], values[1] = -INF, INF
        return values

    def dynamics(self, el, node) -> float:
        """A joint's damping (``node``: its <dynamics>, or None)."""
        diag = self.diag
        if node is None:
            return 0.0
        damping = diag.scalar(node, "damping", 0.0)
        friction = diag.scalar(node, "friction")
        if friction is not None and friction != 0.0:
            diag.warning(node, f"joint friction {friction:g} is not modelled (as in Drake); "
                               "the 'friction' attribute is ignored here, but kept for "
                               "`mbparse convert`", code="urdf-unsupported")
        if diag.scalar(node, "coulomb_window") is not None:
            diag.warning(node, "the 'coulomb_window' attribute is obsolete and is ignored",
                         code="urdf-unsupported")
        return damping

    def curvilinear(self, el, name, parent, X_PF, child) -> None:
        diag = self.diag
        damping = self.dynamics(el, first_child(el, "dynamics"))
        tangent, normal = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
        node = first_child(el, "drake:initial_tangent")
        if node is not None:
            tangent = diag.vector(node, "xyz", 3, tangent)
        node = first_child(el, "drake:plane_normal")
        if node is not None:
            normal = diag.vector(node, "xyz", 3, normal)
        for what, v in (("drake:initial_tangent", tangent), ("drake:plane_normal", normal)):
            if v[0] == 0 and v[1] == 0 and v[2] == 0:
                diag.error(first_child(el, what), f"the <{what}> of curvilinear joint '{name}' "
                           "is the zero vector; it needs a direction", code="value-out-of-range")
        periodic = False
        node = first_child(el, "drake:is_periodic")
        if node is not None:
            periodic = node.get("value") == "true"
        curves = first_child(el, "drake:curves")
        if curves is None:
            diag.error(el, "a curvilinear joint needs a <drake:curves> element; none was found",
                       code="urdf-element-missing")
        breaks, rates = [0.0], []
        for curve in children(curves):
            tag = qname(curve)
            angle = 0.0
            if tag == "drake:line_segment":
                length = diag.scalar(curve, "length")
                if length is None:
                    diag.error(curve, "<drake:line_segment> has no 'length' attribute",
                               code="urdf-attribute-missing")
                if length <= 0:
                    diag.error(curve, f"<drake:line_segment> length must be positive; it is {length:g}",
                               code="value-out-of-range")
            elif tag == "drake:circular_arc":
                radius = diag.scalar(curve, "radius")
                if radius is None:
                    diag.error(curve, "<drake:circular_arc> has no 'radius' attribute",
                               code="urdf-attribute-missing")
                if radius <= 0:
                    diag.error(curve, f"<drake:circular_arc> radius must be positive; it is {radius:g}",
                               code="value-out-of-range")
                angle = diag.scalar(curve, "angle")
                if angle is None:
                    diag.error(curve, "<drake:circular_arc> has no 'angle' attribute",
                               code="urdf-attribute-missing")
                length = abs(angle) * radius
                if length == 0:  # a zero angle, or one so small the length underflows
                    diag.error(curve, "<drake:circular_arc> angle must not be zero (an arc "
                                      "of no length); use a <drake:line_segment> or drop it",
                               code="value-out-of-range")
            else:
                diag.error(curves, f"<{tag}> is not a curve; <drake:curves> may hold <drake:line_segment> "
                               "and <drake:circular_arc>", code="urdf-structure")
            breaks.append(breaks[-1] + length)
            rates.append(angle / length)
        if len(breaks) == 1:
            diag.error(curves, "<drake:curves> lists no curve; a curvilinear joint needs at least one",
                       code="urdf-structure")
        self.plant.add_joint(CurvilinearJoint, name, parent, X_PF, child, None, breaks=breaks,
                             turning_rates=rates, initial_tangent=tangent, plane_normal=normal,
                             is_periodic=periodic, damping=damping)

    def mimic(self, el, node) -> None:
        """The joint ``el``'s ``<mimic>`` element ``node``, read once every
        joint is added."""
        diag = self.diag
        name = el.get("name")
        plant = self.plant
        target = node.get("joint")
        if target is None:
            diag.error(node, f"<mimic> of joint '{name}' has no 'joint' attribute",
                       code="urdf-attribute-missing")
        joint1 = plant.find_joint(target, self.instance)
        if joint1 is None:
            # Drake refuses it; urdfdom, yourdfpy and pybullet read the file
            # and leave the joint unconstrained.
            diag.drake_refuses(node, f"<mimic> of joint '{name}' names joint '{target}', which "
                                     "this model does not have",
                               "mbparse ignores this <mimic>", code="urdf-unknown-joint")
            return
        if target == name:
            diag.error(node, f"joint '{name}' cannot mimic itself", code="urdf-mimic-invalid")
        gear_ratio = diag.scalar(node, "multiplier", 1.0)
        offset = diag.scalar(node, "offset", 0.0)
        joint0 = plant.find_joint(name, self.instance)
        if joint0 is None:
            diag.warning(node, f"<mimic> of joint '{name}' is ignored: the joint was not added "
                               "to the model (only single-dof joints can mimic)",
                         code="urdf-unsupported")
            return
        if joint0.nv != joint1.nv:
            diag.drake_refuses(node, f"joint '{name}' ({joint0.nv} dofs) cannot mimic joint "
                                     f"'{target}' ({joint1.nv} dofs)",
                               "mbparse ignores this <mimic>", code="urdf-mimic-invalid")
            return
        if joint0.nv != 1:
            diag.warning(node, f"<mimic> of joint '{name}' is ignored: only single-dof joints "
                               f"can mimic, and '{name}' and '{target}' have {joint0.nv} dofs",
                         code="urdf-unsupported")
            return
        # Drake checks the tag whole (above) even on a plant that then ignores it.
        if not plant.supports_constraints():
            diag.warning(node, f"<mimic> of joint '{name}' is ignored: a discrete plant using "
                               "the TAMSI contact approximation holds no coupler constraints (use "
                               "a continuous plant or the sap/similar/lagged approximation)",
                         code="urdf-unsupported")
            return
        with diag.located(node):
            plant.add_coupler_constraint(joint0, joint1, gear_ratio, offset)

    # ------------------------------------------------------------ transmissions
    def mechanical_reduction(self, el, kids: dict | None = None) -> None:
        child = first_child(el, "mechanicalReduction") if kids is None else kids.get("mechanicalReduction")
        if child is None or child.text is None:
            return
        text = child.text
        if fast_number(text) == 1.0:  # (the common case: "1")
            return
        values = parse_float_prefixes(text)
        if len(values) == 1 and values[0] == 1:
            return
        self.diag.warning(child, f"mechanicalReduction '{text.strip()}' in <{qname(el)}> is "
                                 "ignored: only a reduction of 1 is modelled",
                          code="urdf-unsupported")

    def transmission(self, el) -> None:
        diag = self.diag
        kids = child_map(el)
        if not kids.keys().isdisjoint(UNSUPPORTED_TRANSMISSION_CHILDREN):
            for tag in UNSUPPORTED_TRANSMISSION_CHILDREN:
                diag.warn_unsupported_element(el, tag, kids)
        diag.warn_unsupported_attribute(el, "name")
        self.mechanical_reduction(el, kids)
        type_el = kids.get("type")
        if type_el is not None:
            ttype = type_el.text or ""
        else:
            ttype = el.get("type")
            if ttype is None:
                diag.error(el, "<transmission> has no type (neither a <type> element nor a type attribute)",
                           code="urdf-element-missing")
        if "SimpleTransmission" not in ttype:
            diag.warning(el, f"transmission type '{ttype.strip()}' is not a SimpleTransmission; "
                             "the transmission is ignored (no actuator is made)",
                         code="urdf-unsupported")
            return
        actuator_el = kids.get("actuator")
        if actuator_el is None:
            diag.error(el, "<transmission> has no <actuator>", code="urdf-element-missing")
        actuator_kids = child_map(actuator_el)
        self.mechanical_reduction(actuator_el, actuator_kids)
        actuator_name = actuator_el.get("name")
        if actuator_name is None:
            diag.error(actuator_el, "<actuator> of a transmission has no name attribute",
                       code="urdf-attribute-missing")
        joint_el = kids.get("joint")
        if joint_el is None:
            diag.error(el, "<transmission> has no <joint>", code="urdf-element-missing")
        joint_name = joint_el.get("name")
        if joint_name is None:
            diag.error(joint_el, "<joint> of a transmission has no name attribute",
                       code="urdf-attribute-missing")
        plant = self.plant
        joint = plant.find_joint(joint_name, self.instance)
        if joint is None:
            diag.drake_refuses(joint_el, f"transmission names joint '{joint_name}', which this "
                                         "model does not have",
                               "mbparse ignores this transmission", code="urdf-unknown-joint")
            return
        if joint.nq == 0:
            diag.warning(joint_el, f"transmission on fixed joint '{joint_name}' is ignored: a fixed "
                                   "joint cannot be actuated", code="urdf-unsupported")
            return
        effort = self.effort_limits.get(joint_name, INF)
        if effort < 0:
            diag.error(joint_el, f"transmission is on joint '{joint_name}', whose effort limit is "
                                 "negative", code="value-out-of-range")
        if effort <= 0:
            diag.warning(joint_el, f"transmission on joint '{joint_name}' is ignored: the joint's "
                                   "effort limit is zero, so no actuator is made",
                         code="urdf-unsupported")
            return
        if plant.find_joint_actuator(actuator_name, self.instance) is not None:
            # Drake names each actuator after its <actuator>; a second one of the
            # same name ends Drake's parse. The first one already acts.
            model = plant.get_model_instance_name(self.instance)
            diag.drake_refuses(actuator_el, f"model instance '{model}' already has an actuator "
                                            f"named '{actuator_name}'",
                               "mbparse keeps the first actuator of that name and skips this one",
                               code="name-duplicate")
            return
        with diag.located(actuator_el):
            actuator = plant.add_joint_actuator(actuator_name, joint, effort)
        for tag, field_name in (("drake:rotor_inertia", "rotor_inertia"),
                                ("drake:gear_ratio", "gear_ratio")):
            node = actuator_kids.get(tag)
            if node is not None:
                value = diag.scalar(node, "value")
                if value is None:
                    diag.error(node, f"<{tag}> of actuator '{actuator_name}' has no value attribute",
                               code="urdf-attribute-missing")
                setattr(actuator, field_name, value)
        gains = actuator_kids.get("drake:controller_gains")
        if gains is not None:
            p, d = diag.scalar(gains, "p"), diag.scalar(gains, "d")
            for key, value in (("p", p), ("d", d)):
                if value is None:
                    diag.error(gains, f"<drake:controller_gains> of actuator '{actuator_name}' has no "
                                      f"'{key}' attribute", code="urdf-attribute-missing")
            with diag.located(gains):
                plant.set_controller_gains(actuator, p, d)

    # ------------------------------------------------------------ Drake extensions
    def frame(self, el) -> None:
        diag = self.diag
        name = el.get("name")
        if name is None:
            diag.error(el, "<frame> has no name attribute", code="urdf-attribute-missing")
        link = el.get("link")
        if link is None:
            diag.error(el, f"<frame> '{name}' has no link attribute", code="urdf-structure")
        body = self.body(name, link, el)
        with diag.located(el):
            self.plant.add_frame(name, body.body_frame, diag.origin(el), self.instance)

    def _child_value(self, el, tag: str, kind: str):
        """The ``value`` (vector of 3 or scalar) or ``name`` of a child tag."""
        diag = self.diag
        node = first_child(el, tag)
        if node is None:
            diag.error(el, f"<{qname(el)}> needs a <{tag}> child; none was found",
                       code="urdf-element-missing")
        key = "name" if kind == "name" else "value"
        if kind == "vector":
            value = diag.vector(node, key, 3)
        elif kind == "scalar":
            value = diag.scalar(node, key)
        else:
            value = attr(node, key)
        if value is None:
            diag.error(node, f"<{tag}> needs a '{key}' attribute", code="urdf-element-missing")
        return value, node

    def _named_body(self, el, tag: str):
        name, node = self._child_value(el, tag, "name")
        if not self.plant.has_body_named(name, self.instance):
            self.diag.error(node, f"<{tag}> names link '{name}', which this model does not "
                                  f"have.{self._link_hint(name)}", code="urdf-unknown-link")
        return self.plant.get_body_by_name(name, self.instance)

    def collision_filter_group(self, el) -> None:
        diag = self.diag
        if el.get("ignore") is not None and el.get("ignore") == "true":
            return
        name = el.get("name")
        if name is None:
            diag.error(el, f"<{qname(el)}> has no name attribute", code="urdf-attribute-missing")
        if not name:
            return
        members, groups = set(), set()
        for tag, key, out in (("drake:member", "link", members),
                              ("drake:member_group", "name", groups)):
            for node in children(el, tag):
                value = attr(node, key)
                if value is None:
                    diag.error(node, f"<{tag}> has no {key} attribute",
                               code="urdf-attribute-missing")
                if value:
                    out.add(value)
        resolver = self.ws.collision_resolver
        resolver.add_group(lambda m: diag.error(el, m, code="collision-filter-group"), name,
                           members, groups, self.instance)
        for node in children(el, "drake:ignored_collision_filter_group"):
            target = node.get("name")
            if target is None:
                diag.error(node, "<drake:ignored_collision_filter_group> has no name attribute",
                           code="urdf-attribute-missing")
            if target:
                resolver.add_pair(
                    lambda m, n=node: diag.error(n, m, code="collision-filter-group"), name,
                    target, self.instance)


class UrdfDrakeParts:
    """The parts of a ``drake:`` bushing, spring-damper or constraint as URDF
    writes them: child elements with a ``name`` or ``value`` attribute
    (the meaning is in :mod:`..common.drake`)."""

    def __init__(self, reader: UrdfReader):
        self.reader = reader
        self.plant = reader.plant
        self.diag = reader.diag

    def body(self, el, tag: str):
        return self.reader._named_body(el, tag)

    def frame(self, el, tag: str):
        name, node = self.reader._child_value(el, tag, "name")
        instance = self.reader.instance
        if not self.plant.has_frame_named(name, instance):
            self.diag.error(node, f"<{tag}> names frame '{name}', which this model does not have",
                            code="urdf-unknown-frame")
        return self.plant.get_frame_by_name(name, instance)

    def vector(self, el, tag: str):
        return self.reader._child_value(el, tag, "vector")[0]

    def scalar(self, el, tag: str):
        return self.reader._child_value(el, tag, "scalar")
