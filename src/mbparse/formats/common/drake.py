"""Meaning shared by the URDF and SDFormat readers (Drake's ``detail_common``):
Drake's extension tags (proximity properties; bushings, spring-dampers, ball
and distance constraints) and the rules both formats use for inertia and
collision meshes. The readers find the values; this module decides what they
mean, so the two formats agree."""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from ...files import read_regular_file
from ...geometry import Convex, CoulombFriction, GeometryProperties, HydroelasticType, Mesh
from ...plant import LinearBushingRollPitchYaw, LinearSpringDamper
from ...spatial import (IDENTITY3, RigidTransform, SpatialInertia, inertia_problem,
                        reexpress_inertia)

if TYPE_CHECKING:  # pragma: no cover
    from ...plant import Frame, MultibodyPlant, RigidBody
    from .xml import XmlDiagnostic

ReadDouble = Callable[[str], "float | None"]
Report = Callable[[str], None]

PROXIMITY_TAGS = ("drake:compliant_hydroelastic", "drake:rigid_hydroelastic",
                  "drake:hydroelastic_modulus", "drake:mesh_resolution_hint",
                  "drake:hunt_crossley_dissipation", "drake:point_contact_stiffness",
                  "drake:mu_dynamic", "drake:mu_static", "drake:relaxation_time",
                  "drake:hydroelastic_margin")


def proximity_properties(read_double: ReadDouble, is_rigid: bool, is_compliant: bool,
                         warning: Report, error: Report) -> GeometryProperties:
    """Proximity properties from ``drake:proximity_properties`` values.

    ``read_double(tag)`` returns the tag's value or None when absent.
    """
    props = GeometryProperties()
    if is_rigid:
        props.add_property("hydroelastic", "compliance_type", HydroelasticType.RIGID)
    elif is_compliant:
        props.add_property("hydroelastic", "compliance_type", HydroelasticType.COMPLIANT)
    hint = read_double("drake:mesh_resolution_hint")
    if hint is not None:
        props.add_property("hydroelastic", "resolution_hint", hint)
    modulus = read_double("drake:hydroelastic_modulus")
    if modulus is not None:
        if is_rigid:
            warning(f"a rigid hydroelastic geometry has no modulus; drake:hydroelastic_modulus "
                    f"({modulus:g}) is ignored")
        else:
            props.add_property("hydroelastic", "hydroelastic_modulus", modulus)
    dissipation = read_double("drake:hunt_crossley_dissipation")
    stiffness = read_double("drake:point_contact_stiffness")
    mu_dynamic = read_double("drake:mu_dynamic")
    mu_static = read_double("drake:mu_static")
    if dissipation is not None:
        if dissipation < 0:
            error(f"drake:hunt_crossley_dissipation must not be negative; it is {dissipation:g}")
        props.add_property("material", "hunt_crossley_dissipation", dissipation)
    if stiffness is not None:
        if not (stiffness > 0):
            error(f"drake:point_contact_stiffness must be positive; it is {stiffness:g}")
        props.add_property("material", "point_contact_stiffness", stiffness)
    friction = None
    if mu_dynamic is not None and mu_static is not None:
        friction = CoulombFriction(mu_static, mu_dynamic)
    elif mu_dynamic is not None:
        friction = CoulombFriction(mu_dynamic, mu_dynamic)
    elif mu_static is not None:
        friction = CoulombFriction(mu_static, mu_static)
    if friction is not None:
        why = friction.invalidity()
        if why:
            error(f"Invalid friction: {why}")
        props.add_property("material", "coulomb_friction", friction)
    relaxation = read_double("drake:relaxation_time")
    if relaxation is not None:
        if relaxation < 0:
            error(f"drake:relaxation_time must not be negative; it is {relaxation:g}")
        props.add_property("material", "relaxation_time", relaxation)
    margin = read_double("drake:hydroelastic_margin")
    if margin is not None:
        if margin < 0:
            error(f"drake:hydroelastic_margin must not be negative; it is {margin:g}")
        props.add_property("hydroelastic", "margin", margin)
    return props


