"""``<geom>``: its shape, pose, color and friction, and the mass properties
MuJoCo gives it (solid or shell primitives, meshes, ``mass`` or
``density``)."""
from __future__ import annotations

import math

from ...geometry import (Box, Capsule, CoulombFriction, Cylinder, Ellipsoid, HalfSpace, Shape,
                         ShapeError, Sphere)
from ...geometry.properties import DEFAULT_FRICTION  # MuJoCo's default too (immutable)
from ..common.suggest import did_you_mean
from ..common.xml import MEMO_LIMIT
from ...numbers import all_finite, shown
from ...spatial import IDENTITY3, RigidTransform
from .assets import Assets
from .attrs import Attrs
from .compiler import EPS, Compiler, frame, z_to_vector
from .defaults import DefaultClasses
from .inertia import primitive_inertia, primitive_volume, rotate_inertia
from .mujoco_refuses import mujoco_refuses, size_refusal

GEOM_TYPES = ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh",
              "sdf")
DEFAULT_RGBA = (0.5, 0.5, 0.5, 1.0)
UNSUPPORTED = ("fitscale", "fluidshape", "fluidcoef", "user", "surfacevel", "adhesion")
# The attributes that decide a geom's roles (see GeomReader._roles).
_ROLES = frozenset(("contype", "conaffinity", "condim", "group"))
# The shapes a geom's attributes alone make (immutable, shared between geoms):
# a mesh's shape is made per geom, and its geoms are read each on its own.
_PRIMITIVES = frozenset((HalfSpace, Sphere, Capsule, Cylinder, Ellipsoid, Box))
_ZERO3 = (0.0, 0.0, 0.0)
_NO_INERTIA = (0.0,) * 6
# How many numbers of 'size' a primitive needs (a sphere: its radius, or none).
SIZES_NEEDED = {"capsule": 2, "cylinder": 2, "ellipsoid": 3, "box": 3}


class Geom:
    """A geom read from the file, ready to register on its body (one per
    geom of the model: slots, no ``__dict__``)."""

    __slots__ = ("el", "name", "X_BG", "shape", "rgba", "friction", "visual", "collision",
                 "group", "mass", "com", "inertia")

    def __init__(self, el, name: str, X_BG: RigidTransform, shape: Shape | None, rgba: tuple,
                 friction: CoulombFriction) -> None:
        self.el = el
        self.name = name
        self.X_BG = X_BG
        self.shape = shape  # None: a mesh without a file (mass only)
        self.rgba = rgba
        self.friction = friction
        self.visual = True
        self.collision = True
        self.group = 0
        # Mass properties in the body frame: mass, center of mass, inertia about it.
        self.mass = 0.0
        self.com: tuple = _ZERO3
        self.inertia: tuple = _NO_INERTIA


