"""URDF ``<visual>``, ``<collision>`` and ``<material>`` elements."""
from __future__ import annotations

import math
from types import MappingProxyType

from ...geometry import (Box, Capsule, CoulombFriction, Cylinder, DEFAULT_FRICTION, Ellipsoid,
                        GeometryInstance, GeometryProperties, Rgba, Sphere)
from ...geometry.properties import (ILLUSTRATION, PERCEPTION, PROXIMITY,
                                    default_proximity_properties)
from ..common.uris import FileResolver
from ...spatial import IDENTITY
from ..common import drake
from ..common.xml import (MEMO_LIMIT, NO_CHILDREN, REFUSALS, XmlDiagnostic, child_map,
                          children, first_child, qname)
from .spec import ATTRIBUTES

NAME_SUFFIX_LIMIT = 10000


class UsedNames(set):
    """The geometry names a link's visuals (or collisions) have taken, and
    for each name renamed, the suffix to try next: names are only added, so
    the search for a free ``NAME_i`` goes on from where the last one stopped
    (from 1 every time, 10,000 unnamed boxes on a link took minutes)."""

    # next_suffix (name -> suffix) is made at the first renaming: a link's
    # set costs no Python call when nothing is renamed.
    __slots__ = ("next_suffix",)

    def suffixes(self) -> dict[str, int]:
        """For each name renamed so far, the suffix to try next."""
        try:
            return self.next_suffix
        except AttributeError:
            self.next_suffix = {}
            return self.next_suffix
# The shapes given by a radius (and a length), by their URDF element.
_ROUND_SHAPES = {"sphere": Sphere, "cylinder": Cylinder, "capsule": Capsule,
                 "drake:capsule": Capsule}
# Every shape element, in the order a <geometry> holding several is read.
_SHAPE_TAGS = ("box", "sphere", "cylinder", "capsule", "drake:capsule", "mesh", "drake:ellipsoid")
_SHAPE_TAG_SET = frozenset(_SHAPE_TAGS)
# A visual's roles, and the elements that can turn each off.
_ROLE_TAGS = ((ILLUSTRATION, "drake:illustration_properties"),
              (PERCEPTION, "drake:perception_properties"))
sharing = GeometryProperties.sharing
_NO_PHONG = MappingProxyType({})  # a visual without a material


class UrdfMaterial:
    __slots__ = ("rgba", "diffuse_map", "_phong")

    def __init__(self, rgba=None, diffuse_map=None):
        self.rgba = rgba
        self.diffuse_map = diffuse_map
        self._phong = None

    def phong(self):
        """The ``phong`` properties this material gives a visual (read-only:
        visuals share them through GeometryProperties.sharing); empty when
        it has neither colour nor texture."""
        phong = self._phong
        if phong is None:
            phong = {}
            if self.rgba is not None:
                phong[("phong", "diffuse")] = Rgba(*self.rgba)
            if self.diffuse_map is not None:
                phong[("phong", "diffuse_map")] = self.diffuse_map
            self._phong = phong = MappingProxyType(phong)
        return phong


