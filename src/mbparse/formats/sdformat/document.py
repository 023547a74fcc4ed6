"""Reading an SDFormat document: the XML, its ``<sdf version>``, the upgrade
of older versions to the current meaning, the check of every element and
attribute against the specification (what libsdformat reports as errors
under Drake's strict settings), and the expansion of ``<include>``.

After :func:`load_document` the tree holds no SDFormat ``<include>``: an
included SDFormat model stands in its place as a nested ``<model>`` (merged
into its parent for ``merge="true"``); an included URDF or MuJoCo file stays
as an ``<include>`` with the resolved path in the attribute
``mbparse-resolved``, for the Drake-side reader to parse.
"""
from __future__ import annotations

import os
from typing import Callable

from lxml import etree

from ...diagnostics import ParseError
from ...numbers import unreadable_code
from ...files import regular_file_problem
from ...workspace import MAX_FILE_NESTING, DataSource
from ..common.xml import (MAX_ELEMENT_DEPTH, MEMO_LIMIT, first_child, parse_xml_bytes,
                          problem_code, warn_notes)
from . import values
from .lookup import child_index
from .diagnostic import SdfDiagnostic
from ..common.suggest import did_you_mean
from .schema import (CHILD_DEPRECATED, CHILD_LEAF, CHILD_VISIT, ElementSpec,
                     root as schema_root)
from .unflatten import unflatten_document

CURRENT_VERSION = (1, 12)
KNOWN_VERSIONS = {"1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10",
                  "1.11", "1.12"}
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
RESOLVED = "mbparse-resolved"
VERSION_ATTR = "mbparse-version"
CUSTOM_SUFFIXES = (".urdf", ".xml")
RESERVED_REFERENCE = "__root__"
# Documents of at most this many elements keep a Python object for each of
# their elements while they are read (see Loader.elements).
KEEP_ELEMENTS = 20_000
NOTHING: frozenset = frozenset()
# How many levels below a child Loader._fine looks before leaving it to visits.
FINE_LEVELS = 3


def parse_version(text: str) -> tuple[int, int]:
    major, _, minor = text.partition(".")
    return int(major), int(minor or 0)


def may_hold_delimiter(data: bytes) -> bool:
    """Whether a name in the document of ``data`` may hold the scope
    delimiter '::'. Bytes with no '::', no '&' (which may stand for a ':')
    and no NUL (UTF-16 and UTF-32 texts have them; EBCDIC is refused) hold
    no ':' but single ones, so no name of their tree holds '::', nor one an
    <include> of theirs gives."""
    return b"::" in data or b"&" in data or b"\x00" in data