class GeomReader:
    """Reads geoms with the model's defaults, assets and compiler settings."""

    def __init__(self, defaults: DefaultClasses, assets: Assets, compiler: Compiler):
        self.defaults = defaults
        self.assets = assets
        self.compiler = compiler
        self._shapes: dict[tuple, Shape] = {}  # (kind, size) → the primitive made of them
        # a 'friction' text read without an error → (its friction, whether it warns)
        self._frictions: dict[str, tuple[CoulombFriction, bool]] = {}
        # (class, place, attributes but the name) → what read() gave, for
        # geoms read without a word (see read)
        self._read_before: dict[tuple, tuple] = {}

    def read(self, el, index: int, childclass: str | None, in_world: bool,
             moving: bool, with_inertia: bool) -> Geom | None:
        """The geom of ``el`` (None when it is ignored with a warning).

        ``index`` names an unnamed geom (``geom<index>``); ``with_inertia``
        asks for its mass properties.

        A geom whose attributes (its name aside) and place are those of a
        geom read before without a word gets what that one got: its
        reading depends on nothing else (the defaults, assets and compiler
        settings are fixed by then), so it would give the same values and,
        again, no warning. Generated and replicated models repeat a few
        geoms thousands of times.
        """
        items = el.items()  # (read once: the key's, and the attributes' when read)
        parts: list = [childclass, in_world, moving, with_inertia]
        name = None
        for item in items:
            if item[0] != "name":
                parts.append(item)
            else:
                name = item[1]
        key = tuple(parts)
        known = self._read_before.get(key)
        if known is not None:
            geom = Geom(el, name or f"geom{index}", known[0], known[1], known[2], known[3])
            geom.visual, geom.collision, geom.group, geom.mass, geom.com, geom.inertia = known[4:]
            return geom
        policy = self.defaults.doc.policy
        said = len(policy.warnings_seen) + len(policy.errors_seen)
        geom = self._read(el, items, index, childclass, in_world, moving, with_inertia)
        if (geom is not None and geom.shape.__class__ in _PRIMITIVES
                and len(policy.warnings_seen) + len(policy.errors_seen) == said
                and len(self._read_before) < MEMO_LIMIT):
            self._read_before[key] = (geom.X_BG, geom.shape, geom.rgba, geom.friction,
                                      geom.visual, geom.collision, geom.group, geom.mass,
                                      geom.com, geom.inertia)
        return geom

    def _read(self, el, items: list, index: int, childclass: str | None, in_world: bool,
              moving: bool, with_inertia: bool) -> Geom | None:
        a = self.defaults.attrs(el, childclass, items=items)
        doc = a.doc
        values = a.values
        # Absent attributes (most of them) are settled without a call each.
        v = values.get("name")
        name = v[0] if v is not None and v[0] else f"geom{index}"
        v = values.get("type")
        kind = "sphere" if v is None else v[0] if v[0] in GEOM_TYPES else \
            a.choice("type", GEOM_TYPES, "sphere")
        size = a.numbers("size", (0, 3), ()) if "size" in values else ()
        if "fromto" in values and (kind == "box" or kind == "ellipsoid") \
                and doc.policy.like_drake:
            # MuJoCo makes the box or ellipsoid along the segment; Drake leaves it out.
            doc.warning(el, f"The fromto tag for {kind} is currently unsupported; geom {name} "
                            "will be ignored.", code="mjcf-unsupported")
            return None
        X_BG, size = self._pose_and_size(a, kind, size)
        if "mesh" in values and kind != "mesh":
            a.error("mesh", f"geom '{name}' has type '{kind}' and a mesh; fitting a primitive "
                            "to a mesh is not supported", code="mjcf-not-supported")
        if kind == "hfield" or kind == "sdf":
            doc.warning(el, f"geom '{name}': the geom type '{kind}' is not supported; the geom "
                            "is ignored", code="mjcf-unsupported")
            return None
        if kind == "plane" and moving:
            doc.error(el, f"geom '{name}': a plane is only allowed in a body that cannot move",
                      code="mjcf-structure")
        # A primitive of a size seen before (and so checked then): its shape.
        shape = self._shapes.get((kind, size)) if kind != "mesh" and size else None
        if shape is not None:
            mesh = None
        else:
            shape, mesh = self._shape(a, name, kind, size)
            if shape is None and mesh is None:
                return None
        refusal = size_refusal(kind, size)
        if refusal is not None:
            self._mujoco_refuses_size(a, name, kind, size, refusal)
        if not values.keys().isdisjoint(UNSUPPORTED):
            a.warn_unsupported(UNSUPPORTED)
        if "material" in values or "rgba" in values:
            rgba = self._rgba(a, name)
        else:
            rgba = DEFAULT_RGBA
        geom = Geom(el, name, X_BG, shape, rgba,
                    self._friction(a) if "friction" in values else DEFAULT_FRICTION)
        if not _ROLES.isdisjoint(values) or (kind == "sphere" and not size):
            self._roles(a, geom, kind, size)
        if shape is None:  # a mesh written in the file: no file for a shape to name
            doc.warning(a.where("mesh"), f"geom '{name}': the mesh '{mesh.name}' is given by "
                                         "vertices in the file, which no shape can hold; the "
                                         "geom's mass counts but it is neither drawn nor "
                                         "collides", code="mjcf-unsupported")
            geom.visual = geom.collision = False
        if with_inertia and kind != "plane" and not in_world:
            # A sphere without a size has radius 0 (warned about above).
            self._mass_properties(a, geom, kind, size or (0.0,), mesh)
        return geom

    @staticmethod
    def _mujoco_refuses_size(a: Attrs, name: str, kind: str, size: tuple, reason: str) -> None:
        """A geom's size MuJoCo refuses (checked after 'fromto' gave a
        length, as MuJoCo checks it), which Drake reads as written."""
        if not size:
            what = f"geom '{name}' is a {kind} without a size"
        else:
            what = f"geom '{name}' is a {kind} of size {shown(size)}"
        if kind == "plane":
            done = "mbparse reads the plane as a half-space, as Drake does"
        elif kind == "sphere" and not size:
            done = "mbparse reads a sphere of radius 0, as Drake does"
        else:
            done = f"mbparse reads the {kind} as written, as Drake does"
        mujoco_refuses(a.doc, a.el, what, reason, done)

    # ------------------------------------------------------------ pose, shape
    def _pose_and_size(self, a: Attrs, kind: str, size: tuple):
        if "fromto" not in a.values:
            return frame(a, self.compiler), size
        f = a.numbers("fromto", 6)
        if kind not in ("capsule", "cylinder", "box", "ellipsoid"):
            a.error("fromto", f"'fromto' needs a capsule, cylinder, box or ellipsoid geom; this "
                              f"one is a {kind}", code="mjcf-value-invalid")
        if "pos" in a.values and any(a.numbers("pos", 3)):
            a.error("pos", "a geom cannot have both 'pos' and 'fromto'", code="mjcf-conflict")
        axis = (f[3] - f[0], f[4] - f[1], f[5] - f[2])  # sub(end, start)
        length = math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2])
        if length < EPS:
            a.error("fromto", f"the two points of 'fromto' coincide ('{a.text('fromto')}'): the "
                              "geom would have zero length", code="mjcf-value-invalid")
        if len(size) < 1:
            a.error("size", f"a {kind} geom with 'fromto' needs its radius in 'size'",
                    code="mjcf-element-missing")
        mid = ((f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2)
        # The axis points from 'from' to 'to' (Drake's choice; MuJoCo points
        # it the other way, which is the same solid for these shapes).
        X = RigidTransform(z_to_vector(axis), mid)
        if kind in ("box", "ellipsoid"):
            return X, (size[0], size[0], length / 2)
        return X, (size[0], length / 2)

    def _shape(self, a: Attrs, name: str, kind: str, size: tuple):
        need = SIZES_NEEDED.get(kind, 0)
        if len(size) < need:
            a.error("size", f"geom '{name}': a {kind} needs {need} numbers in 'size'; it has "
                            f"{len(size)}", code="mjcf-value-invalid")
        mesh = None
        # Shapes are immutable: geoms of one kind and size share one (sizes
        # with a zero are left out: 0.0 and -0.0 are equal keys, not equal shapes).
        cacheable = kind != "mesh" and size and 0.0 not in size
        if cacheable:
            shape = self._shapes.get((kind, size))
            if shape is not None:
                return shape, None
        try:
            if kind == "plane":
                shape = HalfSpace()
            elif kind == "sphere":
                shape = Sphere(size[0] if size else 0.0)
            elif kind == "capsule":
                shape = Capsule(size[0], 2 * size[1])
            elif kind == "cylinder":
                shape = Cylinder(size[0], 2 * size[1])
            elif kind == "ellipsoid":
                shape = Ellipsoid(size[0], size[1], size[2])
            elif kind == "box":
                shape = Box(2 * size[0], 2 * size[1], 2 * size[2])
            else:
                mesh_name = a.text("mesh")
                if mesh_name is None:
                    a.doc.error(a.el, f"geom '{name}' has type 'mesh' but no 'mesh' attribute",
                                code="mjcf-attribute-missing")
                mesh = self.assets.meshes.get(mesh_name)
                if mesh is None and mesh_name in self.assets.ignored_meshes:
                    a.doc.warning(a.where("mesh"), f"geom '{name}' uses the ignored mesh "
                                                   f"'{mesh_name}' and is ignored too",
                                  code="mjcf-unsupported")
                    return None, None
                if mesh is None and mesh_name in self.assets.refused_meshes:
                    return None, None  # the mesh's own error says why
                if mesh is None:
                    a.error("mesh", f"geom '{name}' uses the mesh '{mesh_name}', which no "
                                    "<mesh> asset defines."
                                    + did_you_mean(mesh_name, self.assets.meshes),
                            code="mjcf-unknown-mesh")
                shape = mesh.shape(self.assets.data(mesh))
        except ShapeError as e:
            a.doc.error(a.el, f"geom '{name}': {e}", code="shape-invalid")
        if cacheable:
            self._shapes[(kind, size)] = shape
        return shape, mesh

    # ------------------------------------------------------------ appearance
    def _rgba(self, a: Attrs, name: str) -> tuple:
        rgba = DEFAULT_RGBA
        values = a.values
        if "material" not in values:
            return a.numbers("rgba", 4, rgba) if "rgba" in values else rgba
        material = a.text("material")
        if material is not None:
            m = self.assets.materials.get(material)
            if m is None:
                a.doc.warning(a.where("material"), f"geom '{name}' uses the material "
                                                   f"'{material}', which is not defined",
                              code="mjcf-unknown-material")
            else:
                rgba = m.numbers("rgba", 4, rgba)
        own = a.numbers("rgba", 4, None)
        if own is not None and (material is None or own != DEFAULT_RGBA):
            rgba = own
        return rgba

    def _friction(self, a: Attrs) -> CoulombFriction:
        values = a.values
        if "friction" not in values:
            return DEFAULT_FRICTION
        # A text read before without an error (a class's friction, most
        # often): its friction, and whether it has the terms warned about.
        text = values["friction"][0]
        known = self._frictions.get(text)
        if known is not None:
            if known[1]:
                self._warn_friction_terms(a)
            return known[0]
        f = a.numbers("friction", (1, 3), (1.0,))
        more_terms = len(f) > 1 and any(x != 0 for x in f[1:])
        if more_terms:
            self._warn_friction_terms(a)
        friction = CoulombFriction(f[0], f[0])
        why = friction.invalidity()
        if why:
            a.error("friction", f"invalid friction: {why}", code="mjcf-value-invalid")
        if len(self._frictions) < MEMO_LIMIT:
            self._frictions[text] = (friction, more_terms)
        return friction

    @staticmethod
    def _warn_friction_terms(a: Attrs) -> None:
        a.doc.warning(a.where("friction"), "the torsional and rolling friction of <geom> are "
                                           "not supported and are ignored",
                      code="mjcf-unsupported")

    def _roles(self, a: Attrs, geom: Geom, kind: str, size: tuple) -> None:
        given = not _ROLES.isdisjoint(a.values)  # else every one is at its default
        if given:
            contype = a.integer("contype", 1)
            conaffinity = a.integer("conaffinity", 1)
            condim = a.integer("condim", 3)
            if condim not in (1, 3, 4, 6):
                a.error("condim", f"condim must be 1, 3, 4 or 6; it is {condim}",
                        code="mjcf-value-invalid")
            if contype == 0 and conaffinity == 0:
                geom.collision = False
            elif contype != 1 or conaffinity != 1:
                a.doc.warning(a.el, f"geom '{geom.name}' has contype={contype} and conaffinity="
                                    f"{conaffinity}; contact bitmasks are not supported, so it "
                                    "collides with everything", code="mjcf-unsupported")
            if condim != 3:
                a.doc.warning(a.where("condim"), f"geom '{geom.name}' has condim={condim}; only "
                                                 "condim=3 is supported and is used",
                              code="mjcf-unsupported")
        if geom.collision and kind == "sphere" and not size:
            a.doc.warning(a.el, f"geom '{geom.name}': a zero-radius collision sphere may not "
                                "be supported everywhere", code="mjcf-unsupported")
        if given:
            # Groups above 2 are hidden by MuJoCo's viewer: collision-only geoms.
            geom.group = a.integer("group", 0)
            if geom.group > 2:
                geom.visual = False

    # ------------------------------------------------------------ inertia
    def _mass_properties(self, a: Attrs, geom: Geom, kind: str, size: tuple, mesh) -> None:
        values = a.values
        shell = a.boolean("shellinertia", False) if "shellinertia" in values else False
        if mesh is not None:
            if shell:
                a.error("shellinertia", f"geom '{geom.name}': for a mesh, ask for a shell "
                                        "inertia on the <mesh> asset (inertia='shell')",
                        code="mjcf-conflict")
            volume, com_G, unit_I = self.assets.mesh_properties(mesh, a.el)
        else:
            try:  # the shell formulas raise powers, which overflow with an error
                volume = primitive_volume(kind, size, shell)
            except OverflowError:
                volume = math.inf
            com_G, unit_I = (0.0, 0.0, 0.0), None
        mass = a.scalar("mass", None) if "mass" in values else None
        if mass is not None:
            if mass == 0 or volume <= EPS:
                return
            density = mass / volume
        else:
            density = a.scalar("density", 1000.0) if "density" in values else 1000.0
            if density == 0:
                return
            mass = density * volume
        if mass < 0 or density < 0:
            a.doc.error(a.el, f"geom '{geom.name}' has a negative mass or density",
                        code="mass-negative")
        if unit_I is not None:
            I_G = tuple(density * v for v in unit_I)
        else:
            try:
                ix, iy, iz = primitive_inertia(kind, size, mass, shell)
            except OverflowError:
                ix = iy = iz = math.inf
            I_G = (ix, iy, iz, 0.0, 0.0, 0.0)
        if not all_finite((mass, *I_G)):
            a.doc.error(a.el, f"geom '{geom.name}': its mass {mass:g} or inertia {I_G[:3]} is "
                              "not finite (the sizes, mass or density are too large)",
                        code="number-not-finite")
        if min(I_G[:3]) < 0:
            a.doc.error(a.el, f"geom '{geom.name}' has an invalid inertia", code="inertia-invalid")
        geom.mass = mass
        geom.com = geom.X_BG.apply(com_G) if unit_I is not None else geom.X_BG.p
        R = geom.X_BG.R
        # A primitive's inertia is diagonal with moments >= +0: turning it by
        # the identity would give it back unchanged, bit for bit.
        geom.inertia = I_G if R is IDENTITY3 and unit_I is None else rotate_inertia(I_G, R)
