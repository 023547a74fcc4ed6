"""SDFormat reader (http://sdformat.org, versions 1.4 to 1.12), with the
meaning Drake gives it (libsdformat's document rules and frame semantics,
then Drake's own reading and ``drake:`` extensions).

The reader works in three steps: :mod:`.document` loads, upgrades, checks
and expands includes; :mod:`.scopes` and :mod:`.frames` build the frame
graphs; :mod:`.model` (with :mod:`.geometry`, :mod:`.joints` and
:mod:`.drake_elements`) fills the plant.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ...files import path_exists
from ...package_map import resolve_uri
from ...spatial import RigidTransform
from ..common.uris import FileResolver
from ..common.xml import first_child
from ...workspace import DataSource, Workspace
from .diagnostic import SdfDiagnostic
from .document import RESOLVED, Loader
from .frames import MODEL_FRAME, FrameGraph, Scope, Vertex, read_pose
from .model import ModelBuilder
from .scopes import ScopeBuilder, proxy_frame_name

__all__ = ["add_all_models", "add_model"]


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    """Adds every model of the file (a ``<model>`` or the models of a ``<world>``)."""
    return SdfReader(source, workspace).add_all(parent_model_name)


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    """Adds the one model of the file (``model_name`` overrides its name)."""
    return SdfReader(source, workspace).add_one(model_name, parent_model_name)


@dataclass
class IncludedModel:
    """What an included URDF or MuJoCo file's own reader added: its model
    instance, the bodies new to it, its name, and the name of the frame
    that stands for its model frame in the SDFormat graph."""

    instance: int
    new_bodies: list
    model_name: str
    frame_name: str


@dataclass
class CustomInclude:
    """A URDF or MuJoCo file included by an SDFormat file: the scope standing
    for it, the bodies it added and the graph vertex of its model frame."""

    scope: Scope
    bodies: list
    model_vertex: str


class SdfReader:
    """Reads one SDFormat file: loads the document, builds its scopes and
    frame graph (reading included URDF and MuJoCo files with their own
    readers), then puts its models into the plant."""

    def __init__(self, source: DataSource, workspace: Workspace):
        self.source = source
        self.ws = workspace
        self.plant = workspace.plant
        self.diag = SdfDiagnostic(workspace.diagnostic, source.name())
        self.graph = FrameGraph(self.diag)
        self.custom_includes: list[CustomInclude] = []
        self._files = FileResolver(self.diag, workspace.package_map, source.root_dir())

    # ------------------------------------------------------------ entry points
    def load(self):
        loader = Loader(self.diag, self.find_include, self.ws.include_another_file)
        loader.open_files = list(self.ws.open_files)
        self.first_instance = self.plant.num_model_instances()
        root = loader.load(self.source)
        self.elements = loader.elements  # (held until the reader is done)
        return root

    def find_include(self, uri: str) -> tuple[str | None, str | None]:
        """libsdformat's search for an included file, in its order: the URI
        with any scheme stripped, from the current folder and as given; then
        each folder of the SDF_PATH environment variable; last, Drake's
        callback, which resolves package://, model:// and file:// through
        the package map (and relative paths from the current folder)."""
        _, sep, rest = uri.partition("://")
        filename = rest if sep else uri
        if filename:  # (each candidate asked by access(2): files.path_exists)
            for candidate in ([os.path.join(os.getcwd(), filename), filename]
                              + [os.path.join(folder, filename)
                                 for folder in os.environ.get("SDF_PATH", "").split(":")
                                 if folder]):
                if path_exists(candidate):
                    return candidate, None
        path, problem = resolve_uri(uri, self.ws.package_map, ".")
        return (None, problem) if problem else (path, None)

    def root_children(self, root):
        # (one walk over the children: an lxml findall costs more than it)
        models, worlds, others = [], [], []
        for c in root:
            tag = c.tag
            if tag == "model":
                models.append(c)
            elif tag == "world":
                worlds.append(c)
            elif tag == "light" or tag == "actor":
                others.append(c)
        if len(models) > 1:
            self.diag.error(models[1], "The file has more than one top-level <model>; only one "
                                       "is allowed.", code="sdf-structure")
        if others and (models or len(others) > 1):
            self.diag.error(others[0], "The top level may hold only one of <model>, <light> or "
                                       "<actor>.", code="sdf-structure")
        names = [w.get("name") for w in worlds]
        for w in worlds:
            if names.count(w.get("name")) > 1:
                self.diag.error(w, f"World '{w.get('name')}' is defined more than once.",
                                code="name-duplicate")
        return models, worlds

    def build(self, root):
        models, worlds = self.root_children(root)
        scopes = ScopeBuilder(self.diag, self.graph, self.custom_include)
        if len(models) + len(worlds) != 1:
            self.diag.error(root, f"File must have exactly one <model> or exactly one <world>, "
                                  f"but instead has {len(models)} models and {len(worlds)} "
                                  "worlds", code="sdf-structure")
        if models:
            top = scopes.root_model(models[0])
            world = top.parent
        else:
            world = scopes.world(worlds[0])
        for include in self.custom_includes:
            self.reposture(include)
        return world

    def add_all(self, parent_model_name: str | None) -> list[int]:
        builder = None
        try:
            root = self.load()
            world = self.build(root)
            builder = ModelBuilder(self.diag, self.graph, self.ws, self.resolve_uri,
                                   self.first_instance)
            builder.bodies.update(self.custom_bodies())
            return builder.add_world(world, parent_model_name)
        finally:
            self.release(builder)

    def add_one(self, model_name: str, parent_model_name: str | None) -> int | None:
        builder = None
        try:
            root = self.load()
            models = root.findall("model")
            worlds = root.findall("world")
            if not models and len(worlds) == 1 and len(worlds[0].findall("model")) == 1:
                only = worlds[0].findall("model")[0]
            elif len(models) == 1:
                only = models[0]
            else:
                self.diag.error(root, "File must have a single <model> element.",
                                code="sdf-structure")
            if model_name:
                only.set("name", model_name)
            world = self.build(root)
            builder = ModelBuilder(self.diag, self.graph, self.ws, self.resolve_uri,
                                   self.first_instance)
            builder.bodies.update(self.custom_bodies())
            builder.root = world
            scope = next(s for s in world.models if s.el is only)
            name = self.ws.make_model_name(scope.name, parent_model_name)
            return builder.add_model(scope, name)[0]
        finally:
            self.release(builder)

    def release(self, builder: ModelBuilder | None) -> None:
        """Breaks the reference cycles among what this reader made (a scope
        and its parent, a vertex and its scope, the model builder and its
        joint reader), so that all of it, the elements it holds included, is
        freed by reference counting when the reading ends. Left to Python's
        cyclic collector (paused during a parse) it would be walked by the
        collections after the parse, and would make more of them."""
        self.graph.release()
        if builder is not None:
            builder.release()
        self.elements = []

    def resolve_uri(self, el, uri: str, missing: str = "file-missing",
                    instead: str | None = None) -> str | None:
        """The file a URI names. When it cannot be found: an error at ``el``
        (code ``missing`` when the file does not exist), unless ``instead``
        says what is done without the file (a mesh or texture); then an error
        only in Drake's mode, otherwise a warning and None."""
        return self._files.resolve(el, uri, instead, missing)

    # ------------------------------------------------------------ URDF / MJCF includes
    def custom_include(self, parent: Scope, inc) -> Scope | None:
        """Reads an included URDF or MuJoCo file with its own reader (Drake's
        interface-model step) and describes its frames to the graph."""
        path = inc.get(RESOLVED)
        if path is None:
            return None
        added = self.read_included_model(parent, inc, path)
        if added is None:
            return None
        merge = inc.get("merge") in ("true", "1")
        scope, model_vertex = self.include_vertex(parent, inc, added, merge)
        self.describe_included_frames(scope, inc, added, merge)
        self.custom_includes.append(CustomInclude(scope, added.new_bodies, model_vertex))
        return None if merge else scope

    def read_included_model(self, parent: Scope, inc, path: str) -> IncludedModel | None:
        """Adds the included file's model to the plant (merged into the
        parent's instance with ``merge``); None when its reader added none."""
        diag = self.diag
        plant = self.plant
        static = first_child(inc, "static")
        if static is not None and (static.text or "").strip() in ("true", "1"):
            diag.error(inc, "Drake does not yet support //include/static for custom nesting.",
                       code="sdf-not-supported")
        reader = self.ws.select_reader(path)
        name_el = first_child(inc, "name")
        local = (name_el.text or "").strip() if name_el is not None else ""
        merge = inc.get("merge") in ("true", "1")
        parent_name = self.absolute_name(parent)
        source = DataSource(filename=path)
        self.ws.open_files.append(os.path.abspath(self.source.filename or ""))
        try:
            with diag.located(inc):
                if merge:
                    if plant.has_model_instance_named(parent_name):
                        instance = plant.get_model_instance_by_name(parent_name)
                    else:
                        instance = plant.add_model_instance(parent_name)
                    before = {b.index for b in plant.get_bodies_in_model_instance(instance)}
                    model_name = reader.merge_model(source, local, instance, self.ws)
                    frame_name = proxy_frame_name(model_name)
                else:
                    instance = reader.add_model(source, local, parent_name or None, self.ws)
                    if instance is None:
                        return None
                    before = set()
                    model_name = plant.get_model_instance_name(instance).rpartition("::")[2]
                    frame_name = MODEL_FRAME
        finally:
            self.ws.open_files.pop()
        bodies = plant.get_bodies_in_model_instance(instance)
        if not bodies:
            diag.error(inc, "Model must have at least one link.", code="sdf-structure")
        with diag.located(inc):
            plant.add_frame(frame_name, bodies[0].body_frame, RigidTransform(), instance)
        new_bodies = [b for b in bodies if b.index not in before]
        return IncludedModel(instance, new_bodies, model_name, frame_name)

    def include_vertex(self, parent: Scope, inc, added: IncludedModel,
                       merge: bool) -> tuple[Scope, str]:
        """The graph vertex the include stands for: a proxy frame in the parent
        (merged) or a scope of its own; returns that scope and the vertex id."""
        X, relative_to, pose_el = read_pose(self.diag, inc)
        if merge:
            proxy = Vertex(parent.vertex_id(added.frame_name), "frame", parent, inc,
                           attached_to=added.new_bodies[0].name if added.new_bodies else None,
                           relative_to=relative_to or (MODEL_FRAME if parent.kind != "world"
                                                       else "world"),
                           X=X, pose_el=pose_el)
            self.graph.add(proxy)
            return parent, proxy.id
        placement_el = first_child(inc, "placement_frame")
        placement = ((placement_el.text if placement_el is not None else None) or "").strip() or None
        scope = Scope(parent.vertex_id(added.model_name), added.model_name, inc, parent,
                      kind="custom")
        scope.instance = added.instance
        self.graph.add(Vertex(scope.path, "custom", parent, inc, relative_to=relative_to,
                              X=X, pose_el=pose_el, inner_scope=scope, placement=placement))
        return scope, scope.path

    def describe_included_frames(self, scope: Scope, inc, added: IncludedModel,
                                 merge: bool) -> None:
        """Adds the included model's links, frames and joints to the graph, so
        SDFormat elements can refer to them by scoped name."""
        plant = self.plant
        instance, frame_name = added.instance, added.frame_name
        for body in added.new_bodies:
            v = Vertex(scope.vertex_id(body.name), "link", scope, inc,
                       relative_to=(frame_name if merge else None))
            self.graph.add(v)
            if merge:
                scope.interface_links.append(v)
            else:
                scope.links.append(v)
        if not merge:
            scope.canonical = scope.links[0].id if scope.links else None
        new_index = {b.index for b in added.new_bodies}
        for frame in plant.frames():
            if (frame.model_instance != instance or frame.is_body_frame
                    or frame.body.index not in new_index or frame.name == frame_name):
                continue
            self.graph.add(Vertex(scope.vertex_id(frame.name), "frame", scope, inc,
                                  attached_to=frame.body.name, X=frame.X_BF))
        for joint in plant.joints():
            if joint.model_instance == instance and joint.child_body.index in new_index:
                self.graph.add(Vertex(scope.vertex_id(joint.name), "joint", scope, inc,
                                      attached_to=joint.child_body.name,
                                      X=joint.frame_on_child.X_BF))

    def absolute_name(self, scope: Scope) -> str:
        """The scoped name of the model ``scope`` ('' for the world)."""
        names = []
        node = scope
        while node is not None and node.kind != "world":
            names.append(node.name)
            node = node.parent
        return "::".join(reversed(names))

    def custom_bodies(self) -> dict:
        """The included URDF/MuJoCo models' bodies by their link vertex id."""
        out = {}
        for include in self.custom_includes:
            for body in include.bodies:
                out[include.scope.vertex_id(body.name)] = body
        return out

    def reposture(self, include: "CustomInclude") -> None:
        """Poses the included model's bodies where the graph puts its frame."""
        root = include.scope
        while root.parent is not None:
            root = root.parent
        X_WM = self.graph.pose_in(root, include.model_vertex)
        for body in include.bodies:
            self.plant.set_default_free_body_pose(body, X_WM)
