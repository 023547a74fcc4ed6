"""Deformable links (``<drake:deformable_properties>``): Drake registers one
geometry for the whole link, posed in the world, with proximity properties
from its single ``<collision>`` and visual roles from its optional
``<visual>``. The material parameters are checked; mbparse keeps no
deformable dynamics."""
from __future__ import annotations

from ...geometry import CoulombFriction, DEFAULT_FRICTION, GeometryInstance, GeometryProperties
from ...geometry.properties import ILLUSTRATION, PERCEPTION, PROXIMITY
from . import values
from ..common.xml import first_child, qname
from .diagnostic import check_supported

LINK_TAGS = frozenset({"pose", "collision", "visual", "drake:deformable_properties",
                       "drake:wall_boundary_condition"})
PROPERTY_TAGS = frozenset({"drake:youngs_modulus", "drake:poissons_ratio", "drake:mass_damping",
                           "drake:stiffness_damping", "drake:mass_density",
                           "drake:material_model"})
CHECKS = {"drake:youngs_modulus": (lambda v: v > 0, "Young's modulus must be positive."),
          "drake:poissons_ratio": (lambda v: -1 < v < 0.5,
                                   "Poisson's ratio must be in the range (-1, 0.5)."),
          "drake:mass_damping": (lambda v: v >= 0, "Mass damping must be non-negative."),
          "drake:stiffness_damping": (lambda v: v >= 0,
                                      "Stiffness damping must be non-negative."),
          "drake:mass_density": (lambda v: v > 0, "Mass density must be positive.")}
MATERIAL_MODELS = ("linear_corotated", "corotated", "neohookean", "linear")


def add_deformable_link(builder, vertex, instance: int) -> None:
    diag = builder.diag
    plant = builder.plant
    el = vertex.el
    if not plant.geometry_source_is_registered():
        diag.warning(el, "Cannot add a deformable link to a plant without a registered "
                         "geometry source. The deformable link is ignored.", code="sdf-unsupported")
        return
    check_supported(diag, el, LINK_TAGS)
    props_el = first_child(el, "drake:deformable_properties")
    check_supported(diag, props_el, PROPERTY_TAGS)
    for tag, (ok, message) in CHECKS.items():
        node = first_child(props_el, tag)
        if node is not None and not ok(_double(diag, node)):
            diag.error(props_el, message, code="value-out-of-range")
    model = first_child(props_el, "drake:material_model")
    if model is not None and (model.text or "").strip() not in MATERIAL_MODELS:
        diag.error(props_el, f"Invalid <drake:material_model> value {model.text}.",
                   code="sdf-value-invalid")
    collisions = el.findall("collision")
    if len(collisions) != 1:
        diag.error(el, "Each deformable <link> must have exactly one <collision> element.",
                   code="sdf-structure")
    collision = collisions[0]
    geometry_el = collision.find("geometry")
    if geometry_el is None or (geometry_el.find("mesh") is None
                               and geometry_el.find("sphere") is None):
        diag.error(collision, "The <geometry> of a deformable <link>'s <collision> must be "
                              "either a <mesh> or a <sphere>.", code="sdf-value-invalid")
    shape = builder.geometry.shape(geometry_el, for_collision=False)
    if shape is None:  # a geometry the reader skipped (with its own warning)
        diag.error(geometry_el, "The <geometry> of a deformable <link>'s <collision> gives no "
                                "shape that can be read.", code="sdf-value-invalid")
    proximity = proximity_properties(diag, collision)
    hint = proximity.get_property("hydroelastic", "resolution_hint")
    if geometry_el.find("sphere") is not None and (hint is None or not hint > 0):
        diag.error(geometry_el, "A deformable primitive needs a positive "
                                "<drake:mesh_resolution_hint>.", code="sdf-element-missing")
    roles = {PROXIMITY: proximity}
    visuals = el.findall("visual")
    if len(visuals) > 1:
        diag.error(el, "A deformable <link> may have at most one <visual> element.",
                   code="sdf-structure")
    if visuals:
        visual = visuals[0]
        visual_roles = builder.geometry.visual_properties(visual) or {}
        if ILLUSTRATION in visual_roles:
            roles[ILLUSTRATION] = visual_roles[ILLUSTRATION]
        perception = visual_roles.get(PERCEPTION)
        vgeom = visual.find("geometry")
        if perception is not None and vgeom is not None and vgeom.find("mesh") is not None:
            uri = (vgeom.findtext("mesh/uri") or "").strip()
            perception.add_property("deformable", "embedded_mesh",
                                    builder.resolve_uri_for(vgeom, uri))
        if perception is not None:
            roles[PERCEPTION] = perception
    else:
        roles[ILLUSTRATION] = GeometryProperties()
    name = f"{plant.get_model_instance_name(instance)}::{el.get('name')}"
    instance_geometry = GeometryInstance(builder.X_W(vertex.id), shape, name, roles,
                                         (diag.where(el)[0], el.sourceline))
    plant.scene_graph.register_geometry(0, instance_geometry, deformable=True)


def proximity_properties(diag, collision) -> GeometryProperties:
    check_supported(diag, collision, {"geometry", "drake:proximity_properties"})
    props = GeometryProperties()
    drake_el = first_child(collision, "drake:proximity_properties")
    if drake_el is None:
        props.add_property("material", "coulomb_friction", DEFAULT_FRICTION)
        return props
    check_supported(diag, drake_el, {"drake:mu_dynamic", "drake:hunt_crossley_dissipation",
                                     "drake:relaxation_time", "drake:mesh_resolution_hint"})

    def read(tag):
        node = first_child(drake_el, tag)
        return None if node is None else _double(diag, node)

    mu = read("drake:mu_dynamic")
    if mu is not None and mu < 0:
        diag.error(drake_el, "drake:mu_dynamic must be non-negative", code="value-out-of-range")
    props.add_property("material", "coulomb_friction",
                       CoulombFriction(mu, mu) if mu is not None else DEFAULT_FRICTION)
    for tag, group, key in (("drake:hunt_crossley_dissipation", "material",
                             "hunt_crossley_dissipation"),
                            ("drake:relaxation_time", "material", "relaxation_time")):
        value = read(tag)
        if value is not None:
            if value < 0:
                diag.error(drake_el, f"{tag} must be non-negative", code="value-out-of-range")
            props.add_property(group, key, value)
    hint = read("drake:mesh_resolution_hint")
    if hint is not None:
        props.add_property("hydroelastic", "resolution_hint", hint)
    return props


def _double(diag, node) -> float:
    """The number an element holds; a located error when it holds none."""
    try:
        return values.parse_double(node.text or "")
    except ValueError as e:
        diag.error(node, f"Cannot read <{qname(node)}> as a number: {e}", code="sdf-value-invalid")
