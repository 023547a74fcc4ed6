"""Drake's extension elements inside an SDFormat ``<model>``:
``<drake:joint>`` (planar, curvilinear), ``<drake:linear_bushing_rpy>``,
``<drake:linear_spring_damper>``, ``<drake:ball_constraint>``,
``<drake:distance_constraint>``, ``<drake:collision_filter_group>`` and
``<drake:visual>``. Frame and body names may be scoped downward
(``inner::frame``)."""
from __future__ import annotations

import copy

from ...numbers import non_finite_code, non_finite_problem, quote, unreadable_code
from ...plant import CurvilinearJoint, PlanarJoint
from . import values
from ..common import drake
from ..common.xml import children, first_child
from .lookup import prefixed_children
from .diagnostic import SdfDiagnostic, check_supported, local_name

DRAKE_JOINT_TAGS = frozenset({"drake:parent", "drake:child", "drake:damping",
                              "drake:initial_tangent", "drake:plane_normal", "drake:is_periodic",
                              "drake:curves", "drake:line_segment", "drake:circular_arc",
                              "drake:length", "drake:radius", "drake:angle", "pose"})


def _text(diag: SdfDiagnostic, el, name: str) -> tuple[str, object]:
    node = first_child(el, name)
    if node is None:
        diag.error(el, f"<{local_name(el)}>: Unable to find the <{name}> child tag.",
                   code="sdf-element-missing")
    return (node.text or "").strip(), node


def _vector(diag: SdfDiagnostic, el, name: str):
    text, node = _text(diag, el, name)
    try:
        vector = values.parse_numbers(text, 3)
    except ValueError as e:
        diag.error(node, f"<{name}> needs 3 finite numbers; got '{quote(text)}' ({e}).",
                   code=unreadable_code(text, "sdf-value-invalid"))
    return vector


def _require_finite(diag: SdfDiagnostic, node, name: str, text: str, numbers) -> None:
    """No Drake element takes an infinity (a damping, stiffness, length or
    direction of ``inf`` means nothing)."""
    problem = non_finite_problem(text, numbers)
    if problem is not None:
        diag.error(node, f"<{name}> must hold finite numbers: {problem}.",
                   code=non_finite_code(numbers))


def _double(diag: SdfDiagnostic, el, name: str) -> float:
    return _double_and_node(diag, el, name)[0]


def _double_and_node(diag: SdfDiagnostic, el, name: str) -> tuple[float, object]:
    text, node = _text(diag, el, name)
    try:
        value = values.parse_double(text)
    except ValueError:
        diag.error(node, f"<{name}> needs a number; got '{text}'.", code="sdf-value-invalid")
    _require_finite(diag, node, name, text, [value])
    return value, node


def scoped_frame(builder, el, instance: int, tag: str):
    """The plant frame named by the text of child ``tag`` (downward scoping)."""
    diag = builder.diag
    plant = builder.plant
    name, node = _text(diag, el, tag)
    current = plant.get_model_instance_name(instance)
    full = f"{current}::{name}"
    namespace, _, local = full.rpartition("::")
    if not plant.has_model_instance_named(namespace):
        diag.error(node, f"<{local_name(el)}>: Model instance name '{namespace}' (implied by "
                         f"frame name '{name}' in <{tag}> within model instance '{current}') "
                         "does not exist in the model.", code="file-missing")
    mi = plant.get_model_instance_by_name(namespace)
    if not plant.has_frame_named(local, mi):
        diag.error(node, f"<{local_name(el)}>: Frame '{name}' specified for <{tag}> does not "
                         "exist in the model.", code="sdf-unknown-reference")
    return plant.get_frame_by_name(local, mi)


def named_body(builder, el, instance: int, tag: str):
    diag = builder.diag
    name, node = _text(diag, el, tag)
    if not builder.plant.has_body_named(name, instance):
        diag.error(node, f"<{local_name(el)}>: Body '{name}' specified for <{tag}> does not "
                         "exist in the model.", code="sdf-unknown-reference")
    return builder.plant.get_body_by_name(name, instance)


def add_all(builder, scope, instance: int, found: dict | None = None) -> None:
    """The ``drake:`` elements of model ``scope`` (``found``: its
    :func:`.lookup.prefixed_children`, when the caller has them)."""
    if found is None:
        found = prefixed_children(scope.el)
    if not found:
        return  # (most models: no drake: element, no parts reader to make)
    for node in found.get("drake:joint", ()):
        drake_joint(builder, node, instance)
    parts = SdfDrakeParts(builder, instance)
    for tag, read in TWO_BODY_ELEMENTS.items():
        for node in found.get(tag, ()):
            check_supported(builder.diag, node, TWO_BODY_CHILDREN[tag])
            read(parts, node)
    for node in found.get("drake:tendon_constraint", ()):
        builder.diag.error(node, "<drake:tendon_constraint> is not supported by mbparse yet.",
                           code="sdf-not-supported")


