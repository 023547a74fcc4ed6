"""From the checked element tree to scopes and frame-graph vertices, with
libsdformat's document rules: unique sibling names, reserved names, joint
parent/child rules, canonical links, merge-includes (a proxy frame
``_merged__NAME__model__`` stands for the merged model's frame)."""
from __future__ import annotations

from typing import Callable

from lxml import etree

from ...diagnostics import ParseError
from ..common.xml import first_child
from .lookup import all_named, child_index
from .diagnostic import SdfDiagnostic
from .document import VERSION_ATTR, parse_version
from .frames import MODEL_FRAME, WORLD, FrameGraph, Scope, Vertex, read_pose
from . import values

NAMED_MODEL_CHILDREN = ("link", "joint", "frame", "model", "gripper", "include")
NAMED_WORLD_CHILDREN = ("model", "frame", "joint", "light", "actor", "population",
                        "road")
# Reader of a URDF/MJCF <include>: (scope of the parent, include element) -> Scope.
CustomReader = Callable[[Scope, object], "Scope | None"]


def _text(el) -> str:
    """The stripped text of ``el`` ('' when there is none or no element)."""
    return (el.text or "").strip() if el is not None else ""


def _tagged(el) -> list[tuple]:
    """(tag, child) for each child of ``el``: the children of a model or
    world are gone through in several passes, each needing the tags."""
    return [(child.tag, child) for child in el]


def _first_of_each(kids: list[tuple]) -> dict:
    """The first child of each tag among the :func:`_tagged` children: a
    plain name maps to what ``el.find(name)`` finds (one lxml ``find``
    costs more than this whole walk over a model's children)."""
    first: dict = {}
    for tag, child in kids:
        if tag not in first:
            first[tag] = child
    return first


def is_reserved(name: str) -> bool:
    return name == WORLD or (len(name) >= 4 and name.startswith("__") and name.endswith("__"))


def proxy_frame_name(model_name: str) -> str:
    return f"_merged__{model_name}__model__"