def spatial_inertia(X_BBi: RigidTransform, mass: float, inertia: Sequence[float],
                    warning: Callable[[str, str], None]) -> SpatialInertia:
    """The spatial inertia of an ``<inertial>``: ``mass`` at the origin of
    frame Bi, whose pose in the body is X_BBi, with ``inertia`` (Ixx, Iyy,
    Izz, Ixy, Ixz, Iyz) about that point in Bi.

    An inertia that cannot be physical is replaced, with a warning, by a
    solid sphere of water of the same mass (or 1 kg) at the same place.
    ``warning(message, code)`` reports it.
    """
    def plausible() -> SpatialInertia:
        plausible_mass = mass if (math.isfinite(mass) and mass > 0) else 1.0
        radius = (3.0 / (4.0 * math.pi) * plausible_mass / 1000.0) ** (1.0 / 3.0)
        return SpatialInertia.solid_sphere_with_density(1000.0, radius, X_BBi.p)

    problem = inertia_problem(inertia)
    if problem is not None:
        code, why = problem
        warning(f"While parsing inertia matrix: the rotational inertia {list(inertia)} did not "
                f"pass the test CouldBePhysicallyValid(): {why}. A plausible inertia (a solid "
                "sphere of water) is used instead.", code)
        return plausible()
    if mass == 0.0 and not any(inertia):
        return SpatialInertia(0.0, (0.0, 0.0, 0.0), (0.0,) * 6)
    if not (mass > 0):
        warning(f"While re-expressing as central inertia: the mass {mass:g} is not positive. "
                "A plausible inertia (a solid sphere of water) is used instead.",
                "mass-negative" if mass < 0 else "number-nan" if math.isnan(mass)
                else "mass-zero-with-inertia")
        return plausible()
    R = X_BBi.R
    if R is IDENTITY3:  # the inertia just found physical is the central inertia
        return SpatialInertia.with_physical_inertia(mass, X_BBi.p, inertia)
    return SpatialInertia(mass, X_BBi.p, reexpress_inertia(inertia, R))


CONVEX_HULL_EXTENSIONS = (".obj", ".vtk", ".gltf")
Refuse = Callable[[str, str], None]
KEPT = ("mbparse keeps the mesh; its convex hull is computed from the file when a result "
        "needs it")
LEFT_OUT = "mbparse leaves this geometry out and loads the rest of the model"


def mesh_shape(path: str | None, scale, declare_convex: bool, for_collision: bool,
               refuse: Refuse) -> Mesh | None:
    """The Mesh (or, with ``drake:declare_convex``, Convex) shape of a mesh
    file, or None when the geometry is left out.

    ``path`` is None when the file could not be found (already reported).
    A collision mesh whose convex hull Drake could not compute goes to
    ``refuse(message, what_mbparse_does)``: an error in Drake's mode; in the
    default mode the mesh is kept (a file Drake cannot make a hull of) or
    left out (a glTF whose buffers are missing, which nothing can read).
    May raise ShapeError for an invalid scale."""
    if path is None:
        return None
    shape = (Convex if declare_convex else Mesh)(path, tuple(scale))
    if for_collision:
        problem = collision_mesh_problem(shape)
        if problem:
            readable = shape.extension() != ".gltf"  # a glTF's missing buffer: unreadable
            refuse(problem, KEPT if readable else LEFT_OUT)
            if not readable:
                return None
    return shape


def collision_mesh_problem(shape: Mesh) -> str | None:
    """Why Drake could not compute the convex hull that a mesh used for
    contact needs (its extension, or a glTF's missing buffer), or None."""
    ext = shape.extension()
    if ext not in CONVEX_HULL_EXTENSIONS:
        return (f"mesh '{shape.filename}' is used for contact, which needs its convex hull, "
                f"and Drake computes hulls only for .obj, .vtk and .gltf files, not '{ext}'")
    if ext == ".gltf":
        return gltf_buffer_problem(shape.filename)
    return None


def gltf_buffer_problem(filename: str) -> str | None:
    """Why a glTF file's triangles cannot be had (it cannot be read, or a
    buffer file it names is missing), or None.

    Drake reads the file only when it computes the hull; only the presence
    of the buffer files is checked here, which is what decides Drake's
    success for the files it supports.
    """
    import json  # here: only a glTF mesh needs it (start-up time)

    try:
        doc = json.loads(read_regular_file(filename))
    except (OSError, ValueError, RecursionError) as e:
        return f"glTF '{filename}' could not be read: {e}"
    folder = os.path.dirname(filename)
    buffers = doc.get("buffers", []) if isinstance(doc, dict) else []
    if not isinstance(buffers, list):
        return (f"glTF '{filename}' is malformed: its 'buffers' is not a list; its convex hull "
                "(needed for contact) cannot be computed")
    for buffer in buffers:
        uri = buffer.get("uri") if isinstance(buffer, dict) else None
        if uri is not None and not isinstance(uri, str):
            return (f"glTF '{filename}' is malformed: a buffer's 'uri' is not a string; its "
                    "convex hull (needed for contact) cannot be computed")
        if uri and not uri.startswith("data:") and not os.path.exists(os.path.join(folder, uri)):
            return (f"glTF '{filename}' refers to buffer '{uri}', which does not exist; "
                    "its convex hull (needed for contact) cannot be computed")
    return None