class Loader:
    """Loads one top-level document and everything it includes."""

    def __init__(self, diag: SdfDiagnostic,
                 resolve_include: Callable[[str], tuple[str | None, str | None]],
                 include_another_file: Callable[[], str | None] = lambda: None):
        self.diag = diag
        self.resolve_include = resolve_include
        self.include_another_file = include_another_file
        self.open_files: list[str] = []
        self.depth = 0
        # Every element of each document read, held while the reader reads
        # them: lxml makes the Python object of an element anew each time it
        # is reached when none is held (the check walk, the scope builder and
        # the model builder each reach every element), and that costs more
        # more than their own work on many elements (on the corpus's small
        # SDFormat files: 2% of the instructions). Kept for a document of at
        # most KEEP_ELEMENTS, so a large tree's memory does not grow by them.
        self.elements: list[list] = []
        # Element texts and attribute values the check found readable, by
        # value type, and the poses (text, rotation_format, degrees): a
        # document repeats a few ("0 0 0 0 0 0", "1"), a generated one the
        # same ones thousands of times. (Apart: an element's blank text is
        # its default, an attribute's is read.) Kept for one load (the
        # document and its includes), as the readers' memos are.
        self._read_texts: dict[str, set[str]] = {}
        self._read_attributes: dict[str, set[str]] = {}
        self._read_poses: set[tuple] = set()
        # Whether a file read so far may hold the scope delimiter (see
        # may_hold_delimiter): when none does, the walk over the named
        # elements that looks for one (some 2% of a small file's load) is
        # not made.
        self.names_may_hold_delimiter = False

    # ------------------------------------------------------------ files
    def parse_xml(self, source: DataSource):
        """The root of ``source``'s XML, and whether its names may hold the
        scope delimiter (:func:`may_hold_delimiter`)."""
        name = source.name()
        notes: list = []
        data = source.read_bytes()
        delimited = may_hold_delimiter(data)
        self.names_may_hold_delimiter = self.names_may_hold_delimiter or delimited
        root, problem, line = parse_xml_bytes(data, notes)
        if root is None:
            self.diag.policy.error(f"Error parsing XML in '{name}': {problem}", name, line,
                                   code=problem_code(problem))
        warn_notes(self.diag.policy, name, notes)
        root.set(XML_BASE, name)
        elements = list(root.iter())
        if len(elements) <= KEEP_ELEMENTS:
            self.elements.append(elements)
        return root, delimited

    def load(self, source: DataSource):
        """The validated ``<sdf>`` element of ``source``."""
        root, delimited = self.parse_xml(source)
        name = source.name()
        if root.tag != "sdf":
            self.diag.error(root, f"Unable to read '{name}': its root element is not <sdf>.",
                            code="sdf-root")
        version = root.get("version")
        if version is None:
            self.diag.error(root, f"Unable to read '{name}': the <sdf> element has no "
                                  "version attribute.", code="sdf-attribute-missing")
        if version not in KNOWN_VERSIONS:
            self.diag.error(root, f"Cannot upgrade SDFormat version '{version}' to 1.12.",
                            code="sdf-version")
        root.set(VERSION_ATTR, version)
        number = parse_version(version)
        upgrade(root, number)
        if number < (1, 8) and delimited:  # (it only moves elements named with '::')
            unflatten_document(self.diag, root)
        key = os.path.abspath(source.filename) if source.filename else None
        if key is not None:
            self.open_files.append(key)
        try:
            self.read(root, schema_root(), version)
        finally:
            if key is not None:
                self.open_files.pop()
        if number >= (1, 8) and self.names_may_hold_delimiter:
            check_no_scope_delimiter(self.diag, root)
        return root

    # ------------------------------------------------------------ checking
    def read(self, el, node: ElementSpec, version: str) -> None:
        """Checks ``el`` and everything below it against its description
        ``node`` (libsdformat's readXml), in document order.

        The walk keeps its own stack, so a tree as deep as the XML reader
        admits is checked without deep Python recursion. An error in one
        element (with ``collect_errors``) is recorded and the walk goes on
        with the element's next sibling."""
        # Included files are read inside the element that includes them, so
        # the depth counts across files: the tree they make stays readable.
        outer = self.depth
        # Items: (element, its ElementSpec, depth) to visit, or (element,
        # kind, data) for the rarer steps of :meth:`_step`.
        stack: list[tuple] = []
        visit = self._visit
        recovered = self.diag.policy.recovered
        try:
            visit(el, node, outer + 1, stack)
            pop = stack.pop
            while stack:
                item, node, data = pop()
                try:
                    if node.__class__ is ElementSpec:
                        visit(item, node, data, stack)
                    else:
                        self._step(item, node, data, stack)
                except ParseError as e:
                    if not recovered(e):
                        raise
        finally:
            self.depth = outer

    def _step(self, el, kind: str, data, stack: list) -> None:
        if kind == "deprecated":
            self.diag.warning(el, f"SDFormat element <{el.tag}> is deprecated.",
                              code="sdf-unsupported")
            self._visit(el, data[0], data[1], stack)
        elif kind == "include":
            self.depth = data - 1
            self.include(el.getparent(), el)
        elif kind == "required":
            self._check_required(el, data)
        else:  # "unknown"
            parent, children = data
            self._unknown(el, f"XML element <{el.tag}>, child of <{parent.tag}>, is not part "
                              f"of SDFormat.{did_you_mean(el.tag, children, element=True)}",
                          "sdf-unknown-element")

    def _unknown(self, el, message: str, code: str) -> None:
        """An element or attribute SDFormat does not define: Drake refuses it
        (it makes libsdformat's unrecognized-element policy an error); the
        default mode, like libsdformat's own default, warns and ignores it
        (pybullet's SDF files carry <contact> and <material> where SDFormat
        has none)."""
        if self.diag.policy.like_drake:
            self.diag.error(el, message, code=code)
        self.diag.warning(el, f"{message} It is ignored (Drake refuses it).", code=code)

    def _visit(self, el, node: ElementSpec, depth: int, stack: list) -> None:
        """Checks one element's attributes and value and puts on the stack
        what follows: its children, then (for an ``<include>``) the
        expansion, or (for a joint) the check of required children.

        Every element of the document passes here, so the common case is
        kept short: attributes and texts already found readable (by type)
        are not read again."""
        if depth > MAX_ELEMENT_DEPTH:
            self.diag.error(el, f"elements (with those of included files) are nested more "
                                f"than {MAX_ELEMENT_DEPTH} deep; mbparse reads at most "
                                f"{MAX_ELEMENT_DEPTH} levels", code="depth-limit")
        items = el.items()
        if items or node.required_attributes:
            self._check_attributes(el, node, items)
        value_type = node.checked_type
        if value_type:
            text = el.text
            if text is not None:
                if value_type == "pose":
                    key = ((text, el.get("rotation_format"), el.get("degrees")) if items
                           else (text, None, None))
                    if key not in self._read_poses:
                        self.check_value(el, node)
                        if len(self._read_poses) < MEMO_LIMIT:
                            self._read_poses.add(key)
                else:
                    known = self._read_texts.get(value_type)
                    if known is None:
                        known = self._read_texts[value_type] = set()
                    if text not in known:
                        self.check_value(el, node)
                        if len(known) < MEMO_LIMIT:
                            known.add(text)
        children = node.children
        tag = node.name  # (el.tag: an element's description is found by its tag)
        if tag == "include":
            if el.getparent() is not None:
                stack.append((el, "include", depth))
        elif tag == "joint" and el.get("type") != "ball":
            stack.append((el, "required", children))
        if not children:
            if node.copy_data:
                return
            kids = el[:]
            if not kids:
                return
        else:
            kids = el[:]
        depth += 1
        push = stack.append
        get = node.child_kinds.get
        texts = self._read_texts
        poses = self._read_poses
        shallow = depth <= MAX_ELEMENT_DEPTH  # (a deeper child is visited: it is refused there)
        for child in reversed(kids):
            entry = get(child.tag)
            if entry is None:
                ctag = child.tag
                if (ctag.__class__ is str and ctag[0] != "{" and ":" not in ctag
                        and not node.copy_data):  # (custom elements are kept as written)
                    push((child, "unknown", (el, children)))
                continue
            spec, kind = entry
            if kind == CHILD_VISIT:
                if not (shallow and spec.plain_parent and self._fine(child, spec, depth, 0)):
                    push((child, spec, depth))
                continue
            if kind == CHILD_DEPRECATED:
                push((child, "deprecated", (spec, depth)))
                continue
            if shallow:
                # A plain leaf: its visit would find nothing to say when it
                # has no attribute and no child, and its text needs no check
                # or reads: none is made. (The text is asked first: most texts
                # a visit checks are new ones.)
                if kind != CHILD_LEAF:  # (kind: the value type of its text)
                    text = child.text
                    if text is not None and (
                            (text, None, None) not in poses if kind == "pose"
                            else text not in texts.get(kind, NOTHING)):
                        if len(child) or child.keys() or not self._leaf_reads(
                                child, kind, text):
                            push((child, spec, depth))
                        continue
                if not len(child) and not child.keys():
                    continue
            push((child, spec, depth))

    def _fine(self, el, node: ElementSpec, depth: int, level: int) -> bool:
        """Whether ``el``, a ``plain_parent`` at ``depth``, and everything
        below it would pass their visits without a word and leave no step
        to take: it has no attribute, and each child is a plain leaf its
        parent's visit would pass over, a custom element, or (at most
        FINE_LEVELS down) such an element itself (the leaf test is the
        walk's in :meth:`_visit`). Then none of it is visited: a visit costs
        more than this look (<geometry> and its shape, <inertial>, <limit>...:
        over the corpus's small SDFormat files, 7,631 visits a pass become
        4,125). False leaves it to the visits, which report in document
        order; nothing is reported here (texts found readable are kept as
        readable, as the visits keep them)."""
        if el.keys():
            return False
        depth += 1
        shallow = depth <= MAX_ELEMENT_DEPTH
        get = node.child_kinds.get
        texts = self._read_texts
        poses = self._read_poses
        for child in el[:]:
            entry = get(child.tag)
            if entry is None:
                ctag = child.tag  # (a plain_parent is not copy_data)
                if ctag.__class__ is str and ctag[0] != "{" and ":" not in ctag:
                    return False  # (an unknown element: its visit warns)
                continue
            spec, kind = entry
            if not shallow or kind == CHILD_DEPRECATED:
                return False
            if kind == CHILD_VISIT:
                if not (spec.plain_parent and level < FINE_LEVELS
                        and self._fine(child, spec, depth, level + 1)):
                    return False
                continue
            if len(child) or child.keys():
                return False
            if kind != CHILD_LEAF:  # (the walk's test of a plain leaf's text)
                text = child.text
                if text is not None and (
                        (text, None, None) not in poses if kind == "pose"
                        else text not in texts.get(kind, NOTHING)) and not self._leaf_reads(
                            child, kind, text):
                    return False
        return True

    def _leaf_reads(self, el, value_type: str, text: str) -> bool:
        """Whether the new ``text`` of a leaf element with no attribute reads
        as a ``value_type`` (and it is then kept as readable, as its visit
        keeps it). Asked when its parent is visited: a visit of its own costs
        more than the check (on the corpus's small SDFormat files most visits
        were of such leaves). A text that does not read is left to the visit,
        which reports it in document order; nothing is reported here."""
        if text.strip():
            try:
                if value_type == "pose":
                    self.diag.pose(el)
                else:
                    values.check(value_type, text)
            except Exception:  # (whatever it is, the visit meets it again)
                return False
        if value_type == "pose":
            if len(self._read_poses) < MEMO_LIMIT:
                self._read_poses.add((text, None, None))
        else:
            known = self._read_texts.get(value_type)
            if known is None:
                known = self._read_texts[value_type] = set()
            if len(known) < MEMO_LIMIT:
                known.add(text)
        return True

    def _check_attributes(self, el, node: ElementSpec, items: list) -> None:
        diag = self.diag
        attrs = node.attributes
        known = self._read_attributes
        for key, text in items:
            spec = attrs.get(key)
            if spec is not None:
                kind = spec.type
                if kind == "string" or text in known.get(kind, ()):
                    continue
            try:
                if key[0] == "{" or ":" in key or key in (RESOLVED, VERSION_ATTR):
                    continue
                if spec is None:
                    self._unknown(el, f"XML attribute '{key}' of element <{el.tag}> is not part "
                                      f"of SDFormat.{did_you_mean(key, attrs)}",
                                  "sdf-unknown-attribute")
                    continue
                try:
                    values.check(spec.type, text)
                except (ValueError, OverflowError):
                    diag.error(el, f"Cannot read attribute '{key}' of <{el.tag}> as a "
                                   f"{spec.type}: '{text}'.",
                               code=unreadable_code(text, "sdf-value-invalid"))
                texts = known.get(spec.type)
                if texts is None:
                    texts = known[spec.type] = set()
                if len(texts) < MEMO_LIMIT:
                    texts.add(text)
            except ParseError as e:
                if not diag.policy.recovered(e):
                    raise
        for key in node.required_attributes:
            if el.get(key) is None:
                diag.error(el, f"Required attribute '{key}' of element <{el.tag}> is "
                               "missing.", code="sdf-attribute-missing")

    def _check_required(self, el, children) -> None:
        present = child_index(el)
        for name, (_, required) in children.items():
            if required in ("required", "one or more") and present.get(name) is None:
                self.diag.error(el, f"Required element <{name}> of joint "
                                    f"'{el.get('name')}' is missing.", code="sdf-element-missing")

    def check_value(self, el, node: ElementSpec) -> None:
        value_type = node.type
        if not value_type:
            return
        text = el.text
        if text is None or not text.strip():
            return
        try:
            if value_type == "pose":
                # (read as the readers read it: the reader of the element
                # then finds it in the diagnostic's memo, not read again)
                self.diag.pose(el)
            else:
                values.check(value_type, text)
        except (ValueError, OverflowError) as e:
            self.diag.unreadable(el, value_type, e)

    # ------------------------------------------------------------ includes
    def include(self, parent, inc) -> None:
        diag = self.diag
        uri_el = first_child(inc, "uri")
        if uri_el is None:
            diag.error(inc, "<include> has no <uri>.", code="sdf-element-missing")
        uri = (uri_el.text or "").strip()
        path, problem = self.resolve_include(uri) if uri else (None, None)
        if not path:
            why = f" ({problem})" if problem and "leaves its package" in problem else ""
            diag.error(uri_el, f"Unable to find the included uri '{uri}'.{why}",
                       code="path-escapes-package" if why else "file-missing")
        if os.path.isdir(path):
            model_file = model_config_file(path)
            if model_file is None:
                diag.error(uri_el, f"The included uri '{uri}' names the folder '{path}', which "
                                   "has no usable model.config.", code="file-missing")
            path = model_file
        if path.lower().endswith(CUSTOM_SUFFIXES):
            inc.set(RESOLVED, path)
            return
        if os.path.abspath(path) in self.open_files:
            diag.error(uri_el, f"The included uri '{uri}' names '{path}', which is already "
                               "being read: the includes form a cycle.", code="include-cycle")
        if len(self.open_files) >= MAX_FILE_NESTING:
            diag.error(uri_el, f"Includes are nested more than {MAX_FILE_NESTING} files deep; "
                               f"mbparse reads at most {MAX_FILE_NESTING} levels of files "
                               "within files.", code="depth-limit")
        problem = regular_file_problem(path)
        if problem is not None:
            diag.error(uri_el, f"The included uri '{uri}' cannot be read: {problem}.",
                       code="file-not-regular")
        problem = self.include_another_file()
        if problem is not None:
            diag.error(uri_el, f"The included uri '{uri}' is not read: {problem}.",
                       code="size-limit")
        sub = self.load(DataSource(filename=path))
        candidates = [c for c in sub if isinstance(c.tag, str)
                      and c.tag in ("model", "actor", "light")]
        if not candidates:
            diag.error(uri_el, f"The included file '{path}' has no top-level <model>, <actor> "
                               "or <light>.", code="sdf-structure")
        kinds = {c.tag for c in candidates}
        first = next(c for tag in ("model", "actor", "light") for c in candidates
                     if c.tag == tag)
        if len(kinds) > 1 or sum(c.tag == first.tag for c in candidates) > 1:
            diag.error(uri_el, f"The included file '{path}' has more than one top-level "
                               "element.", code="sdf-structure")
        if first.tag != "model":
            diag.warning(inc, f"The included <{first.tag}> is not a model; Drake ignores it.",
                         code="sdf-unsupported")
            parent.remove(inc)
            return
        apply_include_overrides(diag, inc, first)
        first.set(XML_BASE, path)
        first.set(VERSION_ATTR, sub.get(VERSION_ATTR))
        merge = inc.get("merge", "false")
        if diag.checked(inc, "bool", lambda: values.parse_bool(merge), False):
            first.set("mbparse-merge", "true")
        parent.replace(inc, first)


