"""Reading a Drake Model Directives YAML document into typed directives.

The YAML is composed into nodes with PyYAML's safe loader (so no tag can
ever construct an object) and then read against the directive schema, field
by field, the way Drake's YAML archive reads it: scalars take the type of
the field they fill, unknown keys are errors, and the only tags accepted are
the rotation variants ``!Rpy``, ``!AngleAxis`` and ``!Identity``. Drake's
random distributions (``!Uniform``, ``!Gaussian``, ...) are refused, as a
directive needs a fixed pose. Every value remembers the line it came from.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...numbers import non_finite_code, non_finite_problem, quote
from ...spatial import RigidTransform, axis_angle_to_matrix, normalized, rpy_to_matrix
from ...limits import current_limits, raise_hint
from ...workspace import charge_elements

_STANDARD_TAG = "tag:yaml.org,2002:"
# The tags YAML gives plain data (implicitly or as !!str, !!int, ...).
_PLAIN_TAGS = frozenset(_STANDARD_TAG + t for t in
                        ("str", "int", "float", "bool", "null", "map", "seq"))
ROTATION_TAGS = ("!Rpy", "!AngleAxis", "!Identity")
DISTRIBUTION_TAGS = ("!Uniform", "!UniformVector", "!Gaussian", "!GaussianVector",
                     "!UniformDiscrete", "!Deterministic", "!DeterministicVector")
_NULLS = ("", "~", "null", "Null", "NULL")


class DmdSyntaxError(ValueError):
    """The document does not follow the directive schema; ``line`` is 1-based."""

    def __init__(self, message: str, line: int | None, code: str | None = None):
        super().__init__(message)
        self.line = line
        self.code = code


@dataclass
class Pose:
    """A schema transform: an optional base frame and a fixed pose."""

    X: RigidTransform
    base_frame: str | None
    line: int


@dataclass
class Directive:
    """One directive: its kind (``add_model``, ...), its fields, its line."""

    kind: str
    fields: dict
    line: int


@dataclass
class Document:
    directives: list[Directive] = field(default_factory=list)


def line_of(node: Node) -> int:
    return node.start_mark.line + 1


def _check_tag(node: Node, where: str, allowed: tuple[str, ...] = ()) -> None:
    tag = node.tag or ""
    if tag in _PLAIN_TAGS or tag in allowed:
        return
    if tag.startswith(_STANDARD_TAG):
        tag = "!!" + tag[len(_STANDARD_TAG):]
    if tag in DISTRIBUTION_TAGS:
        raise DmdSyntaxError(f"{where} is given as a random distribution ({tag}); model "
                             f"directives need fixed values", line_of(node))
    raise DmdSyntaxError(f"{where} carries the YAML tag '{tag}', which model directives do "
                         f"not accept (the only tags allowed are {', '.join(ROTATION_TAGS)} "
                         f"on a rotation)", line_of(node))


def _mapping(node: Node, where: str, keys: tuple[str, ...],
             allowed_tags: tuple[str, ...] = ()) -> dict[str, Node]:
    """The entries of a mapping node, refusing keys the schema lacks."""
    _check_tag(node, where, allowed_tags)
    if isinstance(node, ScalarNode) and node.value in _NULLS and not node.style:
        return {}
    if not isinstance(node, MappingNode):
        raise DmdSyntaxError(f"{where} must be a mapping (key: value entries)", line_of(node))
    out: dict[str, Node] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise DmdSyntaxError(f"{where} has a key that is not a plain name", line_of(key_node))
        key = key_node.value
        if keys and key not in keys:
            raise DmdSyntaxError(f"{where} has the key '{key}', which it cannot have (it takes "
                                 f"{', '.join(keys)})", line_of(key_node))
        if key in out:
            raise DmdSyntaxError(f"{where} has the key '{key}' twice", line_of(key_node))
        out[key] = value_node
    return out


def _string(node: Node, where: str) -> str:
    _check_tag(node, where)
    if not isinstance(node, ScalarNode):
        raise DmdSyntaxError(f"{where} must be a single text value", line_of(node))
    return node.value


def _optional_string(node: Node | None, where: str) -> str | None:
    if node is None:
        return None
    if isinstance(node, ScalarNode) and not node.style and node.value in _NULLS:
        return None
    return _string(node, where)


def _number(node: Node, where: str) -> float:
    _check_tag(node, where)
    if isinstance(node, ScalarNode):
        text = node.value.strip()
        special = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}
        try:
            value = special[text.lower()] if text.lower() in special else float(text)
        except ValueError:
            pass
        else:
            if not math.isfinite(value):
                # Every number of a directive is a pose or a joint position.
                raise DmdSyntaxError(f"{where}: {non_finite_problem(text, [value])}",
                                     line_of(node), code=non_finite_code([value]))
            return value
    raise DmdSyntaxError(f"{where} must be a number, not '{quote(str(node.value))}'"
                         if isinstance(node, ScalarNode) else f"{where} must be a number",
                         line_of(node), code="dmd-value-invalid")


def _numbers(node: Node, where: str, size: int | None = None) -> list[float]:
    _check_tag(node, where)
    if not isinstance(node, SequenceNode):
        raise DmdSyntaxError(f"{where} must be a list of numbers", line_of(node))
    values = [_number(item, f"an entry of {where}") for item in node.value]
    if size is not None and len(values) != size:
        raise DmdSyntaxError(f"{where} must have {size} numbers, not {len(values)}",
                             line_of(node))
    return values


def _strings(node: Node, where: str) -> list[str]:
    _check_tag(node, where)
    if isinstance(node, ScalarNode) and not node.style and node.value in _NULLS:
        return []
    if not isinstance(node, SequenceNode):
        raise DmdSyntaxError(f"{where} must be a list of names", line_of(node))
    return [_string(item, f"an entry of {where}") for item in node.value]


def _rotation(node: Node, where: str):
    tag = node.tag or ""
    if tag == "!Rpy":
        entries = _mapping(node, f"the !Rpy {where}", ("deg",), ("!Rpy",))
        deg = _numbers(entries["deg"], "'deg'", 3) if "deg" in entries else [0.0, 0.0, 0.0]
        return rpy_to_matrix([math.radians(d) for d in deg])
    if tag == "!AngleAxis":
        entries = _mapping(node, f"the !AngleAxis {where}", ("angle_deg", "axis"),
                           ("!AngleAxis",))
        angle = _number(entries["angle_deg"], "'angle_deg'") if "angle_deg" in entries else 0.0
        axis = _numbers(entries["axis"], "'axis'", 3) if "axis" in entries else [0.0, 0.0, 1.0]
        if not any(axis):
            raise DmdSyntaxError(f"the !AngleAxis {where} has a zero axis", line_of(node))
        return axis_angle_to_matrix(normalized(axis), math.radians(angle))
    # Untagged (or !Identity): the identity, which takes no fields.
    if _mapping(node, where, (), ("!Identity",)):
        raise DmdSyntaxError(f"{where} has no tag, so it is the identity, which takes no "
                             f"values; tag it !Rpy or !AngleAxis to give angles", line_of(node))
    return None


def read_pose(node: Node, where: str) -> Pose:
    """A schema transform: ``base_frame``, ``translation``, ``rotation``."""
    entries = _mapping(node, where, ("base_frame", "translation", "rotation"))
    base = _optional_string(entries.get("base_frame"), f"'base_frame' of {where}")
    p = (_numbers(entries["translation"], f"'translation' of {where}", 3)
         if "translation" in entries else [0.0, 0.0, 0.0])
    R = _rotation(entries["rotation"], f"'rotation' of {where}") if "rotation" in entries \
        else None
    X = RigidTransform(R, p) if R is not None else RigidTransform(p=p)
    return Pose(X, base, line_of(node))


def _add_model(e: dict[str, Node]) -> dict:
    positions = {}
    if "default_joint_positions" in e:
        for key, value in _mapping(e["default_joint_positions"],
                                   "'default_joint_positions'", ()).items():
            positions[key] = (_numbers(value, f"the positions of joint '{key}'"), line_of(value))
    poses = {}
    if "default_free_body_pose" in e:
        for key, value in _mapping(e["default_free_body_pose"],
                                   "'default_free_body_pose'", ()).items():
            poses[key] = read_pose(value, f"the default pose of '{key}'")
    return {"file": _string(e["file"], "'file'") if "file" in e else "",
            "name": _string(e["name"], "'name'") if "name" in e else "",
            "default_joint_positions": positions, "default_free_body_pose": poses}


def _add_frame(e: dict[str, Node]) -> dict:
    return {"name": _string(e["name"], "'name'") if "name" in e else "",
            "X_PF": read_pose(e["X_PF"], "'X_PF'") if "X_PF" in e else None}


def _add_weld(e: dict[str, Node]) -> dict:
    return {"parent": _string(e["parent"], "'parent'") if "parent" in e else "",
            "child": _string(e["child"], "'child'") if "child" in e else "",
            "X_PC": read_pose(e["X_PC"], "'X_PC'") if "X_PC" in e else None}


def _add_collision_filter_group(e: dict[str, Node]) -> dict:
    return {"name": _string(e["name"], "'name'") if "name" in e else "",
            "model_namespace": _optional_string(e.get("model_namespace"), "'model_namespace'"),
            "members": _strings(e["members"], "'members'") if "members" in e else [],
            "member_groups": (_strings(e["member_groups"], "'member_groups'")
                              if "member_groups" in e else []),
            "ignored_collision_filter_groups": (
                _strings(e["ignored_collision_filter_groups"],
                         "'ignored_collision_filter_groups'")
                if "ignored_collision_filter_groups" in e else [])}


def _add_directives(e: dict[str, Node]) -> dict:
    return {"file": _string(e["file"], "'file'") if "file" in e else "",
            "model_namespace": _optional_string(e.get("model_namespace"), "'model_namespace'")}


# Directive kind → (its keys, its reader).
KINDS = {
    "add_model": (("file", "name", "default_joint_positions", "default_free_body_pose"),
                  _add_model),
    "add_model_instance": (("name",), lambda e: {"name": _string(e["name"], "'name'")
                                                 if "name" in e else ""}),
    "add_frame": (("name", "X_PF"), _add_frame),
    "add_weld": (("parent", "child", "X_PC"), _add_weld),
    "add_collision_filter_group": (("name", "model_namespace", "members", "member_groups",
                                    "ignored_collision_filter_groups"),
                                   _add_collision_filter_group),
    "add_directives": (("file", "model_namespace"), _add_directives),
}


# Collections nested deeper than this are refused before YAML composes them
# (PyYAML composes recursively); a directives file nests five levels or so.
MAX_YAML_DEPTH = 100
# A document of more scalars than the limit max_yaml_values is refused before
# YAML composes it (a 50 MB file took minutes and gigabytes).
_OPENS = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken,
          yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)
_CLOSES = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


class _PastLimit:
    """Collections nested past MAX_YAML_DEPTH, or scalars past the limit
    ``max_yaml_values``, first at ``line``."""

    def __init__(self, line: int | None, code: str, message: str = ""):
        self.line, self.code, self.message = line, code, message

    def as_exception(self) -> "DmdSyntaxError":
        if self.code == "depth-limit":
            return DmdSyntaxError(f"lists and mappings are nested more than {MAX_YAML_DEPTH} "
                                  f"deep; mbparse reads at most {MAX_YAML_DEPTH} levels of YAML",
                                  self.line, code="depth-limit")
        if self.message:
            return DmdSyntaxError(self.message, self.line, code="size-limit")
        most = current_limits().max_yaml_values
        return DmdSyntaxError(f"the document has more than {most:,} values; mbparse "
                              f"reads at most {most:,} from one YAML file, a limit "
                              "that keeps any file's load within seconds (a directives file has "
                              "a few hundred); split it into files that add_directives each "
                              f"other, or {raise_hint('max_yaml_values')}", self.line,
                              code="size-limit")


def _past_limit(text: str, loader) -> _PastLimit | None:
    """Where collections first nest deeper than MAX_YAML_DEPTH or the
    scalars first pass the limit ``max_yaml_values``, or None (the scanner that finds
    them is iterative, in either loader, and stops there). The scalars of a
    document within the limits count towards the parse's element budget (a
    file that add_directives reads many times multiplies): past it, the
    _PastLimit is at the document's last value."""
    problem = charge_elements(0, yaml=True)  # (a parse past its budget reads no more)
    if problem is not None:
        return _PastLimit(None, "size-limit", problem)
    depth = scalars = 0
    most = current_limits().max_yaml_values or (1 << 62)  # (0: no limit)
    token = None
    for token in yaml.scan(text, Loader=loader):
        if isinstance(token, _OPENS):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                return _PastLimit(token.start_mark.line + 1, "depth-limit")
        elif isinstance(token, _CLOSES):
            depth -= 1
        elif isinstance(token, yaml.ScalarToken):
            scalars += 1
            if scalars > most:  # (the parse's budget pays for the values counted)
                charge_elements(most, yaml=True)
                return _PastLimit(token.start_mark.line + 1, "size-limit")
    problem = charge_elements(scalars, yaml=True)
    if problem is None:
        return None
    return _PastLimit(token.start_mark.line + 1 if token is not None else None, "size-limit",
                      problem)


