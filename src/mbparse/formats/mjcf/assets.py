"""``<asset>``: meshes (OBJ or STL files, found through ``meshdir``) with
their MuJoCo mass properties, and materials (for colors)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from ...geometry import Mesh
from .attrs import Attrs
from .compiler import Compiler
from .defaults import DefaultClasses
from .document import Document, tag
from .inertia import MeshInertiaError, mesh_properties

MESH_INERTIA_MODES = ("legacy", "exact", "convex", "shell")
MESH_FILE_TYPES = (".obj", ".stl")


@dataclass
class MeshAsset:
    """A mesh file, its scale and how MuJoCo computes its inertia."""

    el: object
    name: str
    path: str
    scale: tuple[float, float, float]
    inertia_mode: str
    _props: tuple | None = field(default=None, repr=False)

    def shape(self) -> Mesh:
        return Mesh(self.path, self.scale)


class Assets:
    """The meshes and materials of a model, by name."""

    def __init__(self, doc: Document, defaults: DefaultClasses, compiler: Compiler):
        self.doc = doc
        self.defaults = defaults
        self.compiler = compiler
        self.meshes: dict[str, MeshAsset] = {}
        self.materials: dict[str, Attrs] = {}
        self.ignored_meshes: set[str] = set()  # named meshes that were skipped with a warning

    def read(self, asset_el) -> None:
        doc = self.doc
        for child in doc.kids(asset_el):
            t = tag(child)
            if t == "mesh":
                self._mesh(child)
            elif t == "material":
                a = self.defaults.attrs(child)
                name = a.text("name")
                if name is None:
                    doc.error(child, "a <material> needs a 'name' attribute")
                self.materials[name] = a
            elif t in ("texture", "hfield", "skin"):
                doc.warning(child, f"<{t}> assets are not supported and are ignored")
            else:
                doc.warning(child, f"<{t}> is not a supported asset; it is ignored")

    def _mesh(self, el) -> None:
        doc = self.doc
        a = self.defaults.attrs(el)
        for name in ("smoothnormal", "maxhullvert", "vertex", "normal", "face", "texcoord",
                     "refpos", "refquat", "builtin", "params"):
            if a.has(name):
                doc.warning(a.where(name), f"the attribute '{name}' of <mesh> is not supported "
                                           "and is ignored")
        for child in doc.kids(el):
            doc.warning(child, f"<{tag(child)}> inside <mesh> is not supported and is ignored")
        file = a.text("file")
        if file is None:
            doc.warning(el, f"the mesh '{a.text('name', '')}' has no 'file' attribute and is "
                            "ignored")
            if a.has("name"):
                self.ignored_meshes.add(a.text("name"))
            return
        name = a.text("name") or os.path.splitext(os.path.basename(file))[0]
        path = self.resolve(file)
        if not os.path.isfile(path):
            doc.error(el, f"the mesh file '{file}' of mesh '{name}' was not found (looked for "
                          f"'{path}')")
        if os.path.splitext(path)[1].lower() not in MESH_FILE_TYPES:
            doc.error(el, f"the mesh file '{file}' of mesh '{name}' is neither an OBJ nor an "
                          "STL file; only those meshes can be read")
        scale = a.numbers("scale", 3, (1.0, 1.0, 1.0))
        mode = a.choice("inertia", MESH_INERTIA_MODES, "legacy")
        if name in self.meshes:
            doc.error(el, f"the mesh name '{name}' is used twice")
        self.meshes[name] = MeshAsset(el, name, path, scale, mode)

    def resolve(self, file: str) -> str:
        """The path of a mesh file: absolute as given, else under ``meshdir``
        (itself relative to the main file's folder unless absolute)."""
        if os.path.isabs(file):
            return os.path.normpath(file)
        meshdir = self.compiler.meshdir
        if meshdir:
            base = meshdir if os.path.isabs(meshdir) else os.path.join(self.doc.base_dir, meshdir)
        else:
            base = self.doc.base_dir
        return os.path.normpath(os.path.join(base, file))

    def mesh_properties(self, mesh: MeshAsset, geom_el) -> tuple[float, tuple, tuple]:
        """(volume or area, centroid, inertia per unit density) of a mesh,
        in the mesh file's frame after scaling."""
        if mesh._props is None:
            from ...geometry.mesh_io import ObjError
            from .mesh_data import MeshDataError, read_file
            try:
                data = read_file(mesh.path)
            except (ObjError, MeshDataError, OSError) as e:
                self.doc.error(mesh.el, f"the mesh '{mesh.name}' cannot be read: {e}")
            if data.note:
                self.doc.warning(mesh.el, f"mesh '{mesh.name}': {data.note}")
            mode = mesh.inertia_mode
            if mode == "convex":
                self.doc.warning(mesh.el, f"mesh '{mesh.name}': inertia='convex' is not "
                                          "supported; the exact volume of the mesh is used")
                mode = "exact"
            try:
                mesh._props = mesh_properties(data.vertices, data.faces, mode, mesh.scale)
            except (MeshInertiaError, MeshDataError) as e:
                self.doc.error(geom_el, f"the inertia of mesh '{mesh.name}' cannot be "
                                        f"computed: {e}")
        return mesh._props
