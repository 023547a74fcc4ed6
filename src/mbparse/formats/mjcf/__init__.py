"""MJCF (MuJoCo XML) reader.

A file means what MuJoCo's compiler makes of it — frames, default classes,
inertia from geoms, joint references — expressed with Drake's elements as
Drake's MJCF parser does (one model instance; hinge → revolute, slide →
prismatic, ball → ball-rpy; free bodies float; bodies without joints are
welded). Elements Drake documents as MuJoCo-solver-only are ignored without
a word; other unsupported elements and attributes warn.
"""
from __future__ import annotations

import os

from ...spatial import inertia_matrix
from ...workspace import DataSource, Workspace
from .actuators import ActuatorReader
from .assets import Assets
from .bodies import BodyTreeReader
from .compiler import Compiler, read_compiler
from .constraints import ConstraintReader
from .defaults import DefaultClasses
from .document import Document, tag
from .geoms import GeomReader
from .plant_builder import PlantBuilder
from .replicate import expand_replicates
from .schema import SchemaChecker

# Top-level elements: read in this order, whatever their order in the file.
TOP_LEVEL = ("compiler", "option", "size", "statistic", "visual", "default", "extension",
             "asset", "worldbody", "body", "deformable", "contact", "tendon", "equality",
             "actuator", "sensor", "custom", "keyframe")
TOP_LEVEL_SET = frozenset(TOP_LEVEL)
TOP_SILENT = ("size",)
TOP_UNSUPPORTED = ("statistic", "visual", "extension", "deformable", "tendon", "sensor",
                   "keyframe", "custom")
OPTION_SILENT = ("jacobian", "solver", "impratio", "o_margin", "o_solref", "o_solimp",
                 "o_friction", "iterations", "tolerance", "ls_iterations", "ls_tolerance",
                 "noslip_iterations", "noslip_tolerance", "ccd_iterations", "ccd_tolerance",
                 "sdf_iterations", "sdf_tolerance", "sdf_initpoints")


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    """Adds the one model an MJCF file holds."""
    index = add_model(source, None, parent_model_name, workspace)
    return [] if index is None else [index]


def add_model(source: DataSource, model_name: str | None, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    """Adds the model as a new model instance (named by ``model_name``, else
    the ``model`` attribute of ``<mujoco>``)."""
    return _read(source, model_name, parent_model_name, None, workspace)[0]


def merge_model(source: DataSource, model_name: str, into_instance: int,
                workspace: Workspace) -> str:
    """Adds the model's elements to an existing model instance."""
    return _read(source, model_name, None, into_instance, workspace)[1]


def _read(source, model_name, parent_model_name, into_instance, workspace):
    doc = Document(source, workspace.diagnostic)
    root = doc.root
    if tag(root) != "mujoco":
        doc.error(root, f"an MJCF file's root element must be <mujoco>; this one is "
                        f"<{tag(root)}>", code="mjcf-root")
    SchemaChecker(doc).check(root)
    # The top-level elements by tag (only the tags the file has).
    sections: dict[str, list] = {}
    for el in doc.kids(root):
        t = el.tag  # kids() gives elements only
        if t in TOP_LEVEL_SET:
            if t in sections:
                sections[t].append(el)
            else:
                sections[t] = [el]
    name = model_name or root.get("model")
    if not name:
        # MuJoCo names such a model "MuJoCo Model"; Drake refuses it.
        stem = os.path.basename(source.filename or "") or "MuJoCo Model.xml"
        unnamed = stem[:-4] if stem.lower().endswith(".xml") else stem
        doc.diag(root).drake_refuses(
            root, "the model has no name: give <mujoco> a 'model' attribute or pass a "
                  "model name", f"the model is named '{unnamed}' after its file",
            code="mjcf-attribute-missing")
        name = unnamed
    plant = workspace.plant
    if into_instance is None:
        name = workspace.make_model_name(name, parent_model_name)
        with doc.diag(root).located(root):
            instance = plant.add_model_instance(name)
    else:
        instance = into_instance

    compiler = Compiler()
    for el in sections.get("compiler", ()):
        with doc.policy.recovering():
            read_compiler(doc, el, compiler)
    for el in sections.get("option", ()):
        _option(doc, el)
    defaults = DefaultClasses(doc)
    for el in sections.get("default", ()):
        with doc.policy.recovering():
            defaults.read(el)
    assets = Assets(doc, defaults, compiler)
    for el in sections.get("asset", ()):
        assets.read(el)
    if not doc.policy.like_drake:  # Drake 1.51 ignores <replicate>, with a warning
        expand_replicates(doc, sections.get("worldbody", []) + sections.get("body", []), compiler,
                          defaults)
    tree = BodyTreeReader(doc, defaults, compiler, GeomReader(defaults, assets, compiler),
                          plant.num_bodies())
    for el in sections.get("worldbody", ()):
        with doc.policy.recovering():
            tree.read_world(el)
    for el in sections.get("body", ()):
        with doc.policy.recovering():
            tree.read_top_level_body(el)
    _apply_mass_bounds(doc, tree.bodies, compiler)
    builder = PlantBuilder(doc, compiler, plant, instance)
    builder.add_world(tree.world, tree.has_sites)
    for el in sections.get("actuator", ()):
        ActuatorReader(doc, defaults, compiler, builder).read(el)
    builder.warn_unused_armature()
    if "contact" in sections or "equality" in sections:
        bodies = {b.name: b for b in tree.bodies}
        bodies["world"] = tree.world
        constraints = ConstraintReader(doc, defaults, builder, bodies)
        for el in sections.get("contact", ()):
            constraints.read_contact(el)
        for el in sections.get("equality", ()):
            constraints.read_equality(el)
    for t in TOP_UNSUPPORTED:
        for el in sections.get(t, ()):
            doc.warning(el, f"<{t}> is not supported and is ignored", code="mjcf-unsupported")
    tree.release()
    return instance, name


def _option(doc: Document, el) -> None:
    # <flag>, its one child, holds solver switches: ignored without a word.
    for name in el.attrib:
        if name in OPTION_SILENT or (el, name) in doc.unknown:
            continue
        doc.warning(el, f"the attribute '{name}' of <option> is not supported and is ignored",
                    code="mjcf-unsupported")


def _apply_mass_bounds(doc: Document, bodies, compiler: Compiler) -> None:
    """boundmass, boundinertia, balanceinertia and settotalmass, applied to
    each body's principal moments as MuJoCo's compiler does."""
    c = compiler
    if c.boundmass > 0 or c.boundinertia > 0 or c.balanceinertia:
        import numpy as np  # (only here: a model without these bounds needs no NumPy)

        for b in bodies:
            b.mass = max(b.mass, c.boundmass)
            eig, vec = np.linalg.eigh(np.array(inertia_matrix(b.inertia)))
            eig = np.maximum(eig, c.boundinertia)
            a, bb, cc = eig
            if c.balanceinertia and (a + bb < cc or a + cc < bb or bb + cc < a):
                eig = np.full(3, eig.sum() / 3)
            M = vec @ np.diag(eig) @ vec.T
            b.inertia = (M[0, 0], M[1, 1], M[2, 2], M[0, 1], M[0, 2], M[1, 2])
    if c.settotalmass > 0:
        total = sum(b.mass for b in bodies)
        if total > 0:
            k = c.settotalmass / total
            for b in bodies:
                b.mass *= k
                b.inertia = tuple(k * v for v in b.inertia)
