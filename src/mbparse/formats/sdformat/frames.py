"""SDFormat frame semantics: the scopes of a document (the world and its
models, nested models), the frames each scope declares (links, joints,
explicit frames, nested models and the implicit ``__model__``), and the two
graphs libsdformat builds over them — *attached-to* (which body a frame is
fixed to) and *relative-to* (which frame a pose is expressed in) — with the
errors libsdformat reports for bad references and cycles.

Vertex ids are absolute scoped names inside the document: ``M``,
``M::link``, ``M::inner::frame``; the world is ``world``.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NoReturn

from ...numbers import shown
from ...records import Record
from ...spatial import RigidTransform
from ..common.suggest import did_you_mean, too_many
from ..common.xml import first_child
from . import values
from .diagnostic import SdfDiagnostic
from .gzpose import IDENTITY, IDENTITY_RELATIVE, ORIGIN, GzPose

WORLD = "world"
MODEL_FRAME = "__model__"
_new_pose = object.__new__


class Vertex(Record):
    """A frame of the graph: a link, joint, explicit frame, model (or
    included model) or the world, with what its element says of it.

    A record with slots rather than a dataclass: the scope builder makes one
    per frame of every document read."""

    __slots__ = ("id", "kind", "scope", "el", "attached_to", "relative_to", "X", "pose_el",
                 "inner_scope", "placement", "kids")
    _fields = __slots__

    def __init__(self, id: str, kind: str, scope: "Scope | None", el: object = None,
                 attached_to: str | None = None, relative_to: str | None = None,
                 X: RigidTransform | None = None, pose_el: object = None,
                 inner_scope: "Scope | None" = None, placement: str | None = None,
                 kids: dict | None = None):
        self.id = id
        self.kind = kind  # link, joint, frame, model, world, custom
        self.scope = scope
        self.el = el
        self.attached_to = attached_to  # a name in ``scope`` (None: the default)
        self.relative_to = relative_to  # a name in ``scope`` (None: the default)
        self.X = ORIGIN if X is None else X
        self.pose_el = pose_el
        self.inner_scope = inner_scope  # for model vertices: the model itself
        self.placement = placement  # for model vertices: the placement frame
        # For links and joints: the child index (lookup.child_index) of ``el``,
        # made when the scope builder read it, so the model builder walks the
        # children once more only to check them.
        self.kids = kids

    @property
    def scope_canonical(self) -> str | None:
        return self.inner_scope.canonical if self.inner_scope is not None else None

    def gz_pose(self) -> GzPose:
        """The raw pose with the squared norm of its written quaternion."""
        if self.pose_el is None and self.X is ORIGIN:
            return IDENTITY  # (no <pose>: the same values, shared)
        return GzPose(self.X, pose_quaternion_norm2(self.pose_el))


class Scope(Record):
    """A model (or the world) and what it declares (a record with slots, as
    :class:`Vertex`)."""

    __slots__ = ("path", "name", "el", "parent", "kind", "links", "joints", "frames", "models",
                 "static", "canonical", "version", "instance", "interface_links",
                 "custom_include", "kids", "first_children")
    _fields = __slots__

    def __init__(self, path: str, name: str, el: object, parent: "Scope | None",
                 kind: str = "model", kids: list | None = None,
                 first_children: dict | None = None):
        self.path = path  # vertex id of the model ('' for the world)
        self.name = name
        self.el = el
        self.parent = parent
        self.kind = kind  # model, world, custom
        self.links: list = []
        self.joints: list = []
        self.frames: list = []
        self.models: list[Scope] = []
        self.static = False
        self.canonical: str | None = None  # vertex id of the canonical link
        self.version: tuple[int, int] = (1, 12)
        self.instance: int | None = None  # filled by the builder
        self.interface_links: list = []  # merged from URDF/MJCF
        self.custom_include: object = None  # the <include> of a URDF/MJCF model
        # For a model: (tag, child) for each child of its element, and the
        # first child of each tag, as the scope builder walked them (the model
        # builder walks them no more; the tree does not change in between).
        self.kids = kids
        self.first_children = first_children

    def vertex_id(self, local: str) -> str:
        return f"{self.path}::{local}" if self.path else local

    def describe(self) -> str:
        return f"{'world' if self.kind == 'world' else 'model'} '{self.name}'"


class FrameGraph:
    """The frames of one document and the poses between them."""

    def __init__(self, diag: SdfDiagnostic):
        self.diag = diag
        self.vertices: dict[str, Vertex] = {}
        self._scope_pose: dict[str, GzPose] = {}
        self._nested: dict[tuple[int, str], GzPose] = {}  # (see _nested_pose)
        self._visiting: set[str] = set()
        self._body_of: dict[str, str] = {}  # frame -> the link (or world) it is fixed to
        # The answers of gz_pose_in and gz_relative: the builder asks for the
        # same poses several times (a link's pose in the world for its body,
        # its static weld, the frames and joints on it).
        self._pose_in: dict[tuple, GzPose] = {}
        self._relative: dict[tuple, GzPose] = {}

    # ------------------------------------------------------------ building
    def add(self, vertex: Vertex) -> None:
        self.vertices[vertex.id] = vertex

    def release(self) -> None:
        """Takes out the references from each vertex to its scopes and from
        each scope to its parent, the two that close cycles (a scope lists
        its vertices and nested scopes), once the graph is no longer asked:
        what remains is freed by reference counting (see SdfReader.release)."""
        for v in self.vertices.values():
            for scope in (v.scope, v.inner_scope):
                if scope is not None:
                    scope.parent = None
            v.scope = v.inner_scope = None

    def resolve(self, scope: Scope, name: str, el, what: str) -> str:
        """The vertex a name used in ``scope`` refers to; unknown names are errors."""
        if name == "__root__":
            self.diag.error(el, f"'{name}' is reserved; it cannot be used as {what}.",
                            code="sdf-name-reserved")
        if name == MODEL_FRAME:
            return scope.path or WORLD
        if scope.kind == "world" and name == WORLD:
            return WORLD
        if name.endswith("::" + MODEL_FRAME):
            name = name[: -len("::" + MODEL_FRAME)]
        vid = scope.vertex_id(name)
        if vid not in self.vertices or vid == scope.path:
            kinds = ("a model or frame" if scope.kind == "world"
                     else "a nested model, link, joint, or frame")
            self.diag.error(el, f"{what} '{name}' does not name {kinds} in "
                                f"{scope.describe()}.{self._suggestion(name, scope)}",
                            code="sdf-unknown-reference")
        return vid

    def _suggestion(self, name: str, scope: Scope) -> str:
        """" Did you mean 'x'?" for a frame declared in ``scope``."""
        if too_many(len(self.vertices)):
            return ""
        return did_you_mean(name, self.local_names(scope))

    def local_names(self, scope: Scope) -> list[str]:
        """The names of the frames declared directly in ``scope``."""
        prefix = f"{scope.path}::" if scope.path else ""
        return [v.id[len(prefix):] for v in self.vertices.values()
                if v.scope is scope and v.id.startswith(prefix)
                and "::" not in v.id[len(prefix):]]

    # ------------------------------------------------------------ attached-to
    def attached_target(self, v: Vertex) -> str | None:
        """The vertex ``v`` is attached to (None for bodies and the world)."""
        if v.kind in ("link", "world"):
            return None
        scope = v.scope
        if v.kind == "model":
            return v.scope_canonical
        if v.kind == "custom":
            return v.scope_canonical
        target = v.attached_to
        if v.kind == "frame" and not target:
            return scope.path or WORLD
        return self.resolve(scope, target, v.el, "attached_to" if v.kind == "frame"
                            else "child frame")

    def body_of(self, vid: str) -> str:
        """The link (or world) a frame is ultimately fixed to."""
        known = self._body_of
        walked: dict[str, None] = {}  # (in walking order)
        current = vid
        while True:
            body = known.get(current)
            if body is not None:
                break
            v = self.vertices[current]
            if v.kind in ("link", "world"):
                body = current
                break
            if current in walked:
                self.diag.error(self.vertices[vid].el, f"The attached_to references form a "
                                                       f"cycle through '{current}'.",
                                code="sdf-frame-cycle")
            walked[current] = None
            target = self.attached_target(v)
            if target is None:
                self.diag.error(v.el, f"Model '{current}' has no canonical link.",
                                code="sdf-unknown-reference")
            current = target
        for frame in walked:  # (a chain walked once: each frame on it is fixed to the same body)
            known[frame] = body
        return body

    # ------------------------------------------------------------ relative-to
    def relative_target(self, v: Vertex) -> str:
        scope = v.scope
        if v.relative_to:
            return self.resolve(scope, v.relative_to, v.pose_el if v.pose_el is not None
                                else v.el, "relative_to")
        if v.kind == "joint":
            return self.resolve(scope, v.attached_to, v.el, "child frame")
        if v.kind == "frame" and v.attached_to:
            return self.resolve(scope, v.attached_to, v.el, "attached_to")
        return scope.path or WORLD

    def pose_in_scope(self, vid: str) -> GzPose:
        """X_SV: the pose of vertex ``vid`` in the frame of its scope S (for a
        model vertex, S is the enclosing scope), as libsdformat computes it."""
        cached = self._scope_pose.get(vid)
        if cached is not None:
            return cached
        v = self.vertices[vid]
        kind = v.kind
        if kind == "world":
            return IDENTITY
        if not (v.relative_to or v.placement is not None or kind == "joint"
                or (kind == "frame" and v.attached_to)):
            return self._pose_in_own_frame(vid, v)
        if self._visiting:
            return self._pose_in_scope(vid, v)
        target = self.relative_target(v)  # (what _poses_it_needs_first asks first)
        if not self._posed_on_known(v, target):
            self._poses_it_needs_first(vid)
        return self._pose_in_scope(vid, v, target)

    def _posed_on_known(self, v: Vertex, target: str) -> bool:
        """Whether ``v``, posed relative to vertex ``target``, needs no pose
        but one already known (or its scope's own frame): most joints, on
        their child link, and frames, on the link they are attached to;
        :meth:`_poses_it_needs_first` would then find nothing to compute."""
        if v.placement is not None:
            return False
        scope = v.scope
        return target == (scope.path or WORLD) or (
            target in self._scope_pose and self.vertices[target].scope is scope)

    def _pose_in_own_frame(self, vid: str, v: Vertex) -> GzPose:
        """:meth:`_pose_in_scope` of a vertex posed in its scope's own frame
        (most links and models): made of no other pose, so with no reference
        to resolve and no cycle to watch for; the identity composed with its
        raw pose, ``IDENTITY @ v.gz_pose()``, written out."""
        scope = v.scope
        if vid == (scope.path or WORLD):
            self.diag.error(v.el, f"'{vid}' is posed relative to itself.",
                            code="sdf-frame-cycle")
        pose_el = v.pose_el
        if pose_el is None and v.X is ORIGIN:
            X = IDENTITY  # (IDENTITY @ IDENTITY: itself, bit for bit)
        else:
            X = _new_pose(GzPose)
            X.X = ORIGIN @ v.X
            X.s = pose_quaternion_norm2(pose_el)  # (IDENTITY.s, 1.0, times it: itself)
            X._inverse = None
            self._require_finite(X, v, scope)
        self._scope_pose[vid] = X
        return X

    def _poses_it_needs_first(self, vid: str) -> None:
        """Computes, deepest first and without nested calls, the poses that
        the pose of ``vid`` is made from (what it is posed relative to, the
        models around that, its placement frame, and theirs in turn): a chain
        of thousands of frames or models each posed relative to one declared
        after it then costs no deeper calls than one link of it. Asks for
        them in the order the computation itself does, so that the first
        error is the same, and reports a cycle as it would: at the first
        vertex met twice."""
        on_stack = {vid}
        stack = [(vid, self._pose_inputs(vid, self.vertices[vid]))]
        while stack:
            current, inputs = stack[-1]
            for needed in inputs:
                if needed in self._scope_pose:
                    continue
                v = self.vertices[needed]
                if v.kind == "world":
                    continue
                if needed in on_stack:
                    self._relative_to_cycle(needed, v)
                on_stack.add(needed)
                stack.append((needed, self._pose_inputs(needed, v)))
                break
            else:
                stack.pop()
                on_stack.discard(current)
                if stack:  # (``vid`` itself is left to the caller)
                    self._pose_in_scope(current, self.vertices[current])

    def _relative_to_cycle(self, vid: str, v: Vertex) -> NoReturn:
        self.diag.error(v.el, f"The relative_to references form a cycle through '{vid}'.",
                        code="sdf-frame-cycle")

    def _pose_inputs(self, vid: str, v: Vertex) -> Iterator[str]:
        """The vertices whose poses in their scopes :meth:`_pose_in_scope`
        reads to pose ``vid``, in its order (nothing when ``vid`` is posed
        relative to itself, which that method reports)."""
        target = self.relative_target(v)
        if target == vid:
            return
        yield from self._pose_in_inputs(v.scope, target)
        if v.kind in ("model", "custom") and v.placement is not None:
            inner = v.inner_scope
            yield from self._pose_in_inputs(
                inner, self.resolve(inner, v.placement, v.el, "placement_frame"))

    def _pose_in_inputs(self, scope: Scope, vid: str) -> list[str]:
        """The vertices whose poses :meth:`gz_pose_in` composes, in its order."""
        if vid == (scope.path or WORLD):
            return []
        owner = self.vertices[vid].scope
        chain = []
        while owner is not None and owner is not scope:
            chain.append(owner.path)
            owner = owner.parent
        return [*reversed(chain), vid]

    def _pose_in_scope(self, vid: str, v: Vertex, target: str | None = None) -> GzPose:
        """(``target``: :meth:`relative_target` of ``v``, when the caller has it.)"""
        cached = self._scope_pose.get(vid)
        if cached is not None:
            return cached
        if vid in self._visiting:
            self._relative_to_cycle(vid, v)
        self._visiting.add(vid)
        try:
            scope = v.scope
            if target is None:
                target = self.relative_target(v)
            if target == vid:
                self.diag.error(v.el, f"'{vid}' is posed relative to itself.",
                                code="sdf-frame-cycle")
            # (posed in its scope's own frame, the usual case: the identity,
            # without gz_pose_in's key and lookup)
            X = (IDENTITY if target == (scope.path or WORLD)
                 else self.gz_pose_in(scope, target)) @ v.gz_pose()
            if v.kind in ("model", "custom") and v.placement is not None:
                inner = v.inner_scope
                placement = self.resolve(inner, v.placement, v.el, "placement_frame")
                X = X @ self.gz_pose_in(inner, placement).inverse()
            self._require_finite(X, v, scope)
        finally:
            self._visiting.discard(vid)
        self._scope_pose[vid] = X
        return X

    def pose_in(self, scope: Scope, vid: str) -> RigidTransform:
        """X_SV for a vertex in ``scope`` or in a model nested inside it."""
        X = self._pose_in.get((scope, vid))  # (asked again: no call)
        return (X if X is not None else self.gz_pose_in(scope, vid)).X

    def gz_pose_in(self, scope: Scope, vid: str) -> GzPose:
        """X_SV (see :meth:`pose_in`) with its quaternion norm."""
        key = (scope, vid)
        X = self._pose_in.get(key)
        if X is not None:
            return X
        if vid == (scope.path or WORLD):
            return IDENTITY
        owner = self.vertices[vid].scope
        if owner is scope:
            X = self._scope_pose.get(vid)
            if X is None:
                X = self.pose_in_scope(vid)
        else:
            # v lies in a nested model N of scope: X_SV = X_SN · X_NV.
            X_SN = self._nested.get((id(scope), owner.path))  # (known: no call)
            if X_SN is None:
                X_SN = self._nested_pose(scope, owner)
            X = X_SN @ self.pose_in_scope(vid)
        self._pose_in[key] = X
        return X

    def _nested_pose(self, scope: Scope, nested: Scope) -> GzPose:
        """X_SN for a model N nested (at any depth) in ``scope``: the
        identity composed with the pose of each model from the outermost in.
        Each such product is kept: every frame of a model nested hundreds
        deep would otherwise compose the whole chain again."""
        chain = []
        X = None
        while nested is not None and nested is not scope:
            X = self._nested.get((id(scope), nested.path))
            if X is not None:
                break
            chain.append(nested)
            nested = nested.parent
        if X is None:
            X = IDENTITY
        for model in reversed(chain):
            X = X @ self.pose_in_scope(model.path)
            self._require_finite(X, self.vertices[model.path], scope)
            self._nested[(id(scope), model.path)] = X
        return X

    def contains(self, scope: Scope, vid: str) -> bool:
        """Whether vertex ``vid`` belongs to ``scope`` or to a model nested in it."""
        if vid == (scope.path or WORLD):
            return True
        owner = self.vertices[vid].scope
        while owner is not None and owner is not scope:
            owner = owner.parent
        return owner is scope

    def relative_in(self, scope: Scope, vid: str, base: str, root: Scope) -> RigidTransform:
        """X_BV resolved as libsdformat resolves it in ``scope`` (whose frame
        is the root of the composition) when both vertices belong to it (or
        to models nested in it); otherwise composed from ``root``."""
        key = (scope, vid, base)
        X = self._relative.get(key)  # (asked again: no call)
        if X is not None:
            return X.X
        vertices = self.vertices
        # (most vertices are the scope's own: contains() is then true)
        if ((vertices[vid].scope is scope or self.contains(scope, vid))
                and (vertices[base].scope is scope or self.contains(scope, base))):
            return self._relative_pose(key, scope, vid, base).X
        return self.pose_in(root, base).inverse() @ self.pose_in(root, vid)

    def gz_relative(self, scope: Scope, vid: str, base: str) -> GzPose:
        """X_BV for two vertices of ``scope`` (or nested in it), as
        libsdformat resolves a pose: both from the scope's frame, then the
        inverse of the one composed with the other."""
        key = (scope, vid, base)
        X = self._relative.get(key)
        return X if X is not None else self._relative_pose(key, scope, vid, base)

    def _relative_pose(self, key: tuple, scope: Scope, vid: str, base: str) -> GzPose:
        """:meth:`gz_relative` not asked before (``key``: its key)."""
        # The scope's own vertices (most) are posed in it by pose_in_scope's
        # answer, which gz_pose_in would look up after its own: found first.
        vertices = self.vertices
        known = self._scope_pose
        X_SB = known.get(base) if vertices[base].scope is scope else None
        if X_SB is None:
            X_SB = self.gz_pose_in(scope, base)
        X_SV = known.get(vid) if vertices[vid].scope is scope else None
        if X_SV is None:
            X_SV = self.gz_pose_in(scope, vid)
        if X_SB is IDENTITY and X_SV is IDENTITY:
            X = IDENTITY_RELATIVE  # (the same product, made once)
        else:
            X = X_SB.inverse() @ X_SV
            self._require_finite(X, vertices[vid], None, base)
        self._relative[key] = X
        return X

    def _require_finite(self, X: GzPose, v: Vertex, scope: Scope | None,
                        base: str | None = None) -> GzPose:
        """``X`` when its numbers are finite. Poses that are each finite can
        add up past what a double holds (1e308 relative to a frame at 1e308):
        the result is infinite or NaN, which libsdformat and Drake keep
        silently; here it is a located error."""
        p = X.X.p
        isfinite = math.isfinite  # (all_finite, inline: poses are checked by the thousand)
        if isfinite(p[0]) and isfinite(p[1]) and isfinite(p[2]) and isfinite(X.s):
            return X
        # (the message is made only here: poses are checked by the thousand)
        where = f"in {scope.describe()}" if scope is not None else f"relative to '{base}'"
        self.diag.error(v.pose_el if v.pose_el is not None else v.el,
                        f"The pose of '{v.id}' {where} is not finite {shown(p)}: the poses it "
                        "is composed of add up past what a double holds; give smaller "
                        "numbers.", code="number-not-finite")


def pose_quaternion_norm2(pose_el) -> float:
    """The squared norm of the quaternion a ``<pose>`` holds (1 when none)."""
    if pose_el is None or pose_el.get("rotation_format") != "quat_xyzw":
        return 1.0
    try:
        return values.parse_pose_with_norm(pose_el.text or "", "quat_xyzw")[1]
    except ValueError:
        return 1.0


def read_pose(diag: SdfDiagnostic, el, kids: dict | None = None
              ) -> tuple[RigidTransform, str | None, object]:
    """The ``<pose>`` child of ``el``: (X, relative_to or None, the element);
    ``kids``: the child index of ``el``, when the caller has it."""
    pose = first_child(el, "pose") if kids is None else kids.get("pose")
    if pose is None:
        return ORIGIN, None, None
    try:
        X = diag.pose(pose)
    except ValueError:
        if diag.policy.collect_errors:
            # check: the document check has reported the value already;
            # the element is placed at its frame's origin so reading goes on.
            return RigidTransform(), (pose.get("relative_to") or None), pose
        diag.error(pose, f"Cannot read the pose '{pose.text}'.", code="sdf-value-invalid")
    return X, (pose.get("relative_to") or None), pose