# ---------------------------------------------------------------- two-body elements
class DrakeElementSource(Protocol):
    """How a format finds the parts of a ``drake:`` bushing, spring-damper or
    constraint element: each format supplies these, the meaning is shared."""

    plant: "MultibodyPlant"
    diag: "XmlDiagnostic"

    def body(self, el, tag: str) -> "RigidBody":
        """The body named by child ``tag`` of ``el`` (an error when unknown)."""

    def frame(self, el, tag: str) -> "Frame":
        """The frame named by child ``tag`` of ``el`` (an error when unknown)."""

    def vector(self, el, tag: str) -> tuple[float, float, float]:
        """The three numbers of child ``tag`` of ``el``."""

    def scalar(self, el, tag: str) -> tuple[float, object]:
        """The number of child ``tag`` of ``el``, and the child (for locating)."""


def _checked_scalar(src: DrakeElementSource, el, tag: str, positive: bool) -> float:
    """A value that must be positive (``positive``) or at least not negative."""
    value, node = src.scalar(el, tag)
    if positive and not value > 0:
        src.diag.error(node, f"<{tag}> must be positive; it is {value:g}",
                       code="value-out-of-range")
    if not value >= 0:
        src.diag.error(node, f"<{tag}> must not be negative; it is {value:g}",
                       code="value-out-of-range")
    return value


def read_linear_bushing_rpy(src: DrakeElementSource, el) -> None:
    """``<drake:linear_bushing_rpy>``: a bushing between frames A and C."""
    frame_a = src.frame(el, "drake:bushing_frameA")
    frame_c = src.frame(el, "drake:bushing_frameC")
    vectors = [src.vector(el, f"drake:bushing_{k}") for k in
               ("torque_stiffness", "torque_damping", "force_stiffness", "force_damping")]
    with src.diag.located(el):
        src.plant.add_force_element(LinearBushingRollPitchYaw(frame_a, frame_c, *vectors))


def _two_points(src: DrakeElementSource, el, prefix: str):
    """Body A, point P on it, body B, point Q on it, of a two-body element."""
    body_a = src.body(el, prefix + "body_A")
    body_b = src.body(el, prefix + "body_B")
    return body_a, src.vector(el, prefix + "p_AP"), body_b, src.vector(el, prefix + "p_BQ")


def read_linear_spring_damper(src: DrakeElementSource, el) -> None:
    """``<drake:linear_spring_damper>`` between a point of body A and one of body B."""
    prefix = "drake:linear_spring_damper_"
    ends = _two_points(src, el, prefix)
    numbers = [_checked_scalar(src, el, prefix + "free_length", positive=True),
               _checked_scalar(src, el, prefix + "stiffness", positive=False),
               _checked_scalar(src, el, prefix + "damping", positive=False)]
    with src.diag.located(el):
        src.plant.add_force_element(LinearSpringDamper(*ends, *numbers))


def read_ball_constraint(src: DrakeElementSource, el) -> None:
    """``<drake:ball_constraint>``: point P of body A stays on point Q of body B."""
    ends = _two_points(src, el, "drake:ball_constraint_")
    with src.diag.located(el):
        src.plant.add_ball_constraint(*ends)


def read_distance_constraint(src: DrakeElementSource, el) -> None:
    """``<drake:distance_constraint>``: P (on A) and Q (on B) stay a distance apart."""
    prefix = "drake:distance_constraint_"
    ends = _two_points(src, el, prefix)
    numbers = [_checked_scalar(src, el, prefix + "distance", positive=True),
               _checked_scalar(src, el, prefix + "stiffness", positive=True),
               _checked_scalar(src, el, prefix + "damping", positive=False)]
    with src.diag.located(el):
        src.plant.add_distance_constraint(*ends, *numbers)
