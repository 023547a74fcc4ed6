"""Drake Model Directives (``.dmd.yaml``): a YAML list of directives that
build a scene from other model files.

Directives run in order: ``add_model`` (parse a file of any supported
format as one model, then set default joint positions and default free-body
poses), ``add_model_instance`` (an empty instance, usually a namespace),
``add_frame``, ``add_weld``, ``add_collision_filter_group`` and
``add_directives`` (run another directives file inside a model namespace).
Names are scoped as Drake's directives scope them: every name is taken
inside the current namespace (the Parser's model-name prefix at the top,
joined with each ``add_directives`` ``model_namespace`` below), except the
name ``world``; ``a::b::frame`` names the frame ``frame`` of the model
instance ``a::b``. Directives files are only read as a whole (add_models);
asking for a single model from one is an error, as in Drake.
"""
from __future__ import annotations

import os
from typing import NoReturn

from ...files import regular_file_problem
from ...plant import ModelError, QuaternionFloatingJoint, WeldJoint
from ...source_location import declared_at
from ...package_map import resolve_uri
from ...spatial import RigidTransform, matrix_to_quaternion
from ..common.suggest import did_you_mean
from ...workspace import MAX_FILE_NESTING, DataSource, Workspace
from .schema import Directive, DmdSyntaxError, Pose, load_document

WORLD = "world"


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    """Runs every directive of ``source``; returns the instances that
    ``add_model`` directives made (nested files included), in order."""
    added: list[int] = []
    DirectivesRun(source, parent_model_name or "", workspace, added).run()
    return added


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    """Always an error: a directives file may hold many models, so it can
    only be read with add_models / add_models_from_string."""
    shown = os.path.abspath(source.filename) if source.is_file() else "<string>.dmd.yaml"
    workspace.diagnostic.error(
        f"'{shown}' holds model directives, which can only be read whole (with add_models "
        f"or add_models_from_string), not as one model", source.name(), code="dmd-file-type")
    return None


def join(namespace: str, name: str) -> str:
    """``namespace::name``, or either alone when the other is empty."""
    if not namespace:
        return name
    if not name:
        return namespace
    return f"{namespace}::{name}"


def split(scoped: str) -> tuple[str, str]:
    """(model instance name, element name) of a scoped name."""
    namespace, sep, element = scoped.rpartition("::")
    return (namespace, element) if sep else ("", scoped)


