"""``<inertial auto="true">``: a link's mass properties computed from its
collision geometries, as libsdformat does before Drake reads the link.

Each ``<collision>`` is a solid of uniform density: its own ``<density>``,
else the link's ``<inertial><density>``, else 1000 kg/m³ (which libsdformat
reports, and Drake's strict settings turn into an error, unless the link
gives a ``<mass>``). The solids' mass properties (primitives with the usual
closed forms, meshes through their enclosed volume) are summed in the link
frame; with ``<inertial><mass>`` the sum is scaled to that mass. The result
sits at the combined center of mass with axes parallel to the link's.
"""
from __future__ import annotations

import math
import os
from typing import Callable, Sequence

from ...numbers import all_finite
from ...spatial import RigidTransform, Vec3, inertia_from_matrix, inertia_matrix, matmul
from ...spatial import transpose
from . import values
from .diagnostic import SdfDiagnostic, local_name

DEFAULT_DENSITY = 1000.0
# Mass, center of mass in the link frame, inertia about it in the link frame.
Mass = tuple[float, Vec3, tuple[float, ...]]
_ZERO: Mass = (0.0, (0.0, 0.0, 0.0), (0.0,) * 6)


def _child_number(diag: SdfDiagnostic, el, name: str, default: float) -> float:
    child = el.find(name)
    if child is None or not (child.text or "").strip():
        return default
    try:
        return values.parse_double(child.text)
    except ValueError:
        diag.error(child, f"Cannot read <{name}> as a number: '{child.text}'.",
                   code="sdf-value-invalid")


def _child_vector(diag: SdfDiagnostic, el, name: str, default: Vec3) -> Vec3:
    child = el.find(name)
    if child is None or not (child.text or "").strip():
        return default
    try:
        return values.parse_numbers(child.text, 3)  # type: ignore[return-value]
    except ValueError:
        diag.error(child, f"Cannot read <{name}> as 3 numbers: '{child.text}'.",
                   code="sdf-value-invalid")


def add_masses(a: Mass, b: Mass) -> Mass:
    """The two bodies as one (gz-math's sum of inertials: nothing happens
    when the total mass is not positive)."""
    m1, c1, I1 = a
    m2, c2, I2 = b
    m = m1 + m2
    if not m > 0:
        return a
    com = tuple((m1 * c1[i] + m2 * c2[i]) / m for i in range(3))
    I = [I1[i] + I2[i] for i in range(6)]
    for mk, ck in ((m1, c1), (m2, c2)):
        dx, dy, dz = (ck[i] - com[i] for i in range(3))
        I[0] += mk * (dy * dy + dz * dz)
        I[1] += mk * (dz * dz + dx * dx)
        I[2] += mk * (dx * dx + dy * dy)
        I[3] -= mk * dx * dy
        I[4] -= mk * dx * dz
        I[5] -= mk * dy * dz
    return m, com, tuple(I)  # type: ignore[return-value]


def _capsule(density: float, radius: float, length: float) -> Mass | None:
    r2 = radius * radius
    total = _ZERO
    if density > 0 and length > 0 and radius > 0:
        m = density * math.pi * r2 * length
        ixx = m / 12.0 * (3 * r2 + length * length)
        total = (m, (0.0, 0.0, 0.0), (ixx, ixx, m / 2.0 * r2, 0.0, 0.0, 0.0))
    m_h = density * 2.0 / 3.0 * math.pi * r2 * radius
    ixx_h = 83.0 / 320.0 * m_h * r2
    cap = (ixx_h, ixx_h, 2.0 / 5.0 * m_h * r2, 0.0, 0.0, 0.0)
    dz = length / 2.0 + radius * 3.0 / 8.0
    total = add_masses(total, (m_h, (0.0, 0.0, dz), cap))
    total = add_masses(total, (m_h, (0.0, 0.0, -dz), cap))
    return total if total[0] > 0 else None


