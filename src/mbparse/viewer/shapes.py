"""Drawing the model's shapes in a viser scene.

Boxes and spheres use viser's own primitives; cylinders, capsules and
ellipsoids are built by trimesh (along +z, as Drake defines them); mesh files
are read by trimesh (OBJ, glTF, STL, DAE, PLY, ...), keeping their own
colours when they have any. A half space is drawn as a large thin slab.
"""
from __future__ import annotations

import os
from functools import lru_cache

import numpy as np

from ..geometry.properties import ILLUSTRATION, PERCEPTION
from ..geometry.shapes import (Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh,
                               Sphere)
from ..spatial import RigidTransform, matrix_to_quaternion

DEFAULT_RGBA = (0.9, 0.9, 0.9, 1.0)  # Drake's default diffuse colour
HALF_SPACE_SIZE = 10.0  # metres drawn of an infinite plane


def pose_args(X: RigidTransform) -> dict:
    """viser's ``wxyz`` and ``position`` for a pose."""
    return {"wxyz": tuple(matrix_to_quaternion(X.R)), "position": tuple(X.p)}


def geometry_rgba(geometry) -> tuple[float, float, float, float] | None:
    """The diffuse colour the model gives a visual, or None when it gives none."""
    for role in (ILLUSTRATION, PERCEPTION):
        props = geometry.properties(role)
        if props is not None:
            rgba = props.get_property("phong", "diffuse")
            if rgba is not None:
                return (rgba.r, rgba.g, rgba.b, rgba.a)
    return None


@lru_cache(maxsize=64)
def load_mesh(filename: str, hull: bool = False):
    """A trimesh object for a mesh file (a Scene is merged into one mesh)."""
    import trimesh

    loaded = trimesh.load(filename, force=None)
    if isinstance(loaded, trimesh.Scene):
        loaded = loaded.to_geometry() if hasattr(loaded, "to_geometry") else loaded.dump(
            concatenate=True)
    if hull:
        loaded = loaded.convex_hull
    return loaded


def add_shape(scene, name: str, shape, X_BG: RigidTransform,
              rgba: tuple[float, float, float, float] | None) -> object | None:
    """Adds ``shape`` under ``name`` at ``X_BG``; returns the handle, or None
    when the shape cannot be drawn (the reason is raised as OSError/ValueError)."""
    import trimesh

    given = rgba is not None
    rgba = rgba or DEFAULT_RGBA
    color = tuple(int(round(255 * c)) for c in rgba[:3])
    opacity = None if rgba[3] >= 1.0 else float(rgba[3])
    pose = pose_args(X_BG)
    common = {"color": color, "opacity": opacity, **pose}
    if isinstance(shape, Box):
        return scene.add_box(name, dimensions=shape.size(), **common)
    if isinstance(shape, Sphere):
        return scene.add_icosphere(name, radius=max(shape.radius, 1e-6), subdivisions=3,
                                   **common)
    if isinstance(shape, HalfSpace):
        X_slab = X_BG @ RigidTransform(p=(0.0, 0.0, -0.005))
        return scene.add_box(name, dimensions=(HALF_SPACE_SIZE, HALF_SPACE_SIZE, 0.01),
                             color=color, opacity=0.5 if opacity is None else opacity,
                             **pose_args(X_slab))
    if isinstance(shape, Cylinder):
        mesh = trimesh.creation.cylinder(radius=shape.radius, height=shape.length, sections=32)
    elif isinstance(shape, Capsule):
        mesh = trimesh.creation.capsule(height=shape.length, radius=shape.radius, count=(16, 16))
    elif isinstance(shape, Ellipsoid):
        mesh = trimesh.creation.icosphere(subdivisions=3)
        mesh.apply_scale((shape.a, shape.b, shape.c))
    elif isinstance(shape, Mesh):
        if not os.path.exists(shape.filename):
            raise OSError(f"mesh file '{shape.filename}' does not exist")
        try:
            mesh = load_mesh(shape.filename, isinstance(shape, Convex))
        except Exception as e:  # trimesh raises many kinds
            raise OSError(f"cannot read '{os.path.basename(shape.filename)}' "
                          f"({type(e).__name__}: {e})") from None
        has_own_colors = getattr(mesh.visual, "kind", None) in ("texture", "vertex", "face")
        if has_own_colors and not given:
            return scene.add_mesh_trimesh(name, mesh, scale=tuple(shape.scale), **pose)
        return scene.add_mesh_simple(name, np.asarray(mesh.vertices), np.asarray(mesh.faces),
                                     scale=tuple(shape.scale), **common)
    else:
        raise ValueError(f"cannot draw a {type(shape).__name__}")
    return scene.add_mesh_simple(name, np.asarray(mesh.vertices), np.asarray(mesh.faces),
                                 **common)