def apply_include_overrides(diag: SdfDiagnostic, inc, model) -> None:
    """``<name>``, ``<pose>``, ``<static>`` and ``<placement_frame>`` of an
    ``<include>`` replace those of the included model."""
    name = first_child(inc, "name")
    if name is not None and name.text:
        model.set("name", name.text.strip())
    pose = first_child(inc, "pose")
    if pose is not None:
        old = first_child(model, "pose")
        if old is not None:
            model.remove(old)
        new = etree.SubElement(model, "pose")
        new.text = pose.text
        for key in ("relative_to", "degrees", "rotation_format"):
            if pose.get(key) is not None:
                new.set(key, pose.get(key))
        new.set(XML_BASE, pose.base or "")
        new.sourceline = pose.sourceline
    static = first_child(inc, "static")
    if static is not None:
        old = first_child(model, "static")
        if old is not None:
            model.remove(old)
        new = etree.SubElement(model, "static")
        new.text = static.text
    placement = first_child(inc, "placement_frame")
    if placement is not None:
        if pose is None:
            diag.error(placement, "An <include> with <placement_frame> needs a <pose>.",
                       code="sdf-element-missing")
        value = (placement.text or "").strip()
        if value == RESERVED_REFERENCE:
            diag.error(placement, f"'{value}' is reserved; it cannot be a placement_frame.",
                       code="sdf-name-reserved")
        model.set("placement_frame", value)
    for plugin in list(inc.iterchildren("plugin")):  # (as findall: a list, then moved)
        model.append(plugin)