class DirectivesRun:
    """Runs the directives of one file inside ``namespace``."""

    def __init__(self, source: DataSource, namespace: str, workspace: Workspace,
                 added: list[int]):
        self.source = source
        self.namespace = namespace
        self.ws = workspace
        self.plant = workspace.plant
        self.added = added
        self.directive: Directive | None = None
        # Names a failed directive would have made (only when errors are
        # collected): a later directive naming one is skipped, not reported
        # again as an unknown name.
        self.failed: set[str] = set()

    # ------------------------------------------------------------ reporting
    def error(self, message: str, line: int | None = None, code: str | None = None) -> NoReturn:
        """Raises a ParseError at the current directive (or ``line``)."""
        d = self.directive
        if d is not None:
            message = f"{d.kind}: {message}"
            line = line if line is not None else d.line
        if line is None:  # a problem of the file as a whole: its first line
            line = 1
        self.ws.diagnostic.error(message, self.source.name(), line,
                                 element=d.kind if d else None, code=code)

    # ------------------------------------------------------------ the file
    def run(self) -> None:
        key = os.path.abspath(self.source.filename) if self.source.is_file() else None
        if key is not None and key in self.ws.open_files:
            self.error("this directives file adds itself, directly or through other files "
                       "(an add_directives cycle)", code="include-cycle")
        try:
            data = self.source.read_bytes()
        except OSError as e:
            self.error(f"cannot read the file: {e.strerror}", 1, code="file-unreadable")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            self.error(f"the file is not UTF-8 text (byte {e.start} is not UTF-8)",
                       data.count(b"\n", 0, e.start) + 1, code="file-unreadable")
        try:
            document = load_document(text)
        except DmdSyntaxError as e:
            self.error(str(e), e.line, code=e.code or "dmd-syntax")
        for directive in document.directives:
            self.directive = directive
            self.validate(directive)
        self.directive = None
        if key is not None:
            self.ws.open_files.append(key)
        try:
            policy = self.ws.diagnostic
            for directive in document.directives:
                self.directive = directive
                if self.failed and _mentions(directive.fields, self.failed):
                    continue
                errors_before = len(policy.errors_seen)
                with policy.recovering():
                    try:
                        with declared_at(self.source.name(), directive.line):
                            getattr(self, directive.kind)(directive.fields)
                    except ModelError as e:
                        self.error(str(e), code=e.code)
                if len(policy.errors_seen) > errors_before:
                    self.failed |= _names_made_by(directive)
        finally:
            if key is not None:
                self.ws.open_files.remove(key)
        self.directive = None

    def validate(self, d: Directive) -> None:
        """The checks Drake makes on the whole file before running any of it."""
        f = d.fields
        for key in _REQUIRED[d.kind]:
            if not f[key]:
                self.error(f"'{key}' must be given and not empty", code="dmd-value-invalid")
        if d.kind == "add_frame" and (f["X_PF"] is None or not f["X_PF"].base_frame):
            self.error("'X_PF' must give a 'base_frame'", code="dmd-conflict")
        if d.kind == "add_weld" and f["X_PC"] is not None and f["X_PC"].base_frame:
            self.error("'X_PC' cannot give a 'base_frame': the pose is always taken in "
                       "the parent frame", f["X_PC"].line, code="dmd-conflict")
        if d.kind == "add_collision_filter_group" and not f["members"] \
                and not f["member_groups"]:
            self.error("at least one of 'members' or 'member_groups' must be non-empty",
                       code="dmd-structure")

    # ------------------------------------------------------------ names
    def frame(self, name: str):
        """The frame a (possibly scoped) name gives inside this namespace."""
        if name == WORLD:
            return self.plant.world_frame()
        namespace, element = split(join(self.namespace, name))
        plant = self.plant
        if namespace:
            if not plant.has_model_instance_named(namespace):
                self.error(f"frame '{name}' is looked for in model instance '{namespace}', "
                           f"but there is no model instance of that name",
                           code="dmd-unknown-model-instance")
            instance = plant.get_model_instance_by_name(namespace)
            if not plant.has_frame_named(element, instance):
                self.error(f"model instance '{namespace}' has no frame named '{element}'."
                           + _frame_typo(plant, element, instance), code="dmd-unknown-frame")
            return plant.get_frame_by_name(element, instance)
        return plant.get_frame_by_name(element)

    def resolve(self, uri: str) -> str:
        # As in Drake, files named in directives are resolved without a
        # folder: they must be package://, model:// or file:// URIs.
        path, problem = resolve_uri(uri, self.ws.package_map, root_dir="")
        if problem:
            self.error(problem, code=problem.code)
        return path

    # ------------------------------------------------------------ directives
    def add_model(self, f: dict) -> None:
        path = self.resolve(f["file"])
        problem = regular_file_problem(path)
        if problem is not None:
            self.error(f"the file cannot be read: {problem}", code="file-not-regular")
        reader = self.ws.select_reader(path)
        if reader is None or not hasattr(reader, "add_model"):
            self.error(f"'{path}' is not a model file mbparse can read (by its suffix)",
                       code="dmd-file-type")
        self._count_file(f["file"])
        instance = reader.add_model(DataSource(filename=path), f["name"],
                                    self.namespace or None, self.ws)
        if instance is None:
            return
        plant = self.plant
        for joint_name, (positions, line) in f["default_joint_positions"].items():
            if not plant.has_joint_named(joint_name, instance):
                self.error(f"model instance '{plant.get_model_instance_name(instance)}' has "
                           f"no joint named '{joint_name}' to give default positions."
                           + did_you_mean(joint_name, [j.name for j in plant.joints()
                                                       if j.model_instance == instance]),
                           line, code="dmd-unknown-joint")
            joint = plant.get_joint_by_name(joint_name, instance)
            try:
                joint.set_default_positions(positions)
            except ModelError as e:
                self.error(str(e), line, code=e.code)
        for child_name, pose in f["default_free_body_pose"].items():
            self.default_free_body_pose(instance, child_name, pose)
        self.added.append(instance)

    def default_free_body_pose(self, instance: int, child_name: str, pose: Pose) -> None:
        """Poses a body of the new model relative to ``base_frame`` (the
        world by default): a free-body pose when that is the world and the
        named frame is the body frame, else a floating joint between the
        two frames whose default pose is the one given."""
        plant = self.plant
        base = pose.base_frame or WORLD
        parent = plant.world_frame() if base == WORLD else self.frame(base)
        if child_name:
            if not plant.has_frame_named(child_name, instance):
                self.error(f"model instance '{plant.get_model_instance_name(instance)}' has "
                           f"no frame named '{child_name}' to give a default pose."
                           + _frame_typo(plant, child_name, instance), pose.line,
                           code="dmd-unknown-frame")
            child = plant.get_frame_by_name(child_name, instance)
        else:
            bodies = plant.get_bodies_in_model_instance(instance)
            if len(bodies) != 1:
                self.error(f"a default free-body pose with an empty name needs a model with "
                           f"exactly one body; model instance "
                           f"'{plant.get_model_instance_name(instance)}' has {len(bodies)}",
                           pose.line, code="dmd-structure")
            child = bodies[0].body_frame
        if parent is plant.world_frame() and child.X_BF.is_exactly_identity():
            plant.set_default_free_body_pose(child.body, pose.X)
            return
        joint_name = child.body.name
        while plant.has_joint_named(joint_name, instance):
            joint_name = "_" + joint_name
        joint = plant.add_joint_between_frames(QuaternionFloatingJoint, joint_name, parent,
                                               child)
        joint.set_default_positions(list(matrix_to_quaternion(pose.X.R)) + list(pose.X.p))

    def add_model_instance(self, f: dict) -> None:
        self.plant.add_model_instance(self.ws.make_model_name(f["name"], self.namespace or None))

    def add_frame(self, f: dict) -> None:
        pose: Pose = f["X_PF"]
        namespace, element = split(f["name"])
        instance = None
        if namespace:
            scoped = join(self.namespace, namespace)
            if not self.plant.has_model_instance_named(scoped):
                self.error(f"frame '{f['name']}' is to be added to model instance '{scoped}', "
                           f"but there is no model instance of that name",
                           code="dmd-unknown-model-instance")
            instance = self.plant.get_model_instance_by_name(scoped)
        parent = self.frame(pose.base_frame)  # type: ignore[arg-type]
        self.plant.add_frame(element, parent, pose.X, instance)

    def add_weld(self, f: dict) -> None:
        parent, child = self.frame(f["parent"]), self.frame(f["child"])
        if child.model_instance not in self.added:
            # Drake records each weld on the model an add_model made, and
            # fails when the child belongs to any other instance (a model
            # nested inside an added one, an add_model_instance, ...).
            self.error(f"the child frame '{f['child']}' belongs to model instance "
                       f"'{self.plant.get_model_instance_name(child.model_instance)}', which "
                       f"no add_model directive of this parse made; only such a model can be "
                       f"the child of a weld", code="dmd-unknown-model-instance")
        X_PC = f["X_PC"].X if f["X_PC"] is not None else RigidTransform()
        self.plant.add_joint_between_frames(WeldJoint, f"{parent.name}_welds_to_{child.name}",
                                            parent, child, X_PC)

    def add_collision_filter_group(self, f: dict) -> None:
        plant = self.plant
        if not plant.geometry_source_is_registered():
            return  # without geometry there is nothing to filter
        namespace = self.namespace or f["model_namespace"] or ""
        instance = None
        if namespace:
            if not plant.has_model_instance_named(namespace):
                self.error(f"the group's names are taken in model instance '{namespace}', but "
                           f"there is no model instance of that name",
                           code="dmd-unknown-model-instance")
            instance = plant.get_model_instance_by_name(namespace)
        line = self.directive.line if self.directive else None

        def report(message: str) -> None:
            self.ws.diagnostic.error(f"add_collision_filter_group: {message}",
                                     self.source.name(), line, code="collision-filter-group")

        resolver = self.ws.collision_resolver
        resolver.add_group(report, f["name"], set(f["members"]), set(f["member_groups"]),
                           instance)
        for ignored in f["ignored_collision_filter_groups"]:
            resolver.add_pair(report, f["name"], ignored, instance)

    def _count_file(self, uri: str) -> None:
        """Counts a file that add_model or add_directives is about to read
        against the parse's limit (see Workspace.include_another_file)."""
        problem = self.ws.include_another_file()
        if problem is not None:
            self.error(f"'{uri}' is not read: {problem}", code="size-limit")

    def add_directives(self, f: dict) -> None:
        namespace = join(self.namespace, f["model_namespace"] or "")
        if namespace and not self.plant.has_model_instance_named(namespace):
            self.error(f"the namespace '{namespace}' is not a model instance; add it first "
                       f"with add_model_instance", code="dmd-unknown-model-instance")
        path = self.resolve(f["file"])
        if os.path.abspath(path) in self.ws.open_files:
            self.error(f"'{f['file']}' is being read already: the directives files add each "
                       "other in a cycle", code="include-cycle")
        if len(self.ws.open_files) >= MAX_FILE_NESTING:
            self.error(f"add_directives files are nested more than {MAX_FILE_NESTING} deep; "
                       f"mbparse reads at most {MAX_FILE_NESTING} levels of files within files",
                       code="depth-limit")
        problem = regular_file_problem(path)
        if problem is not None:
            self.error(f"the file cannot be read: {problem}", code="file-not-regular")
        self._count_file(f["file"])
        DirectivesRun(DataSource(filename=path), namespace, self.ws, self.added).run()


