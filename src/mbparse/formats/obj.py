"""A Wavefront OBJ file as a model: one free body shaped like the mesh.

Following Drake's mesh parser: the model (and its one body) is named by the
model name the caller gives, else by the last object name (``o NAME``) in
the file, else by the file's base name. The body's mass properties are those
of the solid the mesh encloses at the density of water (1000 kg/m³), taken
about the body origin, which is the mesh's own origin. The mesh serves as
the body's collision geometry ("collision") and its visual geometry
("visual", for illustration and perception). The reference asks for one
object per file; like Drake, a file with several is still read, all of its
objects forming the one mesh (with a warning). A mesh that encloses no
positive volume (an open mesh, or one with faces wound inward) is an error;
an open mesh that still encloses a positive volume is accepted, as Drake
accepts it. OBJ text cannot be parsed from a string:
the geometry has to name a file.
"""
from __future__ import annotations

import os
import re

from ..geometry import GeometryInstance, GeometryProperties, Mesh, PROXIMITY
from ..geometry.mesh_io import MeshVolumeError, ObjError, read_obj, mass_properties
from ..plant import ModelError
from ..spatial import RigidTransform, SpatialInertia
from ..files import FileTooLargeError
from ..limits import current_limits, raise_hint
from ..workspace import DataSource, Workspace

WATER_DENSITY = 1000.0  # kg/m³


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    """Adds the one model an OBJ file holds; returns its instance index."""
    index = add_model(source, "", parent_model_name, workspace)
    return [] if index is None else [index]


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    """Adds the OBJ file's body under ``model_name`` (or the name the file
    gives, see the module docstring); returns the new instance's index."""
    diagnostic = workspace.diagnostic
    if not source.is_file():
        diagnostic.error("OBJ data cannot be parsed from a string: a model made from a mesh "
                         "needs the mesh as a file; write the OBJ to a file and add that",
                         source.name(), code="obj-invalid")
    filename = os.path.abspath(source.filename)  # type: ignore[arg-type]

    def fail(message: str, line: int = 1, code: str = "obj-invalid") -> None:
        # A problem of the file as a whole (its volume, its name) is given
        # line 1, so that every OBJ error has a line to go to.
        diagnostic.error(message, source.name(), line, code=code)

    try:  # (what is not a regular file is said once the read fails: no stat before it)
        mesh = read_obj(filename, most=current_limits().max_file_bytes or None)
    except FileTooLargeError as e:
        fail(f"{e.strerror}; {raise_hint('max_file_bytes')}", code="size-limit")
    except OSError as e:
        if not os.path.isfile(filename):
            fail(f"cannot open the OBJ file '{filename}'")
        fail(f"cannot read the OBJ file '{filename}': {e.strerror}")
    except ObjError as e:
        fail(f"this OBJ file cannot be read as a mesh: {e}", e.line or 1,
             code=e.code or "obj-invalid")
    for warning in mesh.warnings:
        m = re.match(r"line (\d+): ", warning)
        diagnostic.warning(f"while reading the OBJ mesh: {warning[m.end():] if m else warning}",
                           source.name(), int(m.group(1)) if m else 1, code="obj-warning")

    if len(mesh.object_names) > 1:
        diagnostic.warning(
            f"the OBJ file holds {len(mesh.object_names)} objects "
            f"({', '.join(repr(n) for n in mesh.object_names)}) where a model wants one; "
            f"they are taken together as one body, named after the last", source.name(),
            code="obj-several-objects")
    name = model_name or mesh.object_name or _stem(filename)
    plant = workspace.plant
    instance_name = workspace.make_model_name(name, parent_model_name)
    try:
        instance = plant.add_model_instance(instance_name)
    except ModelError as e:
        fail(str(e))
    try:
        mass, com, I_cm = mass_properties(mesh.vertices, mesh.faces, WATER_DENSITY)
    except MeshVolumeError as e:
        fail(f"the OBJ mesh cannot give the body its mass properties: {e}")
    try:
        body = plant.add_rigid_body(name, instance, SpatialInertia(mass, com, I_cm))
    except ModelError as e:
        fail(f"the mass properties of the enclosed volume are not physical: {e}")
    if plant.geometry_source_is_registered():
        shape = Mesh(filename)
        collision = GeometryInstance(RigidTransform(), shape, "collision",
                                     source=(source.name(), None))
        geometry = plant.register_collision_geometry(body, collision, GeometryProperties())
        # Drake hands the scene graph empty proximity properties here (no
        # friction), so the plant's default friction is taken back out.
        geometry.instance.properties[PROXIMITY] = GeometryProperties()
        visual = GeometryInstance(RigidTransform(), shape, "visual",
                                  source=(source.name(), None))
        plant.register_visual_geometry(body, visual)
    return instance


def _stem(filename: str) -> str:
    """The file's name without its folder and its last extension."""
    return os.path.splitext(os.path.basename(filename))[0]