# PyYAML's C loader (libyaml), when PyYAML was built with it, composes a
# directives file some 30 times quicker than its pure-Python loader. It
# serves the common, well-formed file; anything it does not read cleanly
# (an error, a nesting past the limit, a character the pure-Python reader
# refuses) is read again by the pure-Python loader, whose messages and
# lines are the ones reported. Plain scalars have the style None from the
# pure-Python composer and '' from the C one: the checks below test
# ``not node.style``.
_C_LOADER = getattr(yaml, "CSafeLoader", None)
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE
_UNREAD = object()
# Each collection YAML opens takes one of these characters ('-' a block
# sequence's entry, ':' or '?' a mapping's key, a bracket a flow
# collection): a text with no more of them than MAX_YAML_DEPTH cannot nest
# deeper, and its scalars are counted on the nodes instead of on tokens.
_NESTING_MARKS = "-:?[{"


def _nesting_bound(text: str) -> int:
    """A bound on how deep the scanner can find collections nested in
    ``text``, tighter than its count of _NESTING_MARKS (which every key of a
    long file adds to). The scanner's depth is its stack of block indents
    plus its open flow collections. A block collection opens at the column
    of a '-', a '?', a ':' or a simple key, which ends on its line before
    its ':', and each indent on the stack is a column past the one below
    it: so the block depth is at most one more than the last column, on
    any line, of a '-', ':' or '?' (columns counted from the last line
    feed: YAML's other line breaks only make them smaller). Each open flow
    collection has its own '[' or '{'."""
    block = 0
    for line in text.split("\n"):
        if len(line) > block:  # (a shorter line cannot raise it)
            block = max(block, line.rfind("-") + 1, line.rfind(":") + 1, line.rfind("?") + 1)
    return block + text.count("[") + text.count("{")


