"""Mesh files travel with the written model: each mesh is named so that the
output loads from the folder it is written to (a path relative to it, or
``package://`` inside a known package when asked), and ``copy_to`` copies the
files beside the output first. For a target that cannot read a file's format
(MuJoCo and Collada, glTF, PLY), an OBJ of its triangles is written into
``copy_to``, else into ``converted_to`` (a folder beside the output)."""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field

from ...package_map import PackageMap


@dataclass
class MeshPlacer:
    """Rewrites mesh file names for an output in ``out_dir``.

    ``copy_to`` (a folder) receives a copy of every mesh file, named after the
    file (a number added when two files share a name). ``package_map`` with
    ``use_packages`` writes ``package://NAME/...`` for meshes inside a package.
    ``converted_to`` is the folder that receives the meshes a writer makes
    (an OBJ of a mesh the target cannot read, an ellipsoid's sphere) when
    there is no ``copy_to`` (by default ``out_dir`` itself).
    """

    out_dir: str
    copy_to: str | None = None
    package_map: PackageMap | None = None
    use_packages: bool = False
    copied: dict[str, str] = field(default_factory=dict)
    converted_to: str | None = None

    def __post_init__(self) -> None:
        if self.converted_to is None:
            self.converted_to = self.out_dir

    def uri(self, filename: str) -> str:
        path = os.path.abspath(filename)
        if self.copy_to is not None and os.path.isfile(path):
            path = self._copy(path)
        elif self.use_packages and self.package_map is not None:
            found = self._package_uri(path)
            if found is not None:
                return found
        rel = os.path.relpath(path, os.path.abspath(self.out_dir))
        return rel.replace(os.sep, "/")

    def as_obj(self, filename: str) -> str:
        """The URI of an OBJ copy of a mesh file of another format, written
        into :meth:`generated_folder`: the triangles
        as mbparse reads them (a Collada file's unit and up axis, a glTF file
        turned to +z), without materials or textures. A file
        there that an earlier conversion made of the same mesh (its first
        line says so) is written again; any other file is left alone.
        Raises MeshError when the file cannot be read, OSError when the
        folder cannot be written."""
        from ...geometry.meshes import read_mesh
        path = os.path.abspath(filename)
        key = path + "#obj"
        if key not in self.copied:
            mesh = read_mesh(path)
            stem = os.path.splitext(os.path.basename(path))[0]
            self.generated(stem, mesh.vertices, mesh.faces,
                           f"triangles of {path}", key=key)
        rel = os.path.relpath(self.copied[key], os.path.abspath(self.out_dir))
        return rel.replace(os.sep, "/")

    def generated_folder(self) -> str:
        """Where a mesh the writer makes goes: the copy-meshes folder, else
        ``converted_to``."""
        return os.path.abspath(self.copy_to if self.copy_to is not None else self.converted_to)

    def generated(self, stem: str, vertices, faces, comment: str = "",
                  key: str | None = None) -> str:
        """The URI of an OBJ of ``vertices`` and ``faces`` written into
        :meth:`generated_folder` as ``stem.obj``,
        once per ``key`` (the stem by default). A file there of that name that
        an earlier conversion made of the same thing (its first line, the
        comment, says so) is written again; any other file is left alone and
        the new one gets a number added to its name."""
        key = key or f"#generated:{stem}"
        if key not in self.copied:
            folder = self.generated_folder()
            os.makedirs(folder, exist_ok=True)
            comment = "mbparse: " + " ".join(comment.splitlines())
            taken = set(self.copied.values())
            for target in _names(folder, stem, ".obj"):
                if target in taken:
                    continue
                claimed = _claim(target)
                if claimed or _first_line(target) == "# " + comment:
                    with _given_back_on_failure(target, claimed):
                        _write_whole(target, obj_text(vertices, faces, comment))
                    break
            self.copied[key] = target
        rel = os.path.relpath(self.copied[key], os.path.abspath(self.out_dir))
        return rel.replace(os.sep, "/")

    def _copy(self, path: str) -> str:
        if path in self.copied:
            return self.copied[path]
        folder = os.path.abspath(self.copy_to)
        os.makedirs(folder, exist_ok=True)
        stem, ext = os.path.splitext(os.path.basename(path))
        taken = set(self.copied.values())
        for target in _names(folder, stem, ext):
            if target in taken:
                continue
            if _same_file(target, path):
                break  # (the copy folder holds the mesh itself)
            if _claim(target):
                with _given_back_on_failure(target, True):
                    shutil.copyfile(path, target)
                # A mesh's material file (OBJ) and textures travel with it when they stand beside it.
                if ext.lower() == ".obj":
                    _copy_obj_materials(path, folder)
                break
        self.copied[path] = target
        return target

    def _package_uri(self, path: str) -> str | None:
        pm = self.package_map
        best = None
        for name in pm.get_package_names():
            root = os.path.abspath(pm.get_path(name))
            if path.startswith(root + os.sep) and (best is None or len(root) > len(best[1])):
                best = (name, root)
        if best is None:
            return None
        rel = os.path.relpath(path, best[1]).replace(os.sep, "/")
        return f"package://{best[0]}/{rel}"


