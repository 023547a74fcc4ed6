"""Drawing the model's shapes in a viser scene.

Boxes and spheres use viser's own primitives; cylinders, capsules and
ellipsoids are built by trimesh (along +z, as Drake defines them). Mesh
files (OBJ, STL, DAE, glTF/GLB, PLY, MuJoCo MSH) are read by the project's
one mesh reader (``geometry.meshes``: units, up axes and hulls as the model
means them); an OBJ, PLY or glTF file the model gives no colour keeps its
own colours and textures (trimesh). A half space is drawn as a large thin slab.
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


# Formats whose own colours (materials, textures, vertex colours) are drawn
# when the model gives the visual no colour; other formats are drawn in the
# model's colour (or the default) from their triangles.
OWN_COLOURS = (".obj", ".ply", ".gltf", ".glb")
# glTF is +y up; Drake (and geometry.meshes) turn +y to +z.
_GLTF_TO_Z_UP = np.array([[1.0, 0, 0, 0], [0, 0, -1.0, 0], [0, 1.0, 0, 0], [0, 0, 0, 1.0]])


@lru_cache(maxsize=64)
def coloured_mesh(filename: str):
    """The file as a trimesh with its own colours, in the frame the model
    means (glTF turned to +z up), or None when it has no colours of its own."""
    import trimesh

    from ..geometry.meshes import beside_resolver

    ext = os.path.splitext(filename)[1].lower()
    if ext not in OWN_COLOURS:
        return None
    try:  # materials and textures wherever they are, but only regular files
        loaded = trimesh.load(filename, force=None,
                              resolver=beside_resolver(filename, anywhere=True))
        if isinstance(loaded, trimesh.Scene):
            loaded = loaded.to_geometry() if hasattr(loaded, "to_geometry") else loaded.dump(
                concatenate=True)
    except Exception:  # the triangles are drawn without colours instead
        return None
    if getattr(loaded.visual, "kind", None) not in ("texture", "vertex", "face"):
        return None
    if ext in (".gltf", ".glb"):
        loaded = loaded.copy()
        loaded.apply_transform(_GLTF_TO_Z_UP)
    return loaded


def mesh_triangles(shape):
    """(vertices, faces) of a Mesh or Convex shape, unscaled for a mesh and
    scaled for a hull (which is computed after scaling, as the model does);
    raises OSError with the reason when the file cannot be read."""
    from ..geometry.meshes import MeshError, read_mesh, shape_triangles
    try:
        if isinstance(shape, Convex):
            mesh = shape_triangles(shape)
        else:
            mesh = read_mesh(shape.filename)
    except MeshError as e:
        raise OSError(str(e)) from None
    return np.asarray(mesh.vertices), np.asarray(mesh.faces)


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
        if not given and not isinstance(shape, Convex):
            coloured = coloured_mesh(shape.filename)
            if coloured is not None:
                return scene.add_mesh_trimesh(name, coloured, scale=tuple(shape.scale), **pose)
        V, F = mesh_triangles(shape)
        scale = (1.0, 1.0, 1.0) if isinstance(shape, Convex) else tuple(shape.scale)
        return scene.add_mesh_simple(name, V, F, scale=scale, **common)
    else:
        raise ValueError(f"cannot draw a {type(shape).__name__}")
    return scene.add_mesh_simple(name, np.asarray(mesh.vertices), np.asarray(mesh.faces),
                                 **common)