_PLAIN = {ScalarNode: _STANDARD_TAG + "str", SequenceNode: _STANDARD_TAG + "seq",
          MappingNode: _STANDARD_TAG + "map"}


if _C_LOADER is not None:
    class _QuickLoader(_C_LOADER):  # type: ignore[misc,valid-type]
        """The C loader, tagging every untagged node with YAML's plain tag of
        its kind: which plain tag a scalar has (int, bool, ...) is never
        read (the schema reads a scalar as its field's type, and accepts
        any plain tag), and finding it is a Python regex per scalar."""

        def resolve(self, kind, value, implicit):
            return _PLAIN[kind]


def _scalars(root: Node, aliased: bool = True) -> int:
    """The scalars written in the document under ``root``, as the scanner
    counts them: a node reached again through an alias counts once, and an
    empty value (``key:``), which has no text, not at all. Without
    ``aliased`` (a text without '*' has no alias) no node is reached twice,
    and the scalars of a mapping are counted where it is met."""
    if aliased:
        seen: set[int] = set()
        stack = [root]
        count = 0
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, ScalarNode):
                count += node.start_mark.index != node.end_mark.index
            elif isinstance(node, MappingNode):
                for key, value in node.value:
                    stack += (key, value)
            else:
                stack += node.value
        return count
    if isinstance(root, ScalarNode):
        return root.start_mark.index != root.end_mark.index
    stack, count = [root], 0
    while stack:
        node = stack.pop()
        for child in (chain.from_iterable(node.value) if isinstance(node, MappingNode)
                      else node.value):
            if isinstance(child, ScalarNode):
                count += child.start_mark.index != child.end_mark.index
            else:
                stack.append(child)
    return count