# The fields each directive must give, not empty.
_REQUIRED = {"add_model": ("file", "name"), "add_model_instance": ("name",),
             "add_frame": ("name",), "add_weld": ("parent", "child"),
             "add_collision_filter_group": ("name",), "add_directives": ("file",)}


def _names_made_by(d: Directive) -> set[str]:
    """The model instance and frame names directive ``d`` makes."""
    key = {"add_model": "name", "add_model_instance": "name", "add_frame": "name",
           "add_directives": "model_namespace"}.get(d.kind)
    value = d.fields.get(key) if key else None
    return {value} if isinstance(value, str) and value else set()


def _mentions(value, names: set[str]) -> bool:
    """Whether ``value`` (directive fields) names one of ``names``, or a
    frame scoped in one."""
    if isinstance(value, str):
        return any(value == n or value.startswith(n + "::") or value.endswith("::" + n)
                   for n in names)
    if isinstance(value, dict):
        return any(_mentions(v, names) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_mentions(v, names) for v in value)
    if hasattr(value, "__dict__"):  # a pose, with its base frame
        return _mentions(vars(value), names)
    return False


def _frame_typo(plant, name: str, instance: int) -> str:
    """" Did you mean 'x'?" when ``name`` is a typo of a frame (body frames
    included) of model instance ``instance``."""
    return did_you_mean(name, [f.name for f in plant.frames() if f.model_instance == instance])
