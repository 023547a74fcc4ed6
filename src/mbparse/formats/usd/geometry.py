"""USD geometry prims as shapes at a pose in their body.

``Cube`` (a box of ``size`` times the prim's scale), ``Sphere`` (an
ellipsoid when scaled unevenly), ``Cylinder`` and ``Capsule`` (turned so
their ``axis`` is the shape's z), ``Plane`` (a half space, for collisions)
and ``Mesh``. A mesh's points and faces are in the USD file, while the
plant's mesh shapes name files: each mesh is written once as an OBJ file in
mbparse's cache folder (named by a hash of its data), so that hulls, inertias,
the viewer and the converters read it as any other mesh.
"""
from __future__ import annotations

import hashlib
import os
import tempfile

import numpy as np

from ...geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Rgba, Sphere
from ...spatial import IDENTITY3, RigidTransform, matmul

# The rotation that puts the z axis along x or y (for a cylinder's axis).
Z_TO_AXIS = {
    "X": ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (-1.0, 0.0, 0.0)),
    "Y": ((1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),
    "Z": IDENTITY3,
}
SHAPE_TYPES = ("Cube", "Sphere", "Cylinder", "Capsule", "Plane", "Mesh")


class ShapeProblem(ValueError):
    """A geometry prim that cannot be a shape of the plant (said in words);
    ``code``: a kind the plant has no shape for, or data that is wrong."""

    code = "usd-unsupported"


class ShapeDataProblem(ShapeProblem):
    """A geometry prim whose data no shape can have (a face naming a point
    the mesh lacks, a point that is not finite)."""

    code = "usd-value-invalid"


def _z_axis_scale(scale, axis: str) -> tuple[float, float]:
    """(radial scale, axial scale) of a shape along ``axis``; a ShapeProblem
    when the two radial scales differ."""
    k = "XYZ".index(axis)
    radial = [abs(scale[i]) for i in range(3) if i != k]
    if abs(radial[0] - radial[1]) > 1e-6 * max(radial):
        raise ShapeDataProblem(f"it is scaled unevenly across its {axis} axis ({scale}); the "
                           "plant's round shapes are round")
    return radial[0], abs(scale[k])


def shape_of(prim, scale, meters: float):
    """(shape, rotation to apply after the prim's own frame) for a geometry
    prim scaled by ``scale`` in a stage of ``meters`` per unit."""
    from pxr import UsdGeom
    kind = prim.GetTypeName()
    sx, sy, sz = (abs(v) * meters for v in scale)
    if kind == "Cube":
        size = float(UsdGeom.Cube(prim).GetSizeAttr().Get())
        return Box(size * sx, size * sy, size * sz), IDENTITY3
    if kind == "Sphere":
        r = float(UsdGeom.Sphere(prim).GetRadiusAttr().Get())
        if max(sx, sy, sz) - min(sx, sy, sz) <= 1e-9 * max(sx, sy, sz):
            return Sphere(r * sx), IDENTITY3
        return Ellipsoid(r * sx, r * sy, r * sz), IDENTITY3
    if kind in ("Cylinder", "Capsule"):
        g = UsdGeom.Cylinder(prim) if kind == "Cylinder" else UsdGeom.Capsule(prim)
        axis = str(g.GetAxisAttr().Get())
        radial, axial = _z_axis_scale(scale, axis)
        r = float(g.GetRadiusAttr().Get()) * radial * meters
        h = float(g.GetHeightAttr().Get()) * axial * meters
        cls = Cylinder if kind == "Cylinder" else Capsule
        return cls(r, h), Z_TO_AXIS[axis]
    if kind == "Plane":
        axis = str(UsdGeom.Plane(prim).GetAxisAttr().Get())
        return HalfSpace(), Z_TO_AXIS[axis]
    raise ShapeProblem(f"a {kind} prim has no shape in the plant")