class GeometryReader:
    """Reads geometry of one URDF file (resolving URIs against its folder)."""

    def __init__(self, diag: XmlDiagnostic, package_map, root_dir: str):
        self.diag = diag
        self.files = FileResolver(diag, package_map, root_dir)
        self.materials: dict[str, UrdfMaterial] = {}
        self.spec = None  # (the reader's SpecCheck, set per parse)
        # The box, sphere, cylinder and capsule shapes made so far in this
        # file, by element name and size texts: a model repeats a few sizes
        # (70% of the benchmark's primitive shapes repeat one of their file),
        # and a shape is an immutable value. Only a shape read from plain
        # numbers, with nothing said, is kept (see _kept_shape).
        self._shapes: dict[tuple, object] = {}

    def resolve(self, el, uri: str, instead: str, missing: str = "file-missing") -> str | None:
        """The file a mesh or texture URI names. When it cannot be found: an
        error in Drake's mode (code ``missing`` when the file does not
        exist); otherwise a warning saying ``instead`` (what is done without
        it), and None."""
        return self.files.resolve(el, uri, instead, missing)

    # ------------------------------------------------------------ materials
    def material(self, el, name_required: bool) -> UrdfMaterial:
        diag = self.diag
        name = el.get("name") or ""
        if not name and name_required:
            diag.error(el, "a <material> directly under <robot> needs a name",
                       code="urdf-attribute-missing")
        kids = child_map(el) if len(el) else NO_CHILDREN  # (a reference by name has no children)
        if "drake:diffuse_map" in kids:
            diag.error(el, "<drake:diffuse_map> belongs to SDFormat; in URDF use <texture>",
                       code="urdf-value-invalid")
        texture = None
        texture_given = False
        tex = kids.get("texture")
        if tex is not None:
            filename = tex.get("filename")
            if filename:
                texture_given = True
                texture = self.resolve(tex, filename, "mbparse draws the material without it")
        rgba = None
        color = kids.get("color")
        if color is not None:
            rgba = diag.vector(color, "rgba", 4)
            if rgba is None:
                diag.error(color, "<color> needs an rgba attribute of four numbers",
                           code="urdf-attribute-missing")
            if not (0.0 <= min(rgba) and max(rgba) <= 1.0):
                outside = [v for v in rgba if not 0.0 <= v <= 1.0]
                diag.warning(color, f"<color rgba='{color.get('rgba')}'> has "
                                    f"{'a value' if len(outside) == 1 else 'values'} outside "
                                    f"[0, 1] ({', '.join(f'{v:g}' for v in outside)}); mbparse "
                                    "keeps the colour as written, as Drake does (renderers clamp "
                                    "it)", code="color-out-of-range")
        if rgba is None and not texture_given and name and name not in self.materials:
            # urdfdom, pybullet and yourdfpy read such a reference; Drake refuses it.
            diag.drake_refuses(el, f"material '{name}' has no color or texture and no earlier "
                                   "definition to refer to",
                               "mbparse gives the visual no colour (the default one)",
                               code="urdf-unknown-material")
            return UrdfMaterial(None, None)
        material = UrdfMaterial(rgba, texture)
        if name:
            material = self._remember(el, name, material, error_if_name_clash=name_required)
        return material

    def _remember(self, el, name: str, material: UrdfMaterial,
                  error_if_name_clash: bool) -> UrdfMaterial:
        cached = self.materials.get(name)
        if cached is None:
            if material.rgba is None:
                material.rgba = (0.0, 0.0, 0.0, 0.0)  # transparent black
            self.materials[name] = material
            return material
        error = error_if_name_clash
        if not error:
            error = (cached.diffuse_map != material.diffuse_map
                     and not (cached.diffuse_map is not None and material.diffuse_map is None))
        if not error:
            if cached.rgba is not None and material.rgba is not None:
                # math.dist scales, so colours of 1e200 do not overflow.
                error = math.dist(cached.rgba, material.rgba) > 1e-10
            else:
                error = cached.rgba is None and material.rgba is not None
        if error:
            def describe(m):
                return (f"RGBA: {' '.join(f'{v:g}' for v in m.rgba) if m.rgba else 'None'}, "
                        f"Diffuse map: {m.diffuse_map or 'None'}")
            what = ("mbparse keeps the first definition" if error_if_name_clash else
                    "mbparse uses this definition here and the first one elsewhere")
            self.diag.drake_refuses(el, f"material '{name}' is defined twice, differently:\n"
                                        f"  first:  {describe(cached)}\n"
                                        f"  here:   {describe(material)}", what,
                                    code="urdf-conflict")
            if not error_if_name_clash:
                return material
        return cached

    # ------------------------------------------------------------ shapes
    def shape(self, geometry_el, for_collision: bool, check: bool = False):
        """The shape a ``<geometry>`` holds (None: left out, reported);
        ``check``: the spec check of the (plain) ``<geometry>`` is the
        reader's (spec.SpecCheck)."""
        only = None
        for el in geometry_el:  # the common case: one plain shape element
            tag = el.tag
            if tag.__class__ is not str:
                continue  # (a comment)
            if only is not None or tag not in _SHAPE_TAG_SET:
                break
            only = el
        else:
            if only is not None:
                tag = only.tag
                if check:  # (a shape is a child <geometry> may have; read, it is checked)
                    if tag in ATTRIBUTES:
                        if len(only):  # (rare: a shape holds nothing the reader reads)
                            self.spec.inside(only)
                    else:
                        self.spec.subtree(only)
                        check = False
                return self._shape_of(tag, only, for_collision, check)
        if check:
            self.spec.subtree(geometry_el)
        diag = self.diag
        kids = child_map(geometry_el)
        for tag in _SHAPE_TAGS:  # several, or written with a prefix: in this order
            el = kids.get(tag)
            if el is not None:
                return self._shape_of(tag, el, for_collision)
        message = ("<geometry> holds no shape this reader knows (box, sphere, cylinder, "
                   "capsule, mesh, drake:ellipsoid)")
        found = [qname(k) for k in children(geometry_el)]
        if not found:
            diag.error(geometry_el, message, code="urdf-element-missing")
        # pybullet's own shapes (<plane normal=...>, <cdf filename=...>): Drake,
        # urdfdom and yourdfpy refuse them; the default mode loads the rest.
        self.diag.drake_refuses(geometry_el, f"{message}; it holds <{'>, <'.join(found)}>",
                                drake.LEFT_OUT, code="urdf-element-missing")
        return None

    def _shape_of(self, tag: str, el, for_collision: bool, check: bool = False):
        """The shape of the shape element ``el`` named ``tag``; the model's
        refusal of it (a bad size or scale) an error at ``el``. ``check``:
        ``el``'s attribute names are checked here (spec.SpecCheck.counted)."""
        diag = self.diag
        get = el.get
        if tag == "box":
            make = Box
            text = get("size")
            if check:
                self.spec.counted(el, tag, text is not None)
            key = (tag, text)
            known = self._shapes.get(key)
            if known is not None:
                return known
            args = diag.vector(el, "size", 3, None, text)
            if args is None:
                diag.error(el, "<box> has no size attribute", code="urdf-attribute-missing")
            if 0.0 in args and not diag.policy.like_drake and min(args) >= 0.0:
                # pyflyt's pole and race gate: pybullet and yourdfpy load them.
                diag.warning(el, f"<box> has a side of size 0 (size '{el.get('size')}'); "
                                 "mbparse leaves this geometry out and loads the rest of the "
                                 "model, as pybullet and yourdfpy do [Drake refuses this: a box's "
                                 "sides must be positive]", code="shape-zero-size")
                return None
        elif tag in _ROUND_SHAPES:
            make = _ROUND_SHAPES[tag]
            text = get("radius")
            length_text = None if make is Sphere else get("length")
            if check:
                self.spec.counted(el, tag, (text is not None) + (length_text is not None))
            key = (tag, text, length_text)
            known = self._shapes.get(key)
            if known is not None:
                return known
            radius = diag.scalar(el, "radius", None, text)
            if radius is None:
                diag.error(el, f"<{tag}> has no radius attribute", code="urdf-attribute-missing")
            if make is Sphere:
                args = (radius,)
            else:
                length = diag.scalar(el, "length", None, length_text)
                if length is None:
                    diag.error(el, f"<{tag}> has no length attribute",
                               code="urdf-attribute-missing")
                args = (radius, length)
        elif tag == "mesh":
            key = None  # (a mesh shape is made per element: its file is resolved there)
            filename = get("filename")
            text = get("scale")
            if check:
                self.spec.counted(el, tag, (filename is not None) + (text is not None))
            if filename is None:
                diag.error(el, "<mesh> has no filename attribute", code="urdf-attribute-missing")
            path = self.files.resolve(el, filename, drake.LEFT_OUT, missing="mesh-missing")
            scale = (1.0, 1.0, 1.0)
            if text is not None:
                if " " in text:
                    scale = diag.vector(el, "scale", 3, None, text)
                else:
                    s = diag.scalar(el, "scale", None, text)
                    scale = (s, s, s)
            make = drake.mesh_shape
            args = (path, scale,
                    len(el) > 0 and first_child(el, "drake:declare_convex") is not None,
                    for_collision,
                    lambda m, instead: diag.drake_refuses(el, m, instead,
                                                          code="mesh-collision-hull"))
        else:  # drake:ellipsoid
            key = None
            make = Ellipsoid
            args = []
            for name in ("a", "b", "c"):
                v = diag.scalar(el, name, None, get(name))
                if v is None:
                    diag.error(el, f"<drake:ellipsoid> has no '{name}' attribute",
                               code="urdf-attribute-missing")
                args.append(v)
        try:
            shape = make(*args)
        except REFUSALS as e:
            diag.refused(el, e)
        if key is not None:
            self._kept_shape(key, shape)
        return shape

    def _kept_shape(self, key: tuple, shape) -> None:
        """Keeps ``shape``, made from the texts of ``key`` (element name,
        then one or two size texts), for the elements of this file that
        repeat them -- when each text was read as plain finite numbers
        (what reading it again would say nothing about) and the memo has
        room."""
        is_plain = self.diag.read_plainly
        texts = key[1:]
        if len(self._shapes) < MEMO_LIMIT and (
                is_plain(texts[0], 3) if len(texts) == 1
                else all(t is None or is_plain(t, 1) for t in texts)):
            self._shapes[key] = shape

    def geometry_name(self, kind: str, el, shape, used: UsedNames) -> str:
        name = el.get("name")
        explicit = name is not None
        if not explicit:
            name = shape.type_name
        if name in used:
            next_suffix = used.suffixes()
            for i in range(next_suffix.get(name, 1), NAME_SUFFIX_LIMIT + 1):
                if i >= NAME_SUFFIX_LIMIT:
                    self.diag.error(el, f"too many geometries named '{name}' on one link",
                                    code="name-duplicate")
                guess = f"{name}_{i}"
                if guess not in used:
                    if explicit:
                        self.diag.warning(el, f"{kind} name '{name}' is used twice in this link; "
                                              f"this one is renamed '{guess}'", code="name-renamed")
                    next_suffix[name] = i + 1
                    name = guess
                    break
        used.add(name)
        return name

    # ------------------------------------------------------------ visual
    def visual(self, el, link_name: str, used: set[str]) -> GeometryInstance | None:
        diag = self.diag
        kids, plain = self.spec.children(el, "visual" if el.tag == "visual" else None, "geometry")
        origin_el, geometry_el, material_el = (kids.get("origin"), kids.get("geometry"),
                                               kids.get("material"))
        if geometry_el is None:
            diag.error(el, f"a <visual> of link '{link_name}' has no <geometry>",
                       code="urdf-element-missing")
        X_BG = IDENTITY if origin_el is None else diag.origin(origin_el, self.spec.origin_has_others)
        shape = self.shape(geometry_el, False, plain is not None)
        illustration = perception = True
        if "drake:illustration_properties" in kids or "drake:perception_properties" in kids:
            for role, tag in _ROLE_TAGS:
                node = kids.get(tag)
                if node is not None:
                    value = node.get("enabled")
                    if value is not None:
                        if value not in ("true", "false"):
                            diag.error(node, f"{tag} enabled='{value}': use 'true' or 'false'",
                                       code="urdf-value-invalid")
                        if role == ILLUSTRATION:
                            illustration = value == "true"
                        else:
                            perception = value == "true"
        if not illustration and not perception:
            diag.warning(el, f"a <visual> of link '{link_name}' disables both illustration "
                             "and perception, so it has no role left; it is ignored",
                         code="urdf-unsupported")
            return None
        phong = _NO_PHONG
        if material_el is not None:
            phong = self.material(material_el, name_required=False).phong()
        accepting = None
        for node in (children(el, "drake:accepting_renderer")
                     if "drake:accepting_renderer" in kids else ()):
            name = node.get("name")
            if not name:
                # The reference calls an empty name a parsing error (Drake's
                # SDFormat reader agrees; its URDF reader lets "" through).
                diag.error(node, "<drake:accepting_renderer> needs a non-empty name attribute",
                           code="urdf-attribute-missing")
            if accepting is None:
                accepting = set()
            accepting.add(name)
        if shape is None:
            return None  # a mesh left out (reported where it was found)
        name = self.geometry_name("visual", el, shape, used)
        roles = {}
        if illustration:
            roles[ILLUSTRATION] = sharing(phong)
        if perception:
            props = sharing(phong)
            if accepting is not None:
                props.add_property("renderer", "accepting", frozenset(accepting))
            roles[PERCEPTION] = props
        return GeometryInstance(X_BG, shape, name, roles, diag.where(el))

    # ------------------------------------------------------------ collision
    def collision(self, el, link_name: str, used: set[str]) -> GeometryInstance | None:
        diag = self.diag
        kids, plain = self.spec.children(el, "collision" if el.tag == "collision" else None,
                                         "geometry")
        origin_el, geometry_el = kids.get("origin"), kids.get("geometry")
        if "verbose" in kids:
            diag.warn_unsupported_element(el, "verbose", kids)
        if geometry_el is None:
            diag.error(el, f"a <collision> of link '{link_name}' has no <geometry>",
                       code="urdf-element-missing")
        X_BG = IDENTITY if origin_el is None else diag.origin(origin_el, self.spec.origin_has_others)
        if el.get("group") is not None:
            diag.warning(el, "the 'group' attribute of <collision> has no meaning here; it is "
                             "ignored", code="urdf-unsupported")
        shape = self.shape(geometry_el, True, plain is not None)
        drake_el = kids.get("drake:proximity_properties")
        compliance = kids.get("drake_compliance")
        if drake_el is None and compliance is None:
            props = default_proximity_properties()  # (shared until changed)
        else:
            props = GeometryProperties()
            if drake_el is not None:
                props = self._proximity(drake_el)
            if not props.has_property("material", "coulomb_friction"):
                props.add_property("material", "coulomb_friction",
                                   self._legacy_friction(compliance, link_name))
            elif compliance is not None:
                diag.warning(el, "<drake_compliance> is ignored because "
                                 "<drake:proximity_properties> gives the friction",
                             code="urdf-unsupported")
        if shape is None:
            return None  # a mesh left out (reported where it was found)
        name = self.geometry_name("collision", el, shape, used)
        return GeometryInstance(X_BG, shape, name, {PROXIMITY: props}, diag.where(el))

    def _proximity(self, drake_el) -> GeometryProperties:
        diag = self.diag

        def read_double(tag: str):
            node = first_child(drake_el, tag)
            if node is None:
                return None
            value = diag.scalar(node, "value")
            if value is None:
                diag.error(node, f"<{tag}> has no value attribute", code="urdf-attribute-missing")
            return value

        rigid = first_child(drake_el, "drake:rigid_hydroelastic")
        compliant = first_child(drake_el, "drake:compliant_hydroelastic")
        old = first_child(drake_el, "drake:soft_hydroelastic")
        if old is not None:
            diag.error(old, "<drake:soft_hydroelastic> was renamed "
                            "<drake:compliant_hydroelastic>; use the new name",
                       code="urdf-conflict")
        if rigid is not None and compliant is not None:
            diag.error(drake_el, "a geometry is either rigid or compliant: "
                                 f"<drake:rigid_hydroelastic> (line {rigid.sourceline}) and "
                                 f"<drake:compliant_hydroelastic> (line {compliant.sourceline}) "
                                 "cannot both be given", code="urdf-conflict")
        for child in children(drake_el):
            if qname(child) not in drake.PROXIMITY_TAGS:
                diag.warning(child, f"<{qname(child)}> is not a proximity property; it is "
                                    "ignored", code="urdf-unknown-element")
        return drake.proximity_properties(
            read_double, rigid is not None, compliant is not None,
            lambda m: diag.warning(drake_el, m, code="proximity-ignored"),
            lambda m: diag.error(drake_el, m, code="proximity-invalid"))

    def _legacy_friction(self, compliance, link_name: str) -> CoulombFriction:
        """The friction of a collision's ``<drake_compliance>`` (None: the default)."""
        diag = self.diag
        if compliance is None:
            return DEFAULT_FRICTION
        for tag in ("youngs_modulus", "dissipation"):
            if first_child(compliance, tag) is not None:
                diag.warning(compliance, f"<{tag}> in <drake_compliance> is obsolete; it is "
                                         "ignored", code="urdf-unsupported")
        values = {}
        for tag in ("static_friction", "dynamic_friction"):
            node = first_child(compliance, tag)
            if node is not None:
                try:
                    values[tag] = float((node.text or "").strip())
                except ValueError:
                    diag.error(node, f"<{tag}> of link '{link_name}' is not a number",
                               code="urdf-value-invalid")
        if len(values) == 1:
            diag.error(compliance, f"link '{link_name}' gives one friction coefficient; "
                                   "<drake_compliance> needs both static_friction and "
                                   "dynamic_friction", code="urdf-value-invalid")
        if values:
            friction = CoulombFriction(values["static_friction"], values["dynamic_friction"])
            why = friction.invalidity()
            if why:
                diag.error(compliance, f"Invalid friction: {why}", code="urdf-value-invalid")
            return friction
        return DEFAULT_FRICTION
