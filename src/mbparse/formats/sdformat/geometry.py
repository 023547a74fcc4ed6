"""SDFormat ``<visual>``, ``<collision>``, shapes and materials, with Drake's
reading: a ``<plane>`` becomes a half-space whose pose carries the normal,
colours are phong properties, ``<surface><friction><ode>`` gives Coulomb
friction unless ``<drake:proximity_properties>`` does."""
from __future__ import annotations

import math
from typing import Callable

from ...geometry import (Box, Capsule, CoulombFriction, Cylinder, DEFAULT_FRICTION, Ellipsoid,
                         GeometryInstance, GeometryProperties, HalfSpace, Rgba, Sphere)
from ...geometry.properties import (ILLUSTRATION, PERCEPTION, PROXIMITY,
                                   default_proximity_properties)
from ...spatial import RigidTransform, cross, normalized
from ..common import drake
from . import values
from ..common.xml import MEMO_LIMIT, REFUSALS, children, first_child
from .lookup import child_index, first_on_path
from .diagnostic import SdfDiagnostic, check_supported, local_name

GEOMETRY_TAGS = frozenset({"box", "capsule", "cylinder", "drake:capsule", "drake:ellipsoid",
                           "ellipsoid", "empty", "heightmap", "mesh", "plane", "polyline",
                           "sphere"})
# Drake's HalfSpace::MakePose refuses a normal shorter than this.
MIN_NORMAL_LENGTH = 1e-10
LINK_GEOMETRY_TAGS = GEOMETRY_TAGS - {"heightmap", "polyline"}
VISUAL_TAGS = frozenset({"drake:perception_properties", "drake:illustration_properties",
                         "geometry", "material", "pose", "drake:accepting_renderer"})
COLLISION_TAGS = frozenset({"drake:proximity_properties", "geometry", "laser_retro", "pose",
                            "surface"})
MATERIAL_TAGS = frozenset({"ambient", "diffuse", "drake:diffuse_map", "emissive", "specular"})
PROXIMITY_TAGS = frozenset(drake.PROXIMITY_TAGS) | {"drake:soft_hydroelastic"}
Resolve = Callable[..., "str | None"]  # (element, uri, missing=code, instead=...) -> path


def _child_float(diag: SdfDiagnostic, el, name: str, default: float | None = None,
                 kids: dict | None = None):
    """The number child ``name`` of ``el`` holds (``kids``: the child index
    of ``el``, when the caller has it)."""
    child = first_child(el, name) if kids is None else kids.get(name)
    if child is None:
        if default is None:
            diag.error(el, f"Element <{name}> is required within element <{local_name(el)}>.",
                       code="sdf-element-missing")
        return default
    try:
        return values.parse_double(child.text or "")
    except ValueError:
        diag.error(child, f"Cannot read <{name}> as a number: '{child.text}'.",
                   code="sdf-value-invalid")


def _child_vector(diag: SdfDiagnostic, el, name: str, default, kids: dict | None = None):
    child = first_child(el, name) if kids is None else kids.get(name)
    if child is None or not (child.text or "").strip():
        return default
    try:
        return values.parse_numbers(child.text, 3)
    except ValueError:
        diag.error(child, f"Cannot read <{name}> as 3 numbers: '{child.text}'.",
                   code="sdf-value-invalid")