def _compose_quickly(text: str):
    """(the document's root node as the C loader composes it (None for an
    empty document), its scalars when they were counted on the nodes, None
    when a scan counted them), a _PastLimit when its scanner finds
    collections nested too deep or too many scalars, or _UNREAD when the
    pure-Python loader must decide.

    The C scanner's verdict on the limits stands, even for text the C loader
    does not compose (a character the pure-Python reader refuses): the
    pure-Python scanner finds the same tokens, but it looks up to 1024
    characters ahead of every opening bracket (each could start a key) at a
    cost that grows with the nesting, a quarter of a second for a line of
    1,500 brackets, and scans some fifty times slower. A text that cannot
    nest too deep (see _NESTING_MARKS and _nesting_bound), the common
    directives file, is not scanned: its scalars are counted on the composed
    nodes (the scan was a third of reading it)."""
    if _C_LOADER is None:
        return _UNREAD
    try:
        if sum(map(text.count, _NESTING_MARKS)) > MAX_YAML_DEPTH \
                and _nesting_bound(text) > MAX_YAML_DEPTH:
            past = _past_limit(text, _C_LOADER)
            if past is not None:
                return past
            if _NON_PRINTABLE.search(text):
                return _UNREAD
            return yaml.compose(text, Loader=_QuickLoader), None
        if _NON_PRINTABLE.search(text):
            return _UNREAD
        problem = charge_elements(0, yaml=True)  # (a parse past its budget reads no more)
        if problem is not None:
            return _PastLimit(None, "size-limit", problem)
        root = yaml.compose(text, Loader=_QuickLoader)
        scalars = 0 if root is None else _scalars(root, "*" in text)
        most = current_limits().max_yaml_values
        if most and scalars > most:
            return _past_limit(text, _C_LOADER)  # (which finds the line of the first too many)
        problem = charge_elements(scalars, yaml=True)
        if problem is not None:
            return _past_at_end(text, problem)
        return root, scalars
    except Exception:  # noqa: BLE001 -- any refusal is re-read and reported below
        return _UNREAD