def primitive(diag: SdfDiagnostic, shape_el, density: float) -> Mass | None:
    """Mass properties of a primitive about its own center of mass, in its
    frame, or None when libsdformat finds them invalid."""
    tag = shape_el.tag
    if tag == "box":
        x, y, z = _child_vector(diag, shape_el, "size", (1.0, 1.0, 1.0))
        m = density * (x * y * z)
        if m <= 0 or min(x, y, z) <= 0:
            return None
        return m, (0.0, 0.0, 0.0), (m / 12.0 * (y * y + z * z), m / 12.0 * (z * z + x * x),
                                    m / 12.0 * (x * x + y * y), 0.0, 0.0, 0.0)
    if tag == "sphere":
        r = _child_number(diag, shape_el, "radius", 1.0)
        if density <= 0 or r <= 0:
            return None
        m = density * (4.0 / 3.0) * math.pi * r * r * r
        i = 0.4 * m * r * r
        return m, (0.0, 0.0, 0.0), (i, i, i, 0.0, 0.0, 0.0)
    if tag in ("cylinder", "cone"):
        r = _child_number(diag, shape_el, "radius", 1.0)
        length = _child_number(diag, shape_el, "length", 1.0)
        if density <= 0 or r <= 0 or length <= 0:
            return None
        r2 = r * r
        if tag == "cylinder":
            m = density * math.pi * r2 * length
            ixx = m / 12.0 * (3 * r2 + length * length)
            return m, (0.0, 0.0, 0.0), (ixx, ixx, m / 2.0 * r2, 0.0, 0.0, 0.0)
        m = density * math.pi * r2 * length / 3.0
        ixx = 3.0 * m * (4.0 * r2 + length * length) / 80.0
        return m, (0.0, 0.0, -0.25 * length), (ixx, ixx, 3.0 * m * r2 / 10.0, 0.0, 0.0, 0.0)
    if tag == "capsule":
        return _capsule(density, _child_number(diag, shape_el, "radius", 0.5),
                        _child_number(diag, shape_el, "length", 1.0))
    if tag == "ellipsoid":
        a, b, c = _child_vector(diag, shape_el, "radii", (1.0, 1.0, 1.0))
        if a <= 0 or b <= 0 or c <= 0:
            return None
        m = density * (4.0 / 3.0) * math.pi * a * b * c
        return m, (0.0, 0.0, 0.0), (m / 5.0 * (b * b + c * c), m / 5.0 * (a * a + c * c),
                                    m / 5.0 * (a * a + b * b), 0.0, 0.0, 0.0)
    raise KeyError(tag)


def mesh(diag: SdfDiagnostic, shape_el, density: float,
         resolve: Callable[[object, str], str]) -> Mass:
    """Mass properties of a mesh's enclosed volume (Drake's calculator,
    which libsdformat calls for meshes)."""
    from ...geometry.mesh_io import MeshVolumeError
    from ...geometry.meshes import MeshReadError, read_mesh
    if not (math.isfinite(density) and density >= 0.0):
        diag.error(shape_el, f"The <mesh> has a density of {density:g} kg/m³; the automatic "
                             "inertia needs a finite, non-negative density.",
                   code="value-out-of-range")
    uri_el = shape_el.find("uri")
    uri = (uri_el.text or "").strip() if uri_el is not None else ""
    if not uri:
        return _ZERO
    path = resolve(uri_el, uri)
    scale = _child_vector(diag, shape_el, "scale", (1.0, 1.0, 1.0))
    if os.path.splitext(path)[1].lower() != ".obj":
        diag.drake_refuses(shape_el, f"Drake computes the automatic inertia of .obj meshes "
                                     f"only, not of '{path}'.",
                           "mbparse reads the mesh and computes it", code="sdf-not-supported")
    try:
        return read_mesh(path).scaled(scale).mass_properties(density)
    except MeshReadError as e:
        diag.error(shape_el, f"Cannot read the mesh '{path}' for the automatic inertia: {e}",
                   code="mesh-unreadable")
    except MeshVolumeError as e:
        diag.error(shape_el, f"Cannot compute the automatic inertia of the mesh '{path}': {e} "
                             "(Drake would fall back to its convex hull, which mbparse does "
                             "not compute).", code="mesh-unreadable")