class SdfGeometryReader:
    def __init__(self, diag: SdfDiagnostic, resolve: Resolve):
        self.diag = diag
        self.resolve = resolve
        self._colors: dict[str, Rgba] = {}  # (see color)

    # ------------------------------------------------------------ shapes
    def shape(self, geometry_el, for_collision: bool, kids: dict | None = None):
        """The shape, or None for an empty or unsupported geometry (``kids``:
        the child index of ``geometry_el``, when the caller has it)."""
        diag = self.diag
        kids = check_supported(diag, geometry_el, GEOMETRY_TAGS, kids)
        el = tag = None
        if len(geometry_el) == len(kids):
            # (every child an element of a name of its own, indexed in
            # document order: no walk over lxml's children)
            for name, c in kids.items():
                if name in GEOMETRY_TAGS:
                    el, tag = c, name
                    break
        else:
            for c in geometry_el[:]:
                if c.tag.__class__ is str and local_name(c) in GEOMETRY_TAGS:
                    el, tag = c, local_name(c)
                    break
        if el is None:
            return None
        # (a shape is no plant element, so nothing needs it declared at el:
        # only the model's refusal of it becomes an error there)
        try:
            return self.shape_of(el, tag, for_collision)
        except REFUSALS as e:
            diag.refused(el, e)

    def shape_of(self, el, tag: str, for_collision: bool):
        """The shape of element ``el`` of shape tag ``tag`` (None for an
        empty, heightmap or polyline)."""
        diag = self.diag
        if tag == "box":
            return Box(*_child_vector(diag, el, "size", (1.0, 1.0, 1.0), child_index(el)))
        if tag == "sphere":
            return Sphere(_child_float(diag, el, "radius", 1.0, child_index(el)))
        if tag == "cylinder":
            kids = child_index(el)
            return Cylinder(_child_float(diag, el, "radius", 1.0, kids),
                            _child_float(diag, el, "length", 1.0, kids))
        if tag == "capsule":
            kids = child_index(el)
            return Capsule(_child_float(diag, el, "radius", 0.5, kids),
                           _child_float(diag, el, "length", 1.0, kids))
        if tag == "ellipsoid":
            return Ellipsoid(*_child_vector(diag, el, "radii", (1.0, 1.0, 1.0),
                                            child_index(el)))
        if tag == "plane":
            return HalfSpace()
        if tag == "drake:capsule":
            check_supported(diag, el, {"radius", "length"})
            return Capsule(_child_float(diag, el, "radius"), _child_float(diag, el, "length"))
        if tag == "drake:ellipsoid":
            check_supported(diag, el, {"a", "b", "c"})
            return Ellipsoid(_child_float(diag, el, "a"), _child_float(diag, el, "b"),
                             _child_float(diag, el, "c"))
        if tag == "mesh":
            return self.mesh(el, for_collision)
        return None  # empty, heightmap, polyline

    def mesh(self, el, for_collision: bool):
        diag = self.diag
        kids = child_index(el)
        uri_el = kids.get("uri")
        uri = (uri_el.text or "").strip() if uri_el is not None else ""
        if not uri:
            diag.error(el, "The <mesh> tag is missing the required 'uri' attribute.",
                       code="sdf-attribute-missing")
        path = self.resolve(uri_el, uri, missing="mesh-missing", instead=drake.LEFT_OUT)
        scale = _child_vector(self.diag, el, "scale", (1.0, 1.0, 1.0), kids)
        return drake.mesh_shape(
            path, scale, kids.get("drake:declare_convex") is not None, for_collision,
            lambda m, instead: diag.drake_refuses(el, m, instead, code="mesh-collision-hull"))

    def plane_pose(self, geometry_el, X_LG: RigidTransform,
                   kids: dict | None = None) -> RigidTransform:
        plane = geometry_el.find("plane") if kids is None else kids.get("plane")
        if plane is None:
            return X_LG
        normal = (0.0, 0.0, 1.0)
        node = plane.find("normal")
        if node is not None and (node.text or "").strip():
            # (finite: parse_numbers refuses an infinity, as libsdformat does)
            normal = self.diag.checked(node, "vector3",
                                       lambda: values.parse_numbers(node.text, 3), normal)
            if math.hypot(*normal) < MIN_NORMAL_LENGTH:
                self.diag.error(node, f"The plane's <normal> '{node.text.strip()}' has (almost) "
                                      "no length, so it gives no direction for the half-space "
                                      "(Drake refuses it too); give a direction such as 0 0 1.",
                                code="axis-zero")
        return X_LG @ RigidTransform(half_space_rotation(normal))

    # ------------------------------------------------------------ visual
    def visual(self, el, X_LG: RigidTransform, kids: dict | None = None
               ) -> GeometryInstance | None:
        """The geometry of ``<visual>`` ``el`` (``kids``: its child index)."""
        diag = self.diag
        if kids is None:
            kids = child_index(el)
        check_material(diag, kids.get("material"))
        check_supported(diag, el, VISUAL_TAGS, kids)
        geometry_el = kids.get("geometry")
        if geometry_el is None:
            return None
        geometry_kids = check_supported(diag, geometry_el, LINK_GEOMETRY_TAGS)
        shape = self.shape(geometry_el, for_collision=False, kids=geometry_kids)
        if shape is None:
            return None
        roles = self.visual_properties(el, kids)
        if roles is None:
            return None
        X = self.plane_pose(geometry_el, X_LG, geometry_kids)
        return GeometryInstance(X, shape, el.get("name", ""), roles,
                                (diag.where(el)[0], el.sourceline))

    def visual_properties(self, el, kids: dict | None = None) -> dict | None:
        diag = self.diag
        if kids is None:
            kids = child_index(el)
        enabled = {PERCEPTION: self.role_enabled(kids, "drake:perception_properties"),
                   ILLUSTRATION: self.role_enabled(kids, "drake:illustration_properties")}
        if not enabled[ILLUSTRATION] and not enabled[PERCEPTION]:
            if el.get("mbparse-drake-visual") is None:
                diag.warning(el, f"The <visual name=\"{el.get('name')}\"> tag had all visual "
                                 "roles turned off for Drake; it is ignored.",
                             code="sdf-unsupported")
            return None
        props = GeometryProperties()
        material = kids.get("material")
        if material is not None:
            material_kids = check_supported(diag, material, MATERIAL_TAGS)
            diffuse_map = material_kids.get("drake:diffuse_map")
            if diffuse_map is not None and (diffuse_map.text or "").strip():
                path = self.resolve(diffuse_map, diffuse_map.text.strip(),
                                    instead="mbparse draws the material without it")
                if path is not None:
                    props.add_property("phong", "diffuse_map", path)
            for key in ("diffuse", "ambient", "specular", "emissive"):
                node = material_kids.get(key)
                if node is not None:
                    props.add_property("phong", key, self.color(node))
        roles = {}
        if enabled[ILLUSTRATION]:
            roles[ILLUSTRATION] = props
        if enabled[PERCEPTION]:
            perception = props.copy()
            accepting = (list(children(el, "drake:accepting_renderer"))
                         if "drake:accepting_renderer" in kids else None)
            if accepting:
                names = set()
                for node in accepting:
                    name = (node.text or "").strip()
                    if not name:
                        diag.error(node, "<drake:accepting_renderer> tag given without any "
                                         "name", code="sdf-value-invalid")
                    names.add(name)
                perception.add_property("renderer", "accepting", frozenset(names))
            roles[PERCEPTION] = perception
        elif kids.get("drake:accepting_renderer") is not None:
            diag.warning(el, "<drake:accepting_renderer> specified for a <visual> with a "
                             "disabled perception role.", code="sdf-unsupported")
        return roles

    def role_enabled(self, kids: dict, tag: str) -> bool:
        """Whether the role of ``<drake:perception_properties>`` or
        ``<drake:illustration_properties>`` (``tag``) is on: its 'enabled'
        attribute (on when absent, as the element is); ``kids``: the
        visual's child index."""
        node = kids.get(tag)
        if node is None:
            return True
        text = node.get("enabled")
        if text is None:
            return True
        try:
            return values.parse_bool(text)
        except ValueError:
            self.diag.error(node, f"The `{tag}` element has an 'enabled' attribute with the "
                                  "wrong value type; it should be a boolean value.",
                            code="sdf-value-invalid")

    def color(self, node) -> Rgba:
        """The colour of a material's ``<diffuse>`` (...) ``node``; kept by
        its text for the file (a model repeats a few colours; the document
        check has reported a text that does not read, which reads as black
        in check's mode)."""
        text = node.text or ""
        rgba = self._colors.get(text)
        if rgba is None:
            rgba = Rgba(*(self.diag.checked(node, "color", lambda: values.parse_color(text),
                                            (0.0, 0.0, 0.0, 1.0))
                          if text.strip() else (0.0, 0.0, 0.0, 1.0)))
            if len(self._colors) < MEMO_LIMIT:
                self._colors[text] = rgba
        return rgba

    # ------------------------------------------------------------ collision
    def collision(self, el, X_LG: RigidTransform, kids: dict | None = None
                  ) -> GeometryInstance | None:
        """The geometry of ``<collision>`` ``el`` (``kids``: its child index)."""
        diag = self.diag
        if kids is None:
            kids = child_index(el)
        geometry_el = kids.get("geometry")
        if geometry_el is None:
            return None
        geometry_kids = check_supported(diag, geometry_el, LINK_GEOMETRY_TAGS)
        shape = self.shape(geometry_el, for_collision=True, kids=geometry_kids)
        if shape is None:
            return None
        X = self.plane_pose(geometry_el, X_LG, geometry_kids)
        props = self.proximity(el, kids)
        return GeometryInstance(X, shape, el.get("name", ""), {PROXIMITY: props},
                                (diag.where(el)[0], el.sourceline))

    def proximity(self, el, kids: dict | None = None) -> GeometryProperties:
        diag = self.diag
        if kids is None:
            kids = child_index(el)
        check_supported(diag, el, COLLISION_TAGS, kids)
        retro = kids.get("laser_retro")
        if retro is not None and diag.checked(
                retro, "double", lambda: values.parse_double(retro.text or "0"), 0.0) != 0:
            diag.warning(retro, f"Unsupported value for SDFormat element laser_retro: "
                                f"{(retro.text or '').strip()}", code="sdf-unsupported")
        drake_el = kids.get("drake:proximity_properties")
        if drake_el is None:
            friction = self.ode_friction(el, kids)
            if friction is DEFAULT_FRICTION:  # (most: shared until changed)
                return default_proximity_properties()
            props = GeometryProperties()
            props.add_property("material", "coulomb_friction", friction)
            return props
        check_supported(diag, drake_el, PROXIMITY_TAGS)

        def read_double(tag: str):
            node = first_child(drake_el, tag)
            if node is None:
                return None
            try:
                return values.parse_double(node.text or "")
            except ValueError:
                diag.error(node, f"Cannot read <{tag}> as a number: '{node.text}'.",
                           code="sdf-value-invalid")

        rigid = first_child(drake_el, "drake:rigid_hydroelastic") is not None
        compliant = first_child(drake_el, "drake:compliant_hydroelastic") is not None
        if first_child(drake_el, "drake:soft_hydroelastic") is not None:
            diag.error(el, "A <collision> geometry uses <drake:soft_hydroelastic>, which is "
                           "no longer supported; use <drake:compliant_hydroelastic>.",
                       code="sdf-conflict")
        if rigid and compliant:
            diag.error(el, "A <collision> geometry has both <drake:rigid_hydroelastic> and "
                           "<drake:compliant_hydroelastic>; only one can be given.",
                       code="sdf-structure")
        props = drake.proximity_properties(
            read_double, rigid, compliant, lambda m: diag.warning(drake_el, m,
                                                                  code="proximity-ignored"),
            lambda m: diag.error(drake_el, m, code="proximity-invalid"))
        if not props.has_property("material", "coulomb_friction"):
            props.add_property("material", "coulomb_friction", self.ode_friction(el, kids))
        else:
            ode = el.find("surface/friction/ode")
            if ode is not None and (ode.find("mu") is not None or ode.find("mu2") is not None):
                diag.warning(ode, f"In <collision name='{el.get('name')}'>: the friction of "
                                  "<drake:proximity_properties> is used; <surface><friction>"
                                  "<ode><mu*> tags are ignored.", code="sdf-unsupported")
        return props

    def ode_friction(self, el, kids: dict | None = None) -> CoulombFriction:
        if kids is not None and "surface" not in kids:
            return DEFAULT_FRICTION
        ode = first_on_path(el, "surface", "friction", "ode")
        if ode is None:
            return DEFAULT_FRICTION
        diag = self.diag
        mu = _child_float(diag, ode, "mu", DEFAULT_FRICTION.static_friction)
        mu2 = _child_float(diag, ode, "mu2", DEFAULT_FRICTION.dynamic_friction)
        friction = CoulombFriction(mu, mu2)
        why = friction.invalidity()
        if why:
            diag.error(ode, why, code="value-out-of-range")
        return friction


