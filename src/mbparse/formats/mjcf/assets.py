"""``<asset>``: meshes (OBJ, STL or MuJoCo MSH files, found through ``meshdir``, or
vertices written in the file) with their MuJoCo mass properties, and
materials (for colors)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

from ...geometry import Convex, Mesh
from .attrs import Attrs
from .compiler import Compiler
from .defaults import DefaultClasses
from .document import Document, tag
from .inertia import MeshInertiaError, drake_mesh_properties, mesh_properties

MESH_INERTIA_MODES = ("legacy", "exact", "convex", "shell")
MESH_FILE_TYPES = (".obj", ".stl", ".msh")
MESH_UNSUPPORTED = ("smoothnormal", "maxhullvert", "normal", "texcoord", "refpos", "refquat",
                    "builtin", "params")


@dataclass
class MeshAsset:
    """A mesh (a file, or vertices and maybe faces written in the MJCF
    file), its scale and how MuJoCo computes its inertia."""

    el: object
    name: str
    path: str | None
    scale: tuple[float, float, float]
    inertia_mode: str
    vertices: tuple | None = None   # written in the file ('vertex')
    faces: tuple | None = None      # written in the file ('face')
    _data: object = field(default=None, repr=False)
    _props: tuple | None = field(default=None, repr=False)

    def shape(self, data) -> Mesh | None:
        """The shape to register: the file as a mesh, or as its convex hull
        when it has no faces (MuJoCo meshes the hull then); None for a mesh
        without a file, which no shape can name."""
        if self.path is None:
            return None
        if len(data.faces) == 0:
            return Convex(self.path, self.scale)
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
        # Named meshes refused with an error (under check, reading goes on): a
        # geom using one is left out without a second error.
        self.refused_meshes: set[str] = set()
        # Mesh paths found to be regular files in this parse (asked once each).
        self._regular_files: set[str] = set()

    def read(self, asset_el) -> None:
        doc = self.doc
        for child in doc.kids(asset_el):
            with doc.policy.recovering():
                t = tag(child)
                if t == "mesh":
                    self._mesh(child)
                elif t == "material":
                    a = self.defaults.attrs(child)
                    name = a.text("name")
                    if name is None:
                        doc.error(child, "a <material> needs a 'name' attribute",
                                  code="mjcf-attribute-missing")
                    self.materials[name] = a
                elif child not in doc.unknown:  # else the schema check reported it
                    doc.warning(child, f"<{t}> assets are not supported and are ignored",
                                code="mjcf-unsupported")

    def _mesh(self, el) -> None:
        doc = self.doc
        a = self.defaults.attrs(el)
        a.warn_unsupported(MESH_UNSUPPORTED)
        for child in doc.kids(el):
            if child in doc.unknown:
                continue
            doc.warning(child, f"<{tag(child)}> inside <mesh> is not supported and is ignored",
                        code="mjcf-unsupported")
        file = a.text("file")
        vertices = a.number_list("vertex")
        faces = self._faces(a, vertices)
        if file is None and vertices is None:
            doc.warning(el, f"the mesh '{a.text('name', '')}' has neither a 'file' nor a "
                            "'vertex' attribute and is ignored", code="mjcf-unsupported")
            if a.has("name"):
                self.ignored_meshes.add(a.text("name"))
            return
        if file is not None and vertices is not None:
            a.error("vertex", "a <mesh> with a 'file' cannot list its vertices too",
                    code="mjcf-conflict")
        path = None
        if file is None:
            name = a.text("name")
            if name is None:
                doc.error(el, "a <mesh> without a 'file' needs a 'name'",
                          code="mjcf-element-missing")
        else:
            name = a.text("name") or os.path.splitext(os.path.basename(file))[0]
            path = self.resolve(file, el)
            if path not in self._regular_files and not os.path.isfile(path):
                self.refused_meshes.add(name)
                doc.error(el, f"the mesh file '{file}' of mesh '{name}' was not found (looked "
                              f"for '{path}')", code="mesh-missing")
            suffix = os.path.splitext(path)[1].lower()
            if suffix not in MESH_FILE_TYPES and not doc.policy.like_drake:
                self.refused_meshes.add(name)
                doc.error(el, f"the mesh file '{file}' of mesh '{name}' is not an OBJ, STL or "
                              "MSH file; only those meshes can be read",
                          code="mjcf-not-supported")
            if suffix != ".obj":
                doc.diag(el).drake_refuses(
                    el, "Drake's MuJoCo parser currently only supports mesh files in .obj "
                        f"format, but the meshfile \"{path}\" was requested",
                    "mbparse reads the mesh as MuJoCo does", code="mjcf-not-supported")
        scale = a.numbers("scale", 3, (1.0, 1.0, 1.0))
        mode = a.choice("inertia", MESH_INERTIA_MODES, "legacy")
        if name in self.meshes:
            doc.error(el, f"the mesh name '{name}' is used twice", code="mjcf-conflict")
        self.meshes[name] = MeshAsset(el, name, path, scale, mode, vertices, faces)

    def _faces(self, a, vertices) -> tuple | None:
        """The 'face' attribute: whole, non-negative vertex indices, three
        per triangle."""
        faces = a.number_list("face")
        if faces is None:
            return None
        import numpy as np  # (here and in data(): meshes only)

        array = np.asarray(faces, dtype=np.float64)
        if len(faces) % 3 or not (np.all(array >= 0) and np.all(array == np.floor(array))
                                  and np.all(array < 2 ** 31)):
            a.error("face", "'face' must list whole, non-negative vertex indices (below 2^31, "
                            "as MuJoCo's are), three per triangle", code="value-out-of-range")
        if vertices is not None and faces and array.max() >= len(vertices) // 3:
            a.error("face", f"'face' names vertex {int(array.max())}, but the mesh has "
                            f"{len(vertices) // 3} vertices (counted from 0)",
                    code="mjcf-value-invalid")
        return tuple(array.astype(np.int64).tolist())

    def resolve(self, file: str, el=None) -> str:
        """The path of a mesh file: absolute as given, else under ``meshdir``
        (itself relative to the main file's folder unless absolute). When
        that file does not exist and ``el`` was written in an included file,
        MuJoCo looks relative to the included file's folder instead; so does
        the default mode (Drake does not)."""
        if os.path.isabs(file):
            return os.path.normpath(file)
        meshdir = self.compiler.meshdir
        if meshdir:
            base = meshdir if os.path.isabs(meshdir) else os.path.join(self.doc.base_dir, meshdir)
        else:
            base = self.doc.base_dir
        path = os.path.normpath(os.path.join(base, file))
        if el is None or path in self._regular_files:
            return path
        if os.path.isfile(path):
            self._regular_files.add(path)
            return path
        return self.doc.relative_to_include(el, file, path, "mesh file")

    def data(self, mesh: MeshAsset):
        """The mesh's vertices and triangles (read once); a located error
        when they cannot be had."""
        if mesh._data is None:
            from ...geometry.mesh_io import ObjError
            import numpy as np

            from .mesh_data import MeshData, MeshDataError, read_file
            try:
                if mesh.path is None:
                    V = mesh.vertices
                    if len(V) % 3:
                        self.doc.error(mesh.el, f"mesh '{mesh.name}': 'vertex' must hold three "
                                                "numbers per vertex", code="mjcf-value-invalid")
                    data = MeshData(np.asarray(V, dtype=np.float32).reshape(-1, 3),
                                    np.asarray(mesh.faces or (), dtype=np.int64).reshape(-1, 3))
                else:
                    data = read_file(mesh.path)
                    if mesh.faces is not None:
                        if len(data.faces):
                            self.doc.error(mesh.el, f"mesh '{mesh.name}': the file has faces, "
                                                    "so the 'face' attribute cannot give them",
                                           code="mjcf-conflict")
                        # (a new MeshData: the one read is shared by every load)
                        data = MeshData(data.vertices, np.asarray(
                            mesh.faces, dtype=np.int64).reshape(-1, 3), data.note)
                        if data.faces.size and data.faces.max() >= len(data.vertices):
                            self.doc.error(mesh.el, f"mesh '{mesh.name}': 'face' names a "
                                                    "vertex the file does not have",
                                           code="mjcf-value-invalid")
            except (ObjError, MeshDataError, OSError) as e:
                self.doc.error(mesh.el, f"the mesh '{mesh.name}' cannot be read: {e}",
                               code="mesh-unreadable")
            if data.note:
                self.doc.warning(mesh.el, f"mesh '{mesh.name}': {data.note}", code="mjcf-mesh-note")
            mesh._data = data
        return mesh._data

    def _drake_properties(self, mesh: MeshAsset, geom_el, data) -> tuple:
        """Drake 1.51's mass properties of a mesh: signed tetrahedra from the
        mesh's origin; a mesh whose volume is not positive (open, or wound
        inward) or whose inertia is not physically valid is measured by its
        convex hull instead, with Drake's warning."""
        from ...geometry.meshes import MeshError, convex_hull
        vertices, faces = data.vertices, data.faces
        if mesh.path is not None and mesh.path.lower().endswith(".obj"):
            # Drake keeps an OBJ file's vertices in double precision.
            from ...geometry.mesh_io import read_obj
            obj = read_obj(mesh.path, allow_no_faces=True)
            vertices, faces = obj.vertices, obj.faces
        try:
            return drake_mesh_properties(vertices, faces, mesh.scale)
        except MeshInertiaError:
            pass
        try:
            hull = convex_hull(vertices)
            props = drake_mesh_properties(vertices, hull, mesh.scale)
        except (MeshError, MeshInertiaError) as e:
            self.doc.error(geom_el, f"Failed to compute spatial inertia even for the convex "
                                    f"hull of mesh '{mesh.name}': {e}", code="mesh-unreadable")
        self.doc.warning(geom_el, f"CalcSpatialInertia() failed to compute a physically valid "
                                  f"inertia for mesh {mesh.name} (probably the mesh is not "
                                  "watertight). The spatial inertia was computed using its "
                                  "convex hull as a fallback.", code="mjcf-mesh-note")
        return props

    def mesh_properties(self, mesh: MeshAsset, geom_el) -> tuple[float, tuple, tuple]:
        """(volume or area, centroid, inertia per unit density) of a mesh,
        in the mesh file's frame after scaling. A mesh without faces, and
        any mesh with inertia='convex', is measured by its convex hull."""
        if mesh._props is None:
            from ...geometry.meshes import MeshError, convex_hull
            from .mesh_data import MeshDataError, check_vertices
            data = self.data(mesh)
            # read_file's data: one object per unchanged file, per process
            shared = mesh.path is not None and mesh.faces is None
            mode, faces = mesh.inertia_mode, data.faces
            on_hull = len(faces) == 0 or mode == "convex"
            try:
                if on_hull:
                    if shared:
                        hull = _file_hull(_Same(data))
                    else:
                        check_vertices(data.vertices)
                        hull = convex_hull(data.vertices)
                    if mode == "convex":
                        # The hull's exact volume (MuJoCo's signed sum over it).
                        mode, faces = "exact", hull
                    else:
                        faces = hull
            except (MeshDataError, MeshError) as e:
                self.doc.error(mesh.el, f"the mesh '{mesh.name}' cannot be used: {e}",
                               code="mesh-unreadable")
            if self.doc.policy.like_drake and len(data.faces):
                mesh._props = self._drake_properties(mesh, geom_el, data)
                return mesh._props
            try:
                if shared and 0.0 not in mesh.scale:
                    # (a zero scale is left out: 0.0 and -0.0 are equal keys, not equal scales)
                    mesh._props = _file_mesh_properties(_Same(data), mode, mesh.scale, on_hull)
                else:
                    mesh._props = mesh_properties(data.vertices, faces, mode, mesh.scale)
            except (MeshInertiaError, MeshDataError) as e:
                self.doc.error(geom_el, f"the inertia of mesh '{mesh.name}' cannot be "
                                        f"computed: {e}", code="mesh-unreadable")
        return mesh._props