def _past_at_end(text: str, problem: str) -> _PastLimit:
    """The parse's budget passed by a document's scalars: at the stream's
    end, as the scan puts it."""
    token = None
    for token in yaml.scan(text, Loader=_C_LOADER):
        pass
    return _PastLimit(token.start_mark.line + 1 if token is not None else None,
                      "size-limit", problem)


def _compose(text: str) -> tuple[Node | None, int | None]:
    """The document's root node, and its scalars when they were counted
    without a scan (charged to the parse); raises DmdSyntaxError (with a
    line) for YAML nested too deep, too large or malformed."""
    quick = _compose_quickly(text)
    if isinstance(quick, _PastLimit):
        past: _PastLimit | None = quick
    elif quick is not _UNREAD:
        return quick
    else:
        try:
            past = _past_limit(text, yaml.SafeLoader)
        except yaml.YAMLError:
            past = None  # composing reports it, with its line
    if past is not None:
        raise past.as_exception()
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader), None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        problem = getattr(e, "problem", None) or str(e)
        if mark is not None:
            line: int | None = mark.line + 1
        elif isinstance(e, yaml.reader.ReaderError):  # (a character, at an index)
            line = text.count("\n", 0, e.position) + 1
        else:
            line = None
        raise DmdSyntaxError(f"the text is not valid YAML: {problem}", line,
                             code="dmd-syntax") from None