def check_material(diag: SdfDiagnostic, material) -> None:
    """libsdformat's material rules: a ``<script>`` needs a ``<uri>`` and a
    ``<name>``; a normal-map ``<shader>`` needs a ``<normal_map>``."""
    if material is None:
        return
    script = first_child(material, "script")
    if script is not None:
        for tag in ("uri", "name"):
            node = first_child(script, tag)
            if node is None or not (node.text or "").strip():
                diag.error(script, f"A <script> element has no <{tag}> child, or it is empty.",
                           code="sdf-element-missing")
    shader = first_child(material, "shader")
    if shader is not None and shader.get("type", "pixel").startswith("normal_map"):
        node = first_child(shader, "normal_map")
        if node is None or not (node.text or "").strip():
            diag.error(shader, "A normal-map shader is specified without a <normal_map>.",
                       code="sdf-conflict")


def half_space_rotation(normal):
    """Drake's orientation of a half-space whose outward normal is ``normal``:
    z along the normal, x perpendicular to the axis the normal is least
    aligned with."""
    z = normalized(normal)
    absz = [abs(c) for c in z]
    k = absz.index(min(absz))
    perp = [0.0, 0.0, 0.0]
    perp[k] = 1.0
    x = normalized(cross(z, perp))
    y = cross(z, x)
    return ((x[0], y[0], z[0]), (x[1], y[1], z[1]), (x[2], y[2], z[2]))