class _Same:
    """A mesh's data as a cache key: the same object, not equal arrays
    (``read_file`` hands out one object per unchanged file, so a changed
    file is a new key; the key holds the object, so its id is not reused
    while the entry is kept)."""

    __slots__ = ("data",)

    def __init__(self, data) -> None:
        self.data = data

    def __hash__(self) -> int:
        return id(self.data)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is _Same and other.data is self.data  # type: ignore[attr-defined]


@lru_cache(maxsize=256)
def _file_hull(data: _Same):
    """The triangles of the convex hull of a mesh file's vertices (checked
    first, as MuJoCo checks them), found once per process (read-only; a
    failure raises each time)."""
    from ...geometry.meshes import convex_hull
    from .mesh_data import check_vertices
    check_vertices(data.data.vertices)
    hull = convex_hull(data.data.vertices)
    hull.setflags(write=False)
    return hull


@lru_cache(maxsize=256)
def _file_mesh_properties(data: _Same, mode: str, scale: tuple,
                          on_hull: bool) -> tuple[float, tuple, tuple]:
    """:func:`mesh_properties` of a mesh file's triangles (``on_hull``: of
    its convex hull's), computed once per process for each inertia mode and
    scale (a model loaded again, and robots sharing meshes, ask again; a
    failure raises each time)."""
    faces = _file_hull(data) if on_hull else data.data.faces
    return mesh_properties(data.data.vertices, faces, mode, scale)