def drake_joint(builder, el, instance: int) -> None:
    diag = builder.diag
    check_supported(diag, el, DRAKE_JOINT_TAGS)
    jtype = el.get("type")
    if jtype is None:
        diag.error(el, "<drake:joint>: Unable to find the 'type' attribute.",
                   code="sdf-attribute-missing")
    name = el.get("name")
    if name is None:
        diag.error(el, "<drake:joint>: Unable to find the 'name' attribute.",
                   code="sdf-attribute-missing")
    if first_child(el, "pose") is not None:
        diag.error(el, "<drake:joint> does not yet support the <pose> child tag.",
                   code="sdf-not-supported")
    parent = scoped_frame(builder, el, instance, "drake:parent")
    child = scoped_frame(builder, el, instance, "drake:child")
    plant = builder.plant
    if jtype == "planar":
        damping = _vector(diag, el, "drake:damping")
        with diag.located(el):
            _add_frame_joint(plant, PlanarJoint, name, parent, child, damping)
    elif jtype == "curvilinear":
        normal, tangent, periodic, damping = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0), False, 0.0
        node = first_child(el, "drake:plane_normal")
        if node is not None:
            normal = _vector(diag, node, "xyz")
        node = first_child(el, "drake:initial_tangent")
        if node is not None:
            tangent = _vector(diag, node, "xyz")
        node = first_child(el, "drake:is_periodic")
        if node is not None:
            text = (node.text or "").strip()
            if text not in ("true", "false"):
                diag.error(el, f"<drake:is_periodic>: boolean node contains non-boolean value "
                               f"'{text}'.", code="sdf-value-invalid")
            periodic = text == "true"
        if first_child(el, "drake:damping") is not None:
            damping = _double(diag, el, "drake:damping")
            if damping < 0:
                diag.error(el, f"<drake:joint> '{name}' has a negative damping: {damping:g}",
                           code="value-out-of-range")
        curves = first_child(el, "drake:curves")
        if curves is None:
            diag.error(el, f"<{local_name(el)}>: Unable to find the <drake:curves> child node.",
                       code="sdf-element-missing")
        breaks, rates = [0.0], []
        for curve in curves:
            if not isinstance(curve.tag, str):
                continue
            tag = local_name(curve)
            angle = 0.0
            if tag == "drake:line_segment":
                length = _double(diag, curve, "drake:length")
                if length <= 0:
                    diag.error(el, "A drake:line_segment node has a 0 or negative drake:length.",
                               code="value-out-of-range")
            elif tag == "drake:circular_arc":
                radius = _double(diag, curve, "drake:radius")
                if radius <= 0:
                    diag.error(el, "A drake:circular_arc node has a 0 or negative "
                                   "drake:radius.", code="value-out-of-range")
                angle = _double(diag, curve, "drake:angle")
                length = abs(angle) * radius
                if length == 0:
                    diag.error(curve, f"A drake:circular_arc node of drake:angle {angle} and "
                                      f"drake:radius {radius} has no length; use a "
                                      "drake:line_segment or drop it.", code="value-out-of-range")
            else:
                diag.error(el, f"drake:curves node contains an invalid child node <{tag}>.",
                           code="sdf-value-invalid")
            breaks.append(breaks[-1] + length)
            rates.append(angle / length)
        with diag.located(el):
            _add_frame_joint(plant, CurvilinearJoint, name, parent, child, breaks, rates,
                             tangent, normal, periodic, damping)
    else:
        diag.error(el, f"<drake:joint> '{name}' has unrecognized value for 'type' attribute: "
                       f"{jtype}", code="sdf-value-invalid")


def _add_frame_joint(plant, kind, name, parent, child, *args):
    """A joint between two existing plant frames."""
    X_PF = None if parent.is_body_frame else parent.X_BF
    X_CM = None if child.is_body_frame else child.X_BF
    joint = plant.add_joint(kind, name, parent.body, X_PF, child.body, X_CM, *args)
    if not parent.is_body_frame:
        _reuse_frame(plant, joint, "frame_on_parent", parent)
    if not child.is_body_frame:
        _reuse_frame(plant, joint, "frame_on_child", child)
    return joint


def _reuse_frame(plant, joint, attr: str, frame) -> None:
    """Drake joins the named frames themselves; drop the copy add_joint made."""
    plant._drop_frame(getattr(joint, attr))
    setattr(joint, attr, frame)