def model_config_file(folder: str) -> str | None:
    """The model file a ``model.config`` names: the ``<sdf>`` entry with the
    highest version not above 1.12 (the first one when none has a version)."""
    config = os.path.join(folder, "model.config")
    if not os.path.isfile(config):
        return None
    try:
        root = etree.parse(config).getroot()
    except etree.XMLSyntaxError:
        return None
    best, best_version = None, None
    for sdf in root.iter("sdf"):
        version = sdf.get("version")
        try:
            v = parse_version(version) if version else None
        except ValueError:
            v = None
        if v is not None and v > CURRENT_VERSION:
            continue
        if best is None or (v is not None and (best_version is None or v > best_version)):
            best, best_version = sdf, v
    if best is None or not (best.text or "").strip():
        return None
    return os.path.join(folder, best.text.strip())


def upgrade(root, version: tuple[int, int]) -> None:
    """Gives an older document the meaning it has in SDFormat 1.12."""
    if version < (1, 5):
        for axis in _joint_axes(root):
            if first_child(axis, "use_parent_model_frame") is None:
                etree.SubElement(axis, "use_parent_model_frame").text = "true"
    if version < (1, 6):
        for world in root.findall("world"):
            for tag in ("gravity", "magnetic_field"):
                for physics in world.findall("physics"):
                    node = first_child(physics, tag)
                    if node is not None:
                        physics.remove(node)
                        if first_child(world, tag) is None:
                            world.append(node)
    if version < (1, 7):
        for pose in root.iter("pose"):
            frame = pose.attrib.pop("frame", None)
            if frame is not None:
                pose.set("relative_to", frame)
        for axis in _joint_axes(root):
            flag = first_child(axis, "use_parent_model_frame")
            if flag is None:
                continue
            if (flag.text or "").strip() in ("true", "True", "TRUE", "1"):
                xyz = first_child(axis, "xyz")
                if xyz is None:
                    xyz = etree.SubElement(axis, "xyz")
                    xyz.text = "0 0 1"
                xyz.set("expressed_in", "__model__")
            axis.remove(flag)
    if version < (1, 8):
        for inertial in root.iter("inertial"):
            pose = first_child(inertial, "pose")
            if pose is not None and pose.get("relative_to") == "":
                del pose.attrib["relative_to"]


def _joint_axes(root):
    for joint in root.iter("joint"):
        for tag in ("axis", "axis2"):
            axis = first_child(joint, tag)
            if axis is not None:
                yield axis


# Elements whose name the scope delimiter may not be part of (1.8 on).
_NAMED_TAGS = ("model", "link", "joint", "frame", "visual", "collision", "sensor", "light",
               "world")


def check_no_scope_delimiter(diag: SdfDiagnostic, root) -> None:
    """From SDFormat 1.8 on, names may not contain '::'."""
    # (lxml picks these elements, in document order, and only those in no
    # namespace, as the tags are plain names)
    for el in root.iter(*_NAMED_TAGS):
        name = el.get("name")
        if name and "::" in name:
            diag.error(el, f"The name '{name}' contains the scope delimiter '::', which "
                           "SDFormat 1.8 and later do not allow.", code="sdf-value-invalid")