def in_link(X_LG: RigidTransform, local: Mass) -> Mass:
    """Mass properties expressed in the geometry frame G, moved to the link."""
    m, com, I = local
    R = X_LG.R
    I_L = inertia_from_matrix(matmul(matmul(R, inertia_matrix(I)), transpose(R)))
    return m, X_LG.apply(com), I_L


def auto_inertial(diag: SdfDiagnostic, link_el, inertial_el,
                  collision_pose: Callable[[object], RigidTransform],
                  resolve: Callable[[object, str], str]
                  ) -> tuple[RigidTransform, float, Sequence[float]]:
    """The pose of the inertial frame in the link, the mass and the inertia
    (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) an automatic ``<inertial>`` stands for."""
    name = link_el.get("name")
    for tag in ("pose", "inertia"):
        child = inertial_el.find(tag)
        if child is not None:
            diag.error(child, f"Link '{name}' has <inertial auto=\"true\"> and also gives "
                              f"<{tag}>, which the computed values would overwrite.",
                       code="sdf-conflict")
    collisions = link_el.findall("collision")
    if not collisions:
        diag.error(inertial_el, f"Link '{name}' has <inertial auto=\"true\"> but no <collision> "
                                "to compute it from.", code="sdf-element-missing")
    mass_el = inertial_el.find("mass")
    link_density_el = inertial_el.find("density")
    link_density = (_child_number(diag, inertial_el, "density", DEFAULT_DENSITY)
                    if link_density_el is not None else None)
    total = _ZERO
    for collision in collisions:
        if collision.find("density") is not None:
            density = _child_number(diag, collision, "density", DEFAULT_DENSITY)
        elif link_density is not None:
            density = link_density
        else:
            density = DEFAULT_DENSITY
            if mass_el is None:
                diag.error(collision, f"Collision '{collision.get('name')}' has no <density> "
                                      "(nor does the link's <inertial>, nor a <mass>): the "
                                      "automatic inertia would assume 1000 kg/m³, which Drake "
                                      "refuses.", code="sdf-element-missing")
        geometry = collision.find("geometry")
        shapes = [c for c in (geometry if geometry is not None else [])
                  if isinstance(c.tag, str)]
        shape_el = shapes[0] if shapes else None
        kind = local_name(shape_el) if shape_el is not None else "empty"
        if kind == "mesh":
            local = mesh(diag, shape_el, density, resolve)
        elif kind in ("box", "sphere", "cylinder", "cone", "capsule", "ellipsoid"):
            local = primitive(diag, shape_el, density)
        else:
            diag.error(shape_el if shape_el is not None else collision,
                       f"The automatic inertia cannot use a <{kind}> geometry (collision "
                       f"'{collision.get('name')}').", code="sdf-not-supported")
        if local is not None and not all_finite((local[0], *local[1], *local[2])):
            # overflowed (a density or a size past a double): libsdformat finds
            # such an inertia invalid and leaves it out
            local = None
        if local is None:
            diag.warning(collision, f"The inertia computed for collision "
                                    f"'{collision.get('name')}' is not valid; it adds nothing "
                                    "to the link's automatic inertia.", code="inertia-invalid")
            continue
        total = add_masses(total, in_link(collision_pose(collision), local))
    m_total, com, I = total
    if mass_el is not None:
        mass = _child_number(diag, inertial_el, "mass", 1.0)
        unit = [v / m_total if m_total != 0 else math.nan for v in I]
        I = tuple(mass * v for v in unit)
        m_total = mass
    return RigidTransform(p=com), m_total, I