# The two-body elements: their reader (the meaning, shared with URDF) and the
# children each may have (others are refused, as Drake's SDFormat parser does).
TWO_BODY_ELEMENTS = {
    "drake:linear_bushing_rpy": drake.read_linear_bushing_rpy,
    "drake:linear_spring_damper": drake.read_linear_spring_damper,
    "drake:ball_constraint": drake.read_ball_constraint,
    "drake:distance_constraint": drake.read_distance_constraint,
}
_TWO_POINTS = ("body_A", "p_AP", "body_B", "p_BQ")
TWO_BODY_CHILDREN = {
    "drake:linear_bushing_rpy": {"drake:bushing_" + k for k in (
        "frameA", "frameC", "force_damping", "force_stiffness", "torque_damping",
        "torque_stiffness")},
    "drake:linear_spring_damper": {"drake:linear_spring_damper_" + k for k in (
        *_TWO_POINTS, "free_length", "stiffness", "damping")},
    "drake:ball_constraint": {"drake:ball_constraint_" + k for k in _TWO_POINTS},
    "drake:distance_constraint": {"drake:distance_constraint_" + k for k in (
        *_TWO_POINTS, "distance", "stiffness", "damping")},
}


class SdfDrakeParts:
    """The parts of a ``drake:`` bushing, spring-damper or constraint as
    SDFormat writes them: child elements whose text is a name or numbers
    (the meaning is in :mod:`..common.drake`)."""

    def __init__(self, builder, instance: int):
        self.builder = builder
        self.instance = instance
        self.plant = builder.plant
        self.diag = builder.diag

    def body(self, el, tag: str):
        return named_body(self.builder, el, self.instance, tag)

    def frame(self, el, tag: str):
        return scoped_frame(self.builder, el, self.instance, tag)

    def vector(self, el, tag: str):
        return _vector(self.diag, el, tag)

    def scalar(self, el, tag: str):
        return _double_and_node(self.diag, el, tag)


def collision_filter_groups(builder, scope, instance: int, found: dict | None = None) -> None:
    """``<drake:collision_filter_group>``: members are (scoped) link names
    (``found``: the :func:`.lookup.prefixed_children` of the model)."""
    diag = builder.diag
    resolver = builder.ws.collision_resolver
    if found is None:
        found = prefixed_children(scope.el)
    for el in found.get("drake:collision_filter_group", ()):
        ignore = el.get("ignore")
        if ignore is not None:
            try:
                ignored = values.parse_bool(ignore)
            except ValueError:
                diag.error(el, f"The attribute ignore=\"{ignore}\" of "
                               "<drake:collision_filter_group> is not a boolean; give true or "
                               "false (1 or 0).", code="sdf-value-invalid")
            if ignored:
                continue
        name = el.get("name")
        if name is None:
            diag.error(el, "The tag <drake:collision_filter_group> is missing the required "
                           "attribute \"name\"", code="sdf-attribute-missing")
        members, groups = set(), set()
        for tag, out in (("drake:member", members), ("drake:member_group", groups)):
            for node in children(el, tag):
                text = (node.text or "").strip()
                if not text:
                    diag.error(node, f"The tag <{tag}> is missing a required string value.",
                               code="sdf-element-missing")
                out.add(text)
        resolver.add_group(lambda m, e=el: diag.error(e, m, code="collision-filter-group"),
                           name, members, groups, instance)
        for node in children(el, "drake:ignored_collision_filter_group"):
            target = (node.text or "").strip()
            if not target:
                diag.error(node, "The tag <drake:ignored_collision_filter_group> is missing a "
                                 "required string value.", code="sdf-value-invalid")
            resolver.add_pair(lambda m, n=node: diag.error(n, m, code="collision-filter-group"),
                              name, target, instance)


def drake_visual_to_visual(diag: SdfDiagnostic, el):
    """A ``<drake:visual>`` read as a ``<visual>`` (every tag below it must be
    ``drake:``-prefixed too)."""
    out = copy.deepcopy(el)

    def strip(node) -> None:
        name = local_name(node)
        if not name.startswith("drake:"):
            diag.error(node, "All tags under a drake-namespaced tag must likewise be "
                             "drake-namespaced.", code="sdf-conflict")
        if name in ("drake:perception_properties", "drake:illustration_properties"):
            return
        node.tag = name[len("drake:"):]
        for child in node:
            if isinstance(child.tag, str):
                strip(child)

    strip(out)
    out.set("mbparse-drake-visual", "true")
    return out
