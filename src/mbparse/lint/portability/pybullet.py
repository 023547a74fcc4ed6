"""pybullet (Bullet's URDF importer): a link without ``<inertial>`` gets
1 kg; the inertia tensors of the file are replaced by ones computed from
the collision shapes unless ``URDF_USE_INERTIA_FROM_FILE`` is passed;
``file://``, ``package://`` and ``model://`` are dropped and the rest looked
for in the folders above the URDF (Bullet's ``UrdfFindMeshFile``); meshes must be OBJ, STL, COLLADA (or CDF/VTK); ``<mimic>`` is not
read."""
from __future__ import annotations

import os
from typing import Iterator

from ...formats.common.xml import first_child
from ..findings import Finding
from .source import each_or_all

NAME = "pybullet"
TITLE = "pybullet"
READS = ("urdf", "sdformat", "mjcf")
READS_TEXT = "it reads URDF, SDFormat (loadSDF) and MJCF (loadMJCF)"
# The mesh suffixes Bullet's URDF importer accepts; other meshes are dropped.
MESH_FORMATS = (".obj", ".stl", ".dae", ".cdf", ".vtk")
STRIPPED_SCHEMES = ("package://", "model://")  # (after file://, dropped first)


def check(ctx) -> Iterator[Finding]:
    if ctx.urdf is None:
        return
    yield from default_inertia(ctx)
    yield from inertia_from_collision(ctx)
    yield from meshes(ctx)
    yield from mimics(ctx)


def default_inertia(ctx) -> Iterator[Finding]:
    urdf = ctx.urdf
    links = [n for n in urdf.links if n != "world" and not urdf.has_inertial(n)]
    yield from each_or_all(
        ctx, "for-pybullet-default-inertia", links,
        lambda link: (f"link '{link}' has no <inertial>: pybullet gives it a mass of 1 kg (and "
                      "unit inertia at its origin), where Drake gives it none"),
        lambda n, names: (f"{n} links have no <inertial> ({names}): pybullet gives each a mass "
                          f"of 1 kg (and unit inertia), {n} kg in all, where Drake gives them "
                          "none"))


def inertia_from_collision(ctx) -> Iterator[Finding]:
    """One finding for the file, at its first ``<inertia>``."""
    for name, el in ctx.urdf.links.items():
        inertial = first_child(el, "inertial")
        inertia = first_child(inertial, "inertia") if inertial is not None else None
        if inertia is not None:
            yield ctx.finding(
                "for-pybullet-inertia-from-collision",
                "pybullet replaces each link's <inertia> by one computed from the link's "
                "collision shapes and mass, unless loadURDF is given "
                "flags=pybullet.URDF_USE_INERTIA_FROM_FILE", ctx.urdf.line(inertia))
            return


def meshes(ctx) -> Iterator[Finding]:
    folders = _ancestors(os.path.abspath(ctx.path))
    for m in ctx.urdf.meshes():
        if m.extension() not in MESH_FORMATS:
            yield ctx.finding(
                "for-pybullet-mesh-format",
                f"{m.role} mesh '{m.filename}' of link '{m.link}' is a '{m.extension()}' file; "
                f"pybullet reads only {', '.join(MESH_FORMATS)}: its loadURDF refuses the file "
                "('Cannot load URDF file')",
                m.line)
        elif not _found(m.filename, folders):
            yield ctx.finding(
                "for-pybullet-mesh-not-found",
                f"{m.role} mesh '{m.filename}' of link '{m.link}': pybullet drops file://, "
                "package:// and model:// and looks for the rest after each folder above the "
                "URDF file, where it is not: its loadURDF refuses the file ('Cannot load URDF "
                "file'), unless the mesh is found relative to the folder pybullet runs in", m.line)


def _ancestors(path: str) -> list[str]:
    """The folders above the file ``path``, nearest first, each ending in
    a separator (as Bullet builds them from the URDF's path)."""
    out, folder = [], os.path.dirname(path)
    while True:
        out.append(folder if folder.endswith(os.sep) else folder + os.sep)
        parent = os.path.dirname(folder)
        if parent == folder:
            return out
        folder = parent


def _found(filename: str, folders: list[str]) -> bool:
    """Whether Bullet's URDF importer finds the mesh ``filename`` (its
    UrdfFindMeshFile): ``file://`` dropped, then ``package://`` or
    ``model://``; the rest tried as it is (an absolute path), then after
    each folder above the URDF, nearest first, by plain concatenation. (It
    also tries the rest relative to the working directory and its two
    parents, which depend on where pybullet runs: not counted here.)"""
    if filename.startswith("file://"):
        filename = filename[len("file://"):]
    for scheme in STRIPPED_SCHEMES:
        if filename.startswith(scheme):
            filename = filename[len(scheme):]
            break
    candidates = [filename] if os.path.isabs(filename) else []
    candidates += [folder + filename for folder in folders]
    return any(os.path.isfile(c) for c in candidates)


def mimics(ctx) -> Iterator[Finding]:
    for joint, mimic in ctx.urdf.mimics():
        yield ctx.finding(
            "for-pybullet-mimic-ignored",
            f"joint '{joint.get('name')}' mimics joint '{mimic.get('joint')}': pybullet does "
            "not read <mimic>; the joint moves freely unless a gear constraint "
            "(createConstraint with JOINT_GEAR) couples them", ctx.urdf.line(mimic))