def mesh_shape(prim, scale, meters: float, convex: bool) -> Mesh:
    """A Mesh (or Convex) shape of a UsdGeom.Mesh prim: its triangles
    written to a cached OBJ file, scaled by ``scale`` in metres."""
    from pxr import UsdGeom
    mesh = UsdGeom.Mesh(prim)
    points = mesh.GetPointsAttr().Get()
    counts = mesh.GetFaceVertexCountsAttr().Get()
    indices = mesh.GetFaceVertexIndicesAttr().Get()
    if not points or not counts or not indices:
        raise ShapeDataProblem("the mesh has no points or no faces")
    V = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    C = np.asarray(counts, dtype=np.int64)
    I = np.asarray(indices, dtype=np.int64)
    if C.sum() != len(I) or (C < 3).any():
        raise ShapeDataProblem("its faceVertexCounts do not add up to its faceVertexIndices, or "
                           "a face has fewer than three corners")
    if I.min() < 0 or I.max() >= len(V):
        raise ShapeDataProblem("a face names a point the mesh does not have")
    if not np.isfinite(V).all():
        raise ShapeDataProblem("a point of the mesh is not finite")
    F = _fan_triangles(C, I)
    if str(mesh.GetOrientationAttr().Get()) == "leftHanded":
        F = F[:, [0, 2, 1]]
    path = _cached_obj(V, F, prim.GetPath().pathString)
    s = tuple(float(v) * meters for v in scale)
    return (Convex if convex else Mesh)(path, s)


def _fan_triangles(counts: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Each polygon as the fan of triangles from its first corner (USD's
    own triangulation of a mesh's faces)."""
    if (counts == 3).all():
        return indices.reshape(-1, 3)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    tris = []
    for start, n in zip(starts.tolist(), counts.tolist()):
        for k in range(1, n - 1):
            tris.append((indices[start], indices[start + k], indices[start + k + 1]))
    return np.asarray(tris, dtype=np.int64)


def cache_folder() -> str:
    """Where the OBJ copies of USD meshes are kept: ``$MBPARSE_CACHE``,
    else ``$XDG_CACHE_HOME/mbparse`` (``~/.cache/mbparse``), else the
    temporary folder; ``usd_meshes`` inside it."""
    root = os.environ.get("MBPARSE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "mbparse")
    folder = os.path.join(root, "usd_meshes")
    try:
        os.makedirs(folder, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    folder = os.path.join(tempfile.gettempdir(), "mbparse_usd_meshes")
    os.makedirs(folder, exist_ok=True)
    return folder


def _cached_obj(V: np.ndarray, F: np.ndarray, prim_path: str) -> str:
    digest = hashlib.sha1(V.tobytes() + b"|" + F.astype(np.int64).tobytes()).hexdigest()[:20]
    path = os.path.join(cache_folder(), f"{digest}.obj")
    if not os.path.isfile(path):
        from ...convert.writers.meshes import write_obj
        tmp = f"{path}.{os.getpid()}.tmp"
        write_obj(tmp, V, F, f"the mesh of USD prim {prim_path}")
        os.replace(tmp, path)
    return path


def colour_of(prim) -> Rgba | None:
    """A visual's colour: its first ``displayColor`` (and ``displayOpacity``),
    else the diffuse colour of the UsdPreviewSurface of its bound material."""
    from pxr import UsdGeom, UsdShade
    gprim = UsdGeom.Gprim(prim)
    colours = gprim.GetDisplayColorPrimvar().ComputeFlattened() if gprim else None
    if colours:
        c = colours[0]
        opacity = gprim.GetDisplayOpacityPrimvar().ComputeFlattened()
        a = float(opacity[0]) if opacity else 1.0
        return Rgba(float(c[0]), float(c[1]), float(c[2]), a)
    material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial()
    if not material:
        return None
    shader = material.ComputeSurfaceSource()[0]
    if not shader:
        return None
    diffuse = shader.GetInput("diffuseColor")
    if not diffuse:
        return None
    value = diffuse.Get()
    source = diffuse.GetConnectedSources()[0] if diffuse.HasConnectedSource() else None
    if value is None or source:
        return None  # a texture: no one colour
    opacity = shader.GetInput("opacity")
    a = opacity.Get() if opacity else None
    return Rgba(float(value[0]), float(value[1]), float(value[2]),
                float(a) if a is not None else 1.0)


def material_name(prim) -> str | None:
    """The name of the (display) material bound to a prim, if any."""
    from pxr import UsdShade
    material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial()
    if not material:
        return None
    prim = material.GetPrim()
    return prim.GetDisplayName() or prim.GetName()


def posed(X: RigidTransform, R_after) -> RigidTransform:
    """The pose ``X`` turned by ``R_after`` in its own frame."""
    return X if R_after is IDENTITY3 else RigidTransform(matmul(X.R, R_after), X.p)