# Documents read cleanly, by their text (the whole text is the key, so a
# changed file is read again; no file is looked at): scenes add the same
# directives files load after load, and reading one cost more than running
# it. With each, its scalars, charged to every parse that reads it, as
# reading it charges them. At most MAX_CACHED_DOCUMENTS texts of at most
# _CACHED_TEXT_MOST characters (when full, all are forgotten). A document is
# never changed once read (the directives runner only reads it).
_DOCUMENTS: dict[str, tuple[Document, int]] = {}
MAX_CACHED_DOCUMENTS = 64
_CACHED_TEXT_MOST = 1 << 16


def _cached_document(text: str) -> Document | None:
    """The document of ``text`` read before, its scalars charged to this
    parse as reading it charges them; None when it was not read cleanly
    before, or when the limits in force refuse it (reading it again says
    how)."""
    entry = _DOCUMENTS.get(text)
    if entry is None:
        return None
    document, scalars = entry
    if charge_elements(0, yaml=True) is not None:  # (a parse past its budget)
        return None
    most = current_limits().max_yaml_values
    if most and scalars > most:
        return None
    problem = charge_elements(scalars, yaml=True)
    if problem is not None:
        raise _past_at_end(text, problem).as_exception()
    return document


def _remember(text: str, document: Document, scalars: int) -> None:
    if len(text) <= _CACHED_TEXT_MOST:
        if len(_DOCUMENTS) >= MAX_CACHED_DOCUMENTS:
            _DOCUMENTS.clear()  # (one call: threads may be reading documents too)
        _DOCUMENTS[text] = document, scalars


def load_document(text: str) -> Document:
    """Reads a model directives document; raises DmdSyntaxError (with a
    line) for YAML that is malformed or does not fit the schema."""
    document = _cached_document(text)
    if document is not None:
        return document
    root, scalars = _compose(text)
    if root is None or (isinstance(root, ScalarNode) and not root.style
                        and root.value in _NULLS):
        # An empty file and one holding only '~' (null) are the same nothing.
        raise DmdSyntaxError("the document is empty; a model directives file needs a "
                             "top-level 'directives:' list", line_of(root) if root else 1,
                             code="dmd-structure")
    top = _mapping(root, "the document", ("directives",))
    doc = Document()
    node = top.get("directives")
    if node is None or (isinstance(node, ScalarNode) and node.value in _NULLS):
        return doc
    _check_tag(node, "'directives'")
    if not isinstance(node, SequenceNode):
        raise DmdSyntaxError("'directives' must be a list of directives", line_of(node))
    for item in node.value:
        entries = _mapping(item, "a directive", tuple(KINDS))
        if len(entries) != 1:
            raise DmdSyntaxError("a directive must hold exactly one of "
                                 f"{', '.join(KINDS)}; this one has "
                                 f"{len(entries) or 'none'}", line_of(item))
        (kind, body), = entries.items()
        keys, reader = KINDS[kind]
        fields = reader(_mapping(body, kind, keys))
        doc.directives.append(Directive(kind, fields, line_of(item)))
    if scalars is not None:
        _remember(text, doc, scalars)
    return doc