def write_obj(path: str, vertices, faces, comment: str = "") -> None:
    """A Wavefront OBJ of triangles: ``v`` lines (shortest round-trip
    decimals) and 1-based ``f`` lines."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(obj_text(vertices, faces, comment))


def obj_text(vertices, faces, comment: str = "") -> str:
    """The text :func:`write_obj` writes."""
    lines = [f"# {comment}"] if comment else []
    lines += [f"v {float(x)!r} {float(y)!r} {float(z)!r}" for x, y, z in vertices]
    lines += [f"f {int(a) + 1} {int(b) + 1} {int(c) + 1}" for a, b, c in faces]
    return "\n".join(lines) + "\n"


_UNIT_SPHERE: list = []


def unit_sphere_triangles():
    """(vertices, faces) of a sphere of radius 1 about the origin: an
    icosphere of 1280 triangles, its vertices on the sphere."""
    if not _UNIT_SPHERE:
        import trimesh
        mesh = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
        _UNIT_SPHERE.append((mesh.vertices.tolist(), mesh.faces.tolist()))
    return _UNIT_SPHERE[0]


def _names(folder: str, stem: str, ext: str):
    """``stem + ext`` in ``folder``, then ``stem_1 + ext``, ``stem_2``..."""
    yield os.path.join(folder, stem + ext)
    n = 1
    while True:
        yield os.path.join(folder, f"{stem}_{n}{ext}")
        n += 1


def _claim(path: str) -> bool:
    """Whether ``path`` was free and is now this conversion's (made empty,
    in one step that fails if the file exists): two conversions running at
    once (``convert -j``, Dask) never both take one name and write over each
    other's mesh."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        return True
    except FileExistsError:
        return False


@contextmanager
def _given_back_on_failure(path: str, claimed: bool):
    """A name this conversion claimed is removed again when writing it fails,
    so that no empty file is left to take the name from the next one."""
    try:
        yield
    except BaseException:
        if claimed and os.path.exists(path):
            os.remove(path)
        raise


def _write_whole(path: str, text: str) -> None:
    """``text`` into ``path``, written beside it and moved into place in one
    step, so that a reader (or a conversion running at once) sees the old
    file or the new one, never part of it."""
    folder, name = os.path.split(path)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def _first_line(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readline().rstrip("\r\n")
    except OSError:
        return ""


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _copy_obj_materials(obj_path: str, folder: str) -> None:
    try:
        with open(obj_path, encoding="utf-8", errors="replace") as f:
            libs = [line.split(None, 1)[1].strip() for line in f
                    if line.startswith("mtllib ") and len(line.split(None, 1)) == 2]
    except OSError:
        return
    here = os.path.dirname(obj_path)
    for lib in libs:
        src = os.path.join(here, lib)
        dst = os.path.join(folder, lib)
        if os.path.isfile(src) and not os.path.exists(dst) and ".." not in lib:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