class ScopeBuilder:
    """Builds the scopes and the frame graph of one document."""

    def __init__(self, diag: SdfDiagnostic, graph: FrameGraph, custom_reader: CustomReader):
        self.diag = diag
        self.graph = graph
        self.custom_reader = custom_reader
        # The SDFormat version each element visited by _version_of is read
        # in: a model nested hundreds deep asks once, not once per level.
        self._versions: dict = {}
        # Elements not read: the later of two children of one name, while
        # collecting errors (the library stops at the first).
        self.left_out: set = set()

    def world(self, el) -> Scope:
        scope = Scope("", el.get("name", ""), el, None, kind="world")
        self.graph.add(Vertex(WORLD, "world", scope, el))
        self.rename_world_models(el, scope)
        # (what follows changes no child of el, only their insides)
        kids = _tagged(el)
        self.unique_names(el, NAMED_WORLD_CHILDREN, scope, kids)
        self.nested_models(el, scope, kids)
        self.read_children(el, scope, ("frame",), ("joint",), kids=kids)
        return scope

    def nested_models(self, el, scope: Scope, kids: list[tuple] | None = None) -> None:
        """The models and includes of a world (read as :meth:`model` reads
        those of a model; ``kids``: the :func:`_tagged` children of ``el``)."""
        for tag, child in (_tagged(el) if kids is None else kids):
            if (tag == "model" or tag == "include") and child not in self.left_out:
                with self.diag.policy.recovering():
                    if tag == "model":
                        self.model(child, scope)
                    else:
                        self.custom(child, scope)

    def read_children(self, el, scope: Scope, *passes: tuple[str, ...],
                      kids: list[tuple] | None = None) -> None:
        """Reads the children of ``el`` into ``scope``, one pass per tuple of
        tags (in document order within a pass; ``kids``: the :func:`_tagged`
        children of ``el``, when the caller has them); while collecting errors, an
        error in one child is recorded and reading goes on with the next.
        Nested models are read by :meth:`model` itself, not here: models
        nest hundreds deep, and a helper between two levels would double the
        depth of the call stack."""
        # (try/except ParseError rather than ``with recovering()``: no
        # context object per child)
        recovered = self.diag.policy.recovered
        left_out = self.left_out
        if kids is None:
            kids = _tagged(el)
        for tags in passes:
            for tag, child in kids:
                if tag in tags and child not in left_out:
                    try:
                        if tag == "include":
                            self.custom(child, scope)
                        elif tag == "link":
                            self.link(child, scope)
                        elif tag == "joint":
                            self.joint(child, scope)
                        else:
                            self.frame(child, scope)
                    except ParseError as e:
                        if not recovered(e):
                            raise

    def rename_world_models(self, el, scope: Scope) -> None:
        """Two ``<model>``s of one name in a world (pybullet's kuka_iiwa
        model2.sdf places two arms): in the default mode each later one is
        renamed, unless another kind of child has the name too (then
        :meth:`unique_names` refuses it in both modes)."""
        if self.diag.policy.like_drake:
            return
        models = [c for c in el if c.tag == "model"]
        others = {c.get("name") for c in el if c.tag in NAMED_WORLD_CHILDREN and c.tag != "model"}
        self.rename_later_duplicates(
            el, [m for m in models if m.get("name") not in others], "model",
            lambda n: f"The name '{n}' is used by more than one model in {scope.describe()}; "
                      "names must be unique.")

    def root_model(self, el) -> Scope:
        world = Scope("", "", None, None, kind="world")
        self.graph.add(Vertex(WORLD, "world", world, el))
        pose = first_child(el, "pose")
        if pose is not None and pose.get("relative_to"):
            self.diag.error(pose, "The pose of a top-level model may not have a relative_to "
                                  "attribute.", code="sdf-conflict")
        return self.model(el, world)

    # ------------------------------------------------------------ models
    def model(self, el, parent: Scope) -> Scope:
        diag = self.diag
        kids = _tagged(el)
        if self.merge_children(el, kids):
            kids = _tagged(el)
        if self.leave_out_placeholder_world_link(el, kids):
            kids = _tagged(el)
        # (what follows changes no child of el, only their insides)
        first = _first_of_each(kids)
        name = el.get("name", "")
        if is_reserved(name):
            diag.error(el, f"The model name '{name}' is reserved.", code="sdf-name-reserved")
        scope = Scope(parent.vertex_id(name), name, el, parent, kids=kids, first_children=first)
        scope.version = parse_version(_version_of(el, self._versions))
        static_el = first.get("static")
        # An empty <static> is its default, false (the schema check reads only
        # values that are written).
        scope.static = static_el is not None and diag.checked(
            static_el, "bool", lambda: values.parse_bool(_text(static_el) or "false"), False)
        X, relative_to, pose_el = read_pose(diag, el, first)
        vertex = Vertex(scope.path, "model", parent, el, relative_to=relative_to, X=X,
                        pose_el=pose_el, inner_scope=scope,
                        placement=el.get("placement_frame") or None)
        self.graph.add(vertex)
        parent.models.append(scope)
        self.unique_names(el, NAMED_MODEL_CHILDREN, scope, kids)
        recovering = diag.policy.recovering
        for tag, child in kids:  # (nested models: in this frame, see read_children)
            if (tag == "model" or tag == "include") and child not in self.left_out:
                with recovering():
                    if tag == "model":
                        self.model(child, scope)
                    else:
                        self.custom(child, scope)
        self.read_children(el, scope, ("link",), ("joint",), ("frame",), kids=kids)
        self.canonical_link(scope)
        return scope

    def leave_out_placeholder_world_link(self, el, kids: list[tuple]) -> bool:
        """pybullet's gripper files declare a ``<link name='world'>``.
        libsdformat (and Drake) refuse the reserved name. pybullet reads it
        as an ordinary link: without a mass it is the fixed base, with one
        (``*_free_base.sdf``) the free-floating base of the gripper. The
        default mode does the same: it leaves an empty one out, so that a
        joint's 'world' names the world frame (an empty 'world' that is the
        model's only link stays refused); one with contents it renames (see
        :meth:`rename_world_link`). ``kids``: the :func:`_tagged` children of
        ``el``; returns whether a link was left out (they are then stale)."""
        links = [child for tag, child in kids if tag == "link"]
        removed = False
        for link in links:
            if link.get("name") != WORLD:
                continue
            if any(isinstance(c.tag, str) for c in link):
                self.rename_world_link(el, link)
            elif len(links) > 1:
                self.diag.drake_refuses(link, f"The link name '{WORLD}' is reserved.",
                                        "mbparse leaves this empty link out, so 'world' names "
                                        "the world frame", code="sdf-name-reserved")
                el.remove(link)
                removed = True
        return removed

    def rename_world_link(self, el, link) -> None:
        """A ``<link name='world'>`` with contents, in the default mode:
        renamed ``world_link`` (or ``world_link_N``, a free name), and the
        joints of its model that name 'world' as parent or child join that
        link, as in pybullet. Drake's mode refuses the name."""
        message = f"The link name '{WORLD}' is reserved."
        if self.diag.policy.like_drake:
            self.diag.error(link, message, code="sdf-name-reserved")
        taken = {c.get("name") for c in el if isinstance(c.tag, str)}
        new, n = "world_link", 0
        while new in taken:
            n += 1
            new = f"world_link_{n}"
        ends = [(joint, end) for joint in el.findall("joint")
                for end in (joint.find("parent"), joint.find("child"))
                if end is not None and (end.text or "").strip() == WORLD]
        names = ", ".join(dict.fromkeys(f"'{joint.get('name')}'" for joint, _ in ends))
        joined = f"; the joints of this model that name 'world' ({names}) join it" \
            if ends else ""
        self.diag.warning(link, f"{message} [Drake refuses this; this link has contents, so "
                                f"mbparse reads it as pybullet does, as an ordinary link, renamed "
                                f"'{new}'{joined}: rename the link]",
                          code="sdf-world-link-renamed")
        link.set("name", new)
        for _, end in ends:
            end.text = new

    def custom(self, el, parent: Scope) -> None:
        sub = self.custom_reader(parent, el)
        if sub is not None:
            parent.models.append(sub)

    def canonical_link(self, scope: Scope) -> None:
        el = scope.el
        name = el.get("canonical_link")
        if name:
            vid = scope.vertex_id(name)
            v = self.graph.vertices.get(vid)
            if v is None or v.kind != "link":
                self.diag.error(el, f"canonical_link '{name}' is not a link of model "
                                    f"'{scope.name}'.", code="sdf-unknown-reference")
            scope.canonical = vid
        elif scope.links:
            scope.canonical = scope.links[0].id
        else:
            for nested in scope.models:
                if nested.canonical is not None:
                    scope.canonical = nested.canonical
                    break
        if (scope.canonical is None and not scope.static and not scope.links
                and not scope.models and not scope.interface_links):
            self.diag.error(el, "A model must have at least one link.", code="sdf-structure")

    def unique_names(self, el, tags: tuple[str, ...], scope: Scope,
                     kids: list[tuple] | None = None) -> None:
        """libsdformat refuses two children of ``el`` (of ``tags``) that share
        a name: an error at each later one. While collecting errors
        (``mbparse check``) each is recorded and the later ones are left out
        (:attr:`left_out`), so that the rest of the model is still read."""
        first: dict[str, object] = {}
        later: list = []
        counts: dict[str, int] = {}
        for tag, child in (_tagged(el) if kids is None else kids):
            if tag in tags and tag != "include":
                name = child.get("name")
                if name is None:
                    continue
                counts[name] = counts.get(name, 0) + 1
                if name in first:
                    later.append(child)
                else:
                    first[name] = child
        for child in later:
            name = child.get("name")
            earlier = first[name]
            with self.diag.policy.recovering():
                self.diag.error(child, f"The name '{name}' is used {counts[name]} times among "
                                       f"the children of {scope.describe()} (first by the "
                                       f"<{earlier.tag}> at line {earlier.sourceline}); names "
                                       "must be unique.", code="name-duplicate")
            self.left_out.add(child)  # (reached only while collecting errors)

    # ------------------------------------------------------------ elements
    def link(self, el, scope: Scope) -> None:
        name = el.get("name", "")
        if is_reserved(name):
            self.diag.error(el, f"The link name '{name}' is reserved.", code="sdf-name-reserved")
        kids = child_index(el)
        # (with as many children as names, or with none of a tag, each
        # visual or collision is alone: there is nothing to compare)
        if len(el) != len(kids):
            for tag in ("visual", "collision"):
                if tag in kids:
                    self.unique_geometry_names(el, name, tag)
        X, relative_to, pose_el = read_pose(self.diag, el, kids)
        v = Vertex(scope.vertex_id(name), "link", scope, el, relative_to=relative_to, X=X,
                   pose_el=pose_el, kids=kids)
        self.graph.add(v)
        scope.links.append(v)

    def unique_geometry_names(self, el, link_name: str, tag: str) -> None:
        """libsdformat (and Drake) refuse two visuals or two collisions of one
        name in a link; the default mode renames each later one (pybullet's
        kiva_shelf names its 20 collision boxes alike)."""
        elements = all_named(el, tag)
        if len(elements) > 1:  # (one alone has no name to share)
            self.rename_later_duplicates(
                el, elements, tag,
                lambda n: f"{tag} name '{n}' is used more than once in link '{link_name}'.")

    def rename_later_duplicates(self, el, elements, what: str, message) -> None:
        """Drake's mode: an error at ``el`` for a name two of ``elements``
        share. The default mode renames each later one ``NAME_1``,
        ``NAME_2``, ... (a name none of them has) with a located warning."""
        names = [c.get("name") for c in elements]
        taken = set(names)
        seen: set = set()
        # The suffix to try next for each name (names are only added, so a
        # search goes on where the last one stopped: linear in duplicates).
        next_suffix: dict[str, int] = {}
        for child, n in zip(elements, names):
            if n not in seen:
                seen.add(n)
                continue
            if self.diag.policy.like_drake:
                self.diag.error(el, message(n), code="name-duplicate")
            suffix = next_suffix.get(n, 1)
            while f"{n}_{suffix}" in taken:
                suffix += 1
            next_suffix[n] = suffix + 1
            new = f"{n}_{suffix}"
            self.diag.drake_refuses(child, message(n), f"mbparse names this {what} '{new}'",
                                    code="name-duplicate")
            child.set("name", new)
            taken.add(new)

    def frame(self, el, scope: Scope) -> None:
        name = el.get("name", "")
        if is_reserved(name):
            self.diag.error(el, f"The frame name '{name}' is reserved.", code="sdf-name-reserved")
        X, relative_to, pose_el = read_pose(self.diag, el)
        v = Vertex(scope.vertex_id(name), "frame", scope, el,
                   attached_to=el.get("attached_to") or None, relative_to=relative_to, X=X,
                   pose_el=pose_el)
        self.graph.add(v)
        scope.frames.append(v)

    def joint(self, el, scope: Scope) -> None:
        diag = self.diag
        name = el.get("name", "")
        if is_reserved(name):
            diag.error(el, f"The joint name '{name}' is reserved.", code="sdf-name-reserved")
        kids = child_index(el)
        parent = _text(kids.get("parent"))
        child = _text(kids.get("child"))
        if child == WORLD:
            diag.error(el, f"Joint '{name}' names the world as its child.", code="joint-same-body")
        if parent == child:
            diag.error(el, f"Joint '{name}' names '{parent}' as both its parent and its "
                           "child.", code="joint-same-body")
        if parent == name:
            diag.error(el, f"Joint '{name}' names itself as its parent.", code="joint-same-body")
        X, relative_to, pose_el = read_pose(diag, el, kids)
        v = Vertex(scope.vertex_id(name), "joint", scope, el, attached_to=child,
                   relative_to=relative_to, X=X, pose_el=pose_el, kids=kids)
        self.graph.add(v)
        scope.joints.append(v)

    # ------------------------------------------------------------ merge-include
    def merge_children(self, el, kids: list[tuple] | None = None) -> bool:
        """Merges every ``<model mbparse-merge="true">`` child into ``el``
        (``kids``: its :func:`_tagged` children, when the caller has them);
        returns whether one was (the children of ``el`` then changed)."""
        merged = False
        for tag, child in (_tagged(el) if kids is None else kids):
            if tag == "model" and child.get("mbparse-merge") == "true":
                self.merge(el, child)
                merged = True
        return merged

    def merge(self, parent, model) -> None:
        self.merge_children(model)
        name = model.get("name", "")
        proxy = proxy_frame_name(name)
        canonical = model.get("canonical_link")
        if not canonical:
            first = first_child(model, "link")
            if first is not None:
                canonical = first.get("name")
            else:
                nested = first_child(model, "model")
                if nested is not None:
                    inner = first_child(nested, "link")
                    canonical = f"{nested.get('name')}::{inner.get('name')}" if (
                        inner is not None) else None
        if canonical is None:
            self.diag.error(model, f"The merge-included model '{name}' has no link.",
                            code="sdf-structure")
        if model.get("placement_frame"):
            self.diag.error(model, "A placement_frame on a merge-include is not supported by "
                                   "mbparse.", code="sdf-not-supported")
        frame = etree.Element("frame", name=proxy, attached_to=canonical)
        frame.sourceline = model.sourceline
        pose = first_child(model, "pose")
        new_pose = etree.SubElement(frame, "pose")
        if pose is not None:
            new_pose.text = pose.text
            for key in ("degrees", "rotation_format"):
                if pose.get(key) is not None:
                    new_pose.set(key, pose.get(key))
        relative_to = pose.get("relative_to") if pose is not None else None
        new_pose.set("relative_to", relative_to or (MODEL_FRAME if parent.tag == "model"
                                                    else WORLD))
        model.addprevious(frame)  # (as parent.insert at the model's index)

        def retarget(node, attribute, if_empty):
            if node is None:
                return
            value = node.get(attribute)
            if value == MODEL_FRAME or (if_empty and not value):
                node.set(attribute, proxy)

        moved = []
        for child in model:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag in ("link", "model"):
                p = first_child(child, "pose")
                if p is None:
                    p = etree.SubElement(child, "pose")
                retarget(p, "relative_to", True)
            elif tag == "frame":
                retarget(child, "attached_to", True)
                retarget(first_child(child, "pose"), "relative_to", False)
            elif tag == "joint":
                retarget(first_child(child, "pose"), "relative_to", False)
                for end in ("parent", "child"):
                    node = first_child(child, end)
                    if node is not None and (node.text or "").strip() == MODEL_FRAME:
                        node.text = proxy
                for axis in ("axis", "axis2"):
                    a = first_child(child, axis)
                    if a is not None:
                        retarget(first_child(a, "xyz"), "expressed_in", False)
            if tag in ("link", "model", "joint", "frame", "gripper", "plugin", "include") or (
                    tag[0] == "{" or ":" in tag):
                if parent.tag == "world" and tag in ("link", "gripper"):
                    self.diag.error(child, f"A merge-include into a world cannot hold a "
                                           f"<{tag}>.", code="sdf-structure")
                moved.append(child)
        base = model.base
        for child in moved:
            if child.get("{http://www.w3.org/XML/1998/namespace}base") is None and base:
                child.set("{http://www.w3.org/XML/1998/namespace}base", base)
            model.addprevious(child)  # (as parent.insert at the model's index)
        parent.remove(model)


def _version_of(el, known: dict) -> str:
    """The version of the file ``el`` was read from (the ``VERSION_ATTR``
    of it or of its nearest ancestor having one); ``known`` keeps the
    answers for ``el`` and the ancestors walked (elements are moved only
    below models not yet visited, so an answer kept stays true)."""
    walked = []
    node = el
    version = "1.12"
    while node is not None:
        found = known.get(node)
        if found is None:
            found = node.get(VERSION_ATTR) or None
        if found is not None:
            version = found
            break
        walked.append(node)
        node = node.getparent()
    for node in walked:
        known[node] = version
    return version
