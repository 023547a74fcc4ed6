"""Reading XML model files: lxml with line numbers, element and attribute
access by prefixed name (``drake:joint``), and located diagnostics."""
from __future__ import annotations

import functools
import re
from types import MappingProxyType
from typing import Callable, Iterator, NoReturn, TypeVar

from lxml import etree

from ...diagnostics import DiagnosticPolicy
from ...geometry import ShapeError
from ...package_map import PackageMapError
from ...plant import ModelError
from ...numbers import (all_finite, non_finite_code, non_finite_problem, partial_number_problem,
                        quote, unreadable_code)
from ...source_location import CURRENT_SOURCE
from ...spatial import (IDENTITY, ZERO3, RigidTransform, fast_number, fast_numbers,
                       parse_float_prefixes)
from ...limits import current_limits, raise_hint
from ...workspace import MAX_NUMBERS_TEXT, PARSE_SIZE_PROBLEM, DataSource, charge_elements

_T = TypeVar("_T")


def _xml_parser(blank_text: bool, **options) -> etree.XMLParser:
    """The parser of :func:`parse_xml_bytes`. Without ``blank_text``, text
    that is only whitespace between elements (indentation) makes no node:
    no reader reads it, and making, walking past and freeing its nodes is
    some 2% of a parse. (libxml2 keeps such text where it is an element's
    only content, and any text that is not all whitespace.) No table of
    ``xml:id`` values is made (``collect_ids``): nothing looks an element up
    by its id, and asking of every attribute whether it is one is work."""
    return etree.XMLParser(remove_blank_text=not blank_text, remove_comments=True,
                           remove_pis=True, resolve_entities=False, no_network=True,
                           collect_ids=False, **options)


_UNDEFINED_PREFIX = re.compile(r"Namespace prefix (\S+) (?:for \S+ )?on \S+ is not defined")

# The codes of the model's refusals that carry none of their own.
_REFUSAL_CODE = {ModelError: "model-invalid", ShapeError: "shape-invalid",
                 PackageMapError: "package-invalid"}


# The exceptions in which the model refuses what a reader adds.
REFUSALS = (ModelError, ShapeError, PackageMapError)


def _refusal_code(kind: type) -> str:
    return next(code for cls, code in _REFUSAL_CODE.items() if issubclass(kind, cls))


# (line, message) or (line, message, code): a leniency worth a warning
# (code xml-leniency unless it says otherwise).
Note = tuple


def parse_xml_bytes(data: bytes, notes: list[Note] | None = None, *, blank_text: bool = False
                    ) -> tuple[etree._Element | None, str, int | None]:
    """Parses XML text: (root, "", None), or (None, problem, line).

    Accepted beyond strict XML, as tinyxml2 (which Drake, libsdformat,
    urdfdom and MuJoCo read with) accepts it: whitespace or blank lines
    before the XML declaration, any number of declarations with any
    content (tinyxml2 reads none of it: the text is taken as UTF-8),
    namespace prefixes used without a declaration (``drake:`` often is),
    element names holding ``::`` (libsdformat writes
    ``<ignition::corrected_offsets>``), ``&`` that starts no known entity
    (kept as written), text that is not UTF-8 (read as Latin-1), and
    elements after the root element (ignored). Where a leniency may hide a
    mistake, ``(line, message)`` is appended to ``notes``. Any other fault
    is a problem. Whitespace between elements is kept (as text and tails)
    only with ``blank_text``, for text handed on to another tool (xacro).
    """
    notes = [] if notes is None else notes
    data = _tinyxml_prolog(data, notes)
    over = charge_elements(0)  # (a parse past its budget reads no more)
    if over is not None:
        return None, over, None
    tags = data.count(b"<")
    limits = current_limits()
    most = limits.max_elements or _NO_LIMIT
    # Every element has a start tag: a bound on the elements (comments,
    # declarations and CDATA sections make it larger, never smaller).
    at_most = tags - data.count(b"</")
    near_limit = at_most > most
    if near_limit:
        at_most = _elements_at_most(data)
        near_limit = at_most > most
        past = _element_past_limit(data, most) if near_limit else None
        if past is not None:  # (the parse's budget pays for the elements counted)
            charge_elements(most)
            return None, _size_problem(*past, most), past[1]
    over = charge_elements(min(at_most, most))
    if over is not None:
        return None, over, None
    root, problem, line = _parse_lenient(data, notes, tags, _PARSERS[blank_text])
    if root is None:
        return root, problem, line
    if near_limit:
        root, problem, line = _check_size(root, most)
    attributes = limits.max_attributes
    # (a text too short to hold such a start tag is not even counted)
    if (root is not None and attributes and len(data) > 4 * attributes
            and data.count(b"=") > attributes and _long_tag(attributes).search(data)):
        root, problem, line = _check_attribute_counts(root, attributes)
    return root, problem, line


# (a limit of 0 is none: a bound no text reaches)
_NO_LIMIT = 1 << 62


# An element of more than ``most`` attributes has a start tag of more than 4
# bytes an attribute, with no '<' inside (XML allows none in a value): only a
# file with such a run of text is searched for one.
@functools.lru_cache(maxsize=4)
def _long_tag(most: int) -> re.Pattern:
    return re.compile(rb"<[^<]{%d}" % (4 * most))


@functools.lru_cache(maxsize=4)
def _crowded(most: int) -> etree.XPath:
    return etree.XPath(f"(//*[count(@*) > {most}])[1]")


def _check_attribute_counts(root, most: int) -> tuple:
    """(root, "", None), or (None, problem, line) when an element has more
    than ``most`` attributes (the limit ``max_attributes``): lxml reads an
    element's attributes by name in a list, so looking through many of them
    costs their square."""
    crowded = _crowded(most)(root)
    if not crowded:
        return root, "", None
    el = crowded[0]
    return (None, f"{SIZE_PROBLEM} {most:,} attributes on one element (this "
                  f"<{qname(el)}>, which has {len(el.attrib):,}): mbparse reads at most "
                  f"{most:,} on one element (real ones have a few); "
                  f"{raise_hint('max_attributes')}", el.sourceline)


def _parse_lenient(data: bytes, notes: list[Note], tags: int, parsers: tuple) -> tuple:
    """:func:`parse_xml_bytes` after the prolog and the element count
    (``tags``: the text's ``<``), before the size check, with ``parsers``
    (one of :data:`_PARSERS`)."""
    parser, shallow_parser, tolerant_parser = parsers
    declared: list[str] = []
    repaired: set[str] = set()
    while True:
        try:
            # (elements cannot nest deeper than there are tags)
            if tags <= MAX_ELEMENT_DEPTH:
                return etree.fromstring(data, parser), "", None
            if shallow_parser is not None:
                try:  # a tree this parser builds is too shallow to need the depth check
                    return etree.fromstring(data, shallow_parser), "", None
                except etree.XMLSyntaxError:
                    pass  # a fault, or a limit only the parser below lifts: read it there
            return _check_depth(etree.fromstring(data, parser))
        except etree.XMLSyntaxError as e:
            msg = str(e.msg if hasattr(e, "msg") else e)
            line = e.position[0] if e.position else None
            m = _UNDEFINED_PREFIX.search(str(e))
            if m and m.group(1) not in declared and len(declared) < 32:
                fixed = _declare_prefix(data, m.group(1))
                if fixed is not None:
                    declared.append(m.group(1))
                    data = fixed
                    continue
            kind = _repairable(msg)
            if kind and kind not in repaired:
                repaired.add(kind)
                fixed = _REPAIRS[kind](data, e.position, notes)
                if fixed is not None:
                    data = fixed
                    continue
            if "Failed to parse QName" in msg:
                root = _parse_tolerating_qnames(data, tolerant_parser)
                if root is not None:
                    return _check_depth(root)
            return None, msg, line


# Elements nested deeper than this are refused, as tinyxml2 (which Drake and
# MuJoCo read XML with) refuses them; readers walk trees of this depth safely.
MAX_ELEMENT_DEPTH = 500
DEPTH_PROBLEM = "elements are nested"
_TOO_DEEP = etree.XPath("(/*" + "/*" * MAX_ELEMENT_DEPTH + ")[1]")


def _shallow_parser(blank_text: bool):
    """A parser as :func:`_xml_parser`'s but with libxml2's own limits kept (no
    XML_PARSE_HUGE): it refuses elements nested deeper than 256, so a tree it
    builds needs no walk to find out whether it is deeper than
    :data:`MAX_ELEMENT_DEPTH`. None if this libxml2 lets deeper trees through."""
    parser = _xml_parser(blank_text)
    depth = MAX_ELEMENT_DEPTH + 1
    try:
        etree.fromstring(b"<a>" * depth + b"</a>" * depth, parser)
    except etree.XMLSyntaxError:
        return parser
    return None


# (parser, shallow parser or None, tolerant parser) without and with blank text
_PARSERS = {blank: (_xml_parser(blank, huge_tree=True), _shallow_parser(blank),
                    _xml_parser(blank, huge_tree=True, recover=True))
            for blank in (False, True)}

# (the limit max_elements, in limits: a file with more elements is refused.)
SIZE_PROBLEM = "the file has more than"
_ELEMENT_COUNT = etree.XPath("count(//*)")


def _elements_at_most(data: bytes) -> int:
    """A closer bound on the number of elements in the XML text (every
    ``<`` not closing a tag, comment, declaration or CDATA section starts
    one)."""
    return data.count(b"<") - data.count(b"</") - data.count(b"<!") - data.count(b"<?")


class _PastLimit(Exception):
    pass


def _element_past_limit(data: bytes, most: int) -> tuple[str, int] | None:
    """(tag, line) of the element after the first ``most``, found by a
    parser that builds no tree and stops there; None when there is no such
    element or the text has a fault (the full parse reports those)."""
    from xml.parsers import expat
    parser = expat.ParserCreate()
    seen = 0

    def start(name, attributes):
        nonlocal seen
        seen += 1
        if seen > most:
            raise _PastLimit(name)

    parser.StartElementHandler = start
    try:
        parser.Parse(data, True)
    except _PastLimit as past:
        return past.args[0], parser.CurrentLineNumber
    except expat.ExpatError:
        pass
    return None


def element_count(root) -> int:
    """The number of elements in ``root``'s document, counted by libxml2
    (no Python object per element)."""
    return int(_ELEMENT_COUNT(root))


def _check_size(root, most: int) -> tuple:
    """(root, "", None), or (None, problem, line) when the tree holds more
    than ``most`` elements."""
    if element_count(root) <= most:
        return root, "", None
    past = etree.XPath(f"(//*)[{most + 1}]")(root)[0]
    return None, _size_problem(qname(past), past.sourceline, most), past.sourceline


def _size_problem(tag: str, line: int, most: int) -> str:
    return (f"{SIZE_PROBLEM} {most:,} elements (element {most + 1:,} is this "
            f"<{tag}>): mbparse reads at most {most:,} from one XML file, a limit that "
            "keeps any file's load within seconds (real robot models have a few thousand); "
            f"split the model into files that include each other, or "
            f"{raise_hint('max_elements')}")


def problem_code(problem: str) -> str:
    """The diagnostic code of a problem :func:`parse_xml_bytes` gave."""
    if problem.startswith(DEPTH_PROBLEM):
        return "depth-limit"
    return ("size-limit" if problem.startswith((SIZE_PROBLEM, PARSE_SIZE_PROBLEM))
            else "xml-syntax")


def _check_depth(root) -> tuple:
    """(root, "", None), or (None, problem, line) when the tree is too deep."""
    deep = _TOO_DEEP(root)
    if not deep:
        return root, "", None
    return (None, f"{DEPTH_PROBLEM} more than {MAX_ELEMENT_DEPTH} deep (here, in "
                  f"<{qname(deep[0])}>); mbparse, like Drake's and MuJoCo's XML reader, reads at "
                  f"most {MAX_ELEMENT_DEPTH} levels", deep[0].sourceline)
_DECLARATION = re.compile(rb"\s*<\?xml(?=[\s?])(.*?)\?>", re.DOTALL)
_VERSION = re.compile(rb"""version\s*=\s*["']([^"']*)["']""")
_BOM = b"\xef\xbb\xbf"


def _blank(data: bytes, start: int, end: int) -> bytes:
    """The bytes with [start, end) turned to spaces, newlines kept (so every
    line keeps its number)."""
    middle = bytes(c if c == 0x0A else 0x20 for c in data[start:end])
    return data[:start] + middle + data[end:]


def _tinyxml_prolog(data: bytes, notes: list[Note]) -> bytes:
    """The text with its leading XML declarations blanked out, as tinyxml2
    reads them: after any whitespace, as many as there are, contents unread."""
    if data.startswith(b"<") and not data.startswith(b"<?"):
        return data  # no declaration (none can start later than the first '<')
    if data.startswith(b"<?xml "):  # the common prolog, known without a regex
        end = data.find(b"?>", 5, 200) + 2
        if data[:end] in _PLAIN_PROLOGS:
            after = data[end:end + 64].lstrip()
            if after and not after.startswith(b"<?xml"):  # (no second declaration)
                return data
    start = 3 if data.startswith(_BOM) else 0
    pos, count = start, 0
    while True:
        m = _DECLARATION.match(data, pos)
        if m is None:
            break
        line = data.count(b"\n", 0, m.start(1)) + 1
        version = _VERSION.search(m.group(1))
        if version is None:
            notes.append((line, "the XML declaration gives no version; the file is read as "
                                "XML 1.0, as tinyxml2 (Drake's XML reader) reads it",
                          "xml-version"))
        elif version.group(1) not in (b"1.0", b"1.1"):
            v = version.group(1).decode("utf-8", "replace")
            notes.append((line, f"the XML declaration gives version '{v}', which is no XML "
                                "version (did you mean 1.0?); the file is read as XML 1.0, as "
                                "tinyxml2 (Drake's XML reader) reads it", "xml-version"))
        if count:
            notes.append((line, "a second XML declaration is ignored"))
        count += 1
        pos = m.end()
    if count == 0:
        return data
    if count == 1 and start == 0 and _PLAIN_DECLARATION.match(data, 0, pos) is not None:
        return data  # one plain declaration at the very start: lxml reads it as tinyxml2 does
    return _blank(data, start, pos)


# An XML 1.0 declaration that lxml reads just as tinyxml2 does (which reads
# none of it): nothing before it, and no encoding other than UTF-8.
_PLAIN_DECLARATION = re.compile(
    rb"""<\?xml\s+version\s*=\s*(["'])1\.0\1(?:\s+encoding\s*=\s*(["'])(?i:utf-8)\2)?"""
    rb"""(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>$""")

# The declarations most files start with, each one lxml reads as tinyxml2
# does (kept only if :data:`_PLAIN_DECLARATION` says so).
_PLAIN_PROLOGS = frozenset(
    d for d in (b'<?xml version="1.0"?>', b'<?xml version="1.0" ?>',
                b'<?xml version="1.0" encoding="utf-8"?>',
                b'<?xml version="1.0" encoding="UTF-8"?>',
                b'<?xml version="1.0" encoding="utf-8" ?>',
                b'<?xml version="1.0" encoding="UTF-8" ?>',
                b"<?xml version='1.0'?>", b"<?xml version='1.0' ?>",
                b"<?xml version='1.0' encoding='utf-8'?>",
                b"<?xml version='1.0' encoding='UTF-8'?>")
    if _PLAIN_DECLARATION.match(d) is not None)


def _offset(data: bytes, position) -> int | None:
    """The byte offset of lxml's (line, column), or None."""
    if not position or position[0] < 1:
        return None
    line, column = position
    at = 0
    for _ in range(line - 1):
        at = data.find(b"\n", at) + 1
        if at == 0:
            return None
    return at + max(column - 1, 0)


_BARE_AMPERSAND = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")


def _escape_ampersands(data: bytes, position, notes: list[Note]) -> bytes | None:
    """Every ``&`` that starts no known entity, escaped (tinyxml2 keeps such
    text as written)."""
    found = list(_BARE_AMPERSAND.finditer(data))
    if not found:
        return None
    for m in found[:20]:
        end = data.find(b";", m.start(), m.start() + 32)
        text = data[m.start():end + 1 if end >= 0 else m.start() + 1].decode("utf-8", "replace")
        notes.append((data.count(b"\n", 0, m.start()) + 1,
                      f"'{text}' is not an XML entity (use '&amp;' for '&'); it is kept as "
                      "written, as tinyxml2 (Drake's XML reader) keeps it"))
    return _BARE_AMPERSAND.sub(b"&amp;", data)


def _drop_trailing_content(data: bytes, position, notes: list[Note]) -> bytes | None:
    """The text without what follows the root element (tinyxml2 reads it as
    more top-level nodes, which the model readers never look at)."""
    at = _offset(data, position)
    if at is None:
        return None
    notes.append((position[0], "the file goes on after its root element ends; what follows "
                               "is ignored (as Drake ignores it)"))
    return _blank(data, at, len(data))


def _read_as_latin1(data: bytes, position, notes: list[Note]) -> bytes | None:
    """Text that is not UTF-8, read as Latin-1 (tinyxml2 takes bytes as they are)."""
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError as e:
        notes.append((data.count(b"\n", 0, e.start) + 1,
                      "the file is not valid UTF-8; it is read as Latin-1 (save it as UTF-8 "
                      "so that every reader agrees)"))
    return data.decode("latin-1").encode("utf-8")


_REPAIRS = {"ampersand": _escape_ampersands, "trailing": _drop_trailing_content,
            "encoding": _read_as_latin1}


def _repairable(msg: str) -> str | None:
    if ("Entity '" in msg and "not defined" in msg) or "xmlParseEntityRef" in msg \
            or "EntityRef: expecting ';'" in msg:
        return "ampersand"
    if "Extra content at the end of the document" in msg:
        return "trailing"
    if "Input is not proper UTF-8" in msg or "Invalid bytes in character encoding" in msg:
        return "encoding"
    return None


def _parse_tolerating_qnames(data: bytes, parser: etree.XMLParser):
    """The tree, when the only faults are names that are not namespace QNames
    (``parser``: one that recovers)."""
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None
    errors = [e for e in parser.error_log
              if e.level >= etree.ErrorLevels.ERROR and "QName" not in e.message]
    return root if root is not None and not errors else None


def load_xml(source: DataSource, diag: "XmlDiagnostic", kind: str = "file") -> etree._Element:
    """Parses the source (see :func:`parse_xml_bytes`); malformed XML is a
    located error."""
    notes: list[Note] = []
    root, problem, line = parse_xml_bytes(source.read_bytes(), notes)
    if root is None:
        code = problem_code(problem)
        if code != "xml-syntax":
            diag.policy.error(f"the {kind} is too {'deep' if code == 'depth-limit' else 'large'}: "
                              f"{problem}", diag.file, line, code=code)
        diag.policy.error(f"the {kind} is not well-formed XML: {problem}", diag.file, line,
                          code=code)
    warn_notes(diag.policy, diag.file, notes)
    return root


def warn_notes(policy: DiagnosticPolicy, file: str, notes: list[Note]) -> None:
    """Located warnings for the leniencies :func:`parse_xml_bytes` noted."""
    for line, message, *code in notes:
        policy.warning(message, file, line, code=code[0] if code else "xml-leniency")


def _declare_prefix(data: bytes, prefix: str) -> bytes | None:
    """Adds ``xmlns:prefix`` to the root start tag, keeping line numbers."""
    m = _START_TAG.search(data, _prolog_end(data))
    if m is None:
        return None
    start = m.end()
    decl = f' xmlns:{prefix}="urn:mbparse:undeclared:{prefix}"'.encode()
    return data[:start] + decl + data[start:]


_START_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)")
_PROLOG_ITEM = re.compile(rb"\s*(<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>)", re.DOTALL)


def _prolog_end(data: bytes) -> int:
    """Where the root element's start tag may begin: past the declaration,
    comments and DOCTYPE (matched in place: no copy per comment)."""
    i = 0
    while True:
        m = _PROLOG_ITEM.match(data, i)
        if not m:
            return i
        i = m.end()


def qname(el) -> str:
    """The element's name as written: ``drake:joint`` or ``link``."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    if tag[0] == "{":
        local = tag[tag.index("}") + 1:]
        return f"{el.prefix}:{local}" if el.prefix else local
    return tag


def children(el, name: str | None = None) -> Iterator:
    """Child elements, all or those named ``name``."""
    if name is None:
        return el.iterchildren(etree.Element)
    if ":" not in name:
        return el.iterchildren(name)  # lxml matches a plain name in no namespace only
    return (c for c in el.iterchildren(etree.Element) if qname(c) == name)


def first_child(el, name: str):
    """The first child element named ``name`` (``drake:x`` works), or None."""
    if ":" not in name:
        for c in el.iterchildren(name):  # filtered inside lxml, no Python per child
            return c
        return None
    for c in el.iterchildren(etree.Element):
        if qname(c) == name:
            return c
    return None


def child_map(el) -> dict:
    """The first child element of each name (``drake:x`` for prefixed ones),
    from one pass over the children: for readers that look up several."""
    out: dict = {}
    odd = False
    for c in el:  # plain iteration: the cheapest walk lxml offers
        tag = c.tag
        if tag not in out:
            out[tag] = c
            if tag.__class__ is not str or tag[0] == "{":
                odd = True
    if odd:  # prefixed names, and non-elements (whose tag is not a string)
        fixed: dict = {}
        for k, c in out.items():
            if k.__class__ is str:
                fixed.setdefault(qname(c) if k[0] == "{" else k, c)
        out = fixed
    return out


NO_CHILDREN: dict = MappingProxyType({})  # type: ignore[assignment]  # (read only)


def expected_children(el, tags: tuple[str, ...]) -> tuple[list, dict]:
    """The first child of ``el`` named each of ``tags`` (None where there is
    none), from one walk over its children, and ``el``'s :func:`child_map`
    when it holds any other child element (else an empty read-only map): an
    element that holds only what its reader expects costs no map."""
    found = [None] * len(tags)
    for c in el:
        tag = c.tag
        if tag in tags:
            i = tags.index(tag)
            if found[i] is None:
                found[i] = c
        elif tag.__class__ is str:  # anything else: the general reading
            kids = child_map(el)
            return [kids.get(t) for t in tags], kids
    return found, NO_CHILDREN


def attr(el, name: str) -> str | None:
    """An attribute by its written name (``drake:acceleration`` works)."""
    if ":" not in name:
        return el.get(name)
    prefix, local = name.split(":", 1)
    ns = el.nsmap.get(prefix)
    return el.get(f"{{{ns}}}{local}") if ns else el.get(name)


def attr_names(el) -> list[str]:
    out = []
    for key in el.attrib:
        if key[0] == "{":
            ns, local = key[1:].split("}", 1)
            prefix = next((p for p, u in el.nsmap.items() if u == ns), None)
            out.append(f"{prefix}:{local}" if prefix else local)
        else:
            out.append(key)
    return out


# At most this many texts (and poses, and URDF inertias) are remembered per file.
MEMO_LIMIT = 4096


class XmlDiagnostic:
    """Reports problems at an element's line in one file."""

    def __init__(self, policy: DiagnosticPolicy, file: str):
        self.policy = policy
        self.file = file
        # Texts this file's reading already found to be plain finite numbers,
        # and the poses of <origin> texts: a model repeats a few ("0 0 0",
        # "1 0 0"), and a generated one the same few thousands of times.
        # Kept per file (one parse), never across parses.
        self._numbers: dict[str, tuple[float, ...]] = {}
        self._poses: dict[tuple[str | None, str | None], RigidTransform] = {}

    def where(self, el) -> tuple[str, int | None]:
        """The file and line an element came from (for generated text, such
        as an expanded xacro file, the place in its source)."""
        locate = self.policy.locate
        if locate is not None:
            return locate(self.file, _line(el))
        return self.file, _line(el)

    def error(self, el, message: str, code: str | None = None) -> NoReturn:
        """Raises a ParseError at ``el``."""
        file, line = self.where(el)
        self.policy.error(message, file, line, element=_name(el), code=code)

    def warning(self, el, message: str, code: str | None = None) -> None:
        """Reports a warning at ``el``."""
        if self.policy.saturated():
            return
        file, line = self.where(el)
        self.policy.warning(message, file, line, element=_name(el), code=code)

    def drake_refuses(self, el, message: str, what_mbparse_does: str,
                      code: str = "drake-refuses") -> None:
        """Something Drake refuses for a limit of its own: an error at ``el``
        in Drake's mode, otherwise a warning saying so and what mbparse does."""
        file, line = self.where(el)
        self.policy.drake_refuses(message, what_mbparse_does, file, line, _name(el), code=code)

    def warn_unsupported_element(self, el, tag: str, kids: dict | None = None) -> None:
        """Warns at ``el``'s child ``tag`` if there is one (``kids``: the
        :func:`child_map` of ``el`` when the caller has it)."""
        sub = first_child(el, tag) if kids is None else kids.get(tag)
        if sub is not None:
            self.warning(sub, f"<{tag}> inside <{qname(el)}> is not supported; it is ignored",
                         code="xml-unsupported")

    def warn_unsupported_attribute(self, el, name: str) -> None:
        if attr(el, name) is not None:
            self.warning(el, f"attribute '{name}' of <{qname(el)}> is not supported; it is "
                             "ignored", code="xml-unsupported")

    def refused(self, el, error: Exception) -> NoReturn:
        """The model's refusal ``error`` (a ModelError, ShapeError or
        PackageMapError raised while adding what ``el`` declares) as an
        error at ``el``: what :meth:`located` does, for a reader that
        catches the refusal itself."""
        self.error(el, str(error), code=getattr(error, "code", None) or _refusal_code(type(error)))

    def located(self, el) -> "_Located":
        """A context: model elements added inside were declared at ``el``
        (the plant records that as their ``source``), and the model's
        refusals inside become errors at ``el``."""
        return _Located(self, el)

    def add_at(self, el, add: Callable[..., _T], *args) -> _T:
        """``add(*args)`` (a plant or scene-graph call) as ``with
        self.located(el)`` makes it, without the context object: readers
        add a body, frame, joint or geometry per element, and the object
        and its two calls were some 1.4% of the SDFormat set's instructions."""
        token = CURRENT_SOURCE.set(_declared_at(self, el))
        try:
            return add(*args)
        except REFUSALS as e:
            self.refused(el, e)
        finally:
            CURRENT_SOURCE.reset(token)

    # -- typed attributes
    def scalar(self, el, name: str, default: float | None = None,
               text: str | None | bool = False) -> float | None:
        """A one-number attribute; absent gives ``default``; not one number
        is an error. ``text``: the attribute's text (None: absent) when the
        caller has it."""
        if text is False:
            text = el.get(name) if ":" not in name else attr(el, name)
        if text is None:
            return default
        known = self._numbers.get(text)
        if known is not None and len(known) == 1:
            return known[0]
        value = fast_number(text)
        if value is not None:
            if len(self._numbers) < MEMO_LIMIT:
                self._numbers[text] = (value,)
            return value
        self._short_enough(el, name, text, 1)
        vals = parse_float_prefixes(text)
        if len(vals) != 1 or len(text.split()) != 1:
            self.error(el, f"attribute '{name}' of <{qname(el)}> should be one number, not "
                           f"'{quote(text)}'", code=unreadable_code(text, "xml-value-invalid"))
        self.check_numbers(el, name, text, vals)
        return vals[0]

    def scalars(self, el, names: tuple[str, ...], values: list) -> list:
        """Reads each of the attributes ``names`` that ``el`` has, as
        :meth:`scalar` reads it, into ``values`` (the defaults, one per
        name); returns ``values``. One call for an element of several
        numbers (a joint's <limit>); a text read before costs one lookup."""
        get = el.get
        texts: list[str | None] = [None] * len(names)
        found, prefixed = 0, False
        for i, name in enumerate(names):
            if ":" in name:
                prefixed = True
            elif (text := get(name)) is not None:
                texts[i] = text
                found += 1
        if prefixed and found != len(el.attrib):
            # Some attribute is not among the plain names: look up the
            # prefixed ones (the namespace a prefix stands for costs more).
            for i, name in enumerate(names):
                if ":" in name:
                    texts[i] = attr(el, name)
        known = self._numbers
        for i, text in enumerate(texts):
            if text is None:
                continue
            value = known.get(text)
            if value is not None and len(value) == 1:
                values[i] = value[0]
            else:  # (the text found above: no second lookup)
                values[i] = self.scalar(el, names[i], None, text)
        return values

    def read_plainly(self, text: str, n: int) -> bool:
        """Whether ``text`` was read in this file as ``n`` plain finite
        numbers (:meth:`scalar`, :meth:`vector`): reading it again as such
        says nothing."""
        known = self._numbers.get(text)
        return known is not None and len(known) == n

    def vector(self, el, name: str, n: int, default=None, text: str | None | bool = False):
        """An attribute of ``n`` numbers (a tuple); absent gives ``default``.
        ``text``: the attribute's text (None: absent) when the caller has it."""
        if text is False:
            text = el.get(name) if ":" not in name else attr(el, name)
        if text is None:
            return default
        known = self._numbers.get(text)
        if known is not None and len(known) == n:
            return known
        values = fast_numbers(text, n)
        if values is not None:
            if len(self._numbers) < MEMO_LIMIT:
                self._numbers[text] = values
            return values
        self._short_enough(el, name, text, n)
        vals = parse_float_prefixes(text)
        if len(vals) > n and len(text.split()) == len(vals):
            # More numbers than needed ("1 1 1 1" as a mesh scale): Drake
            # refuses them; urdfdom's pybullet fork and yourdfpy take the first n.
            self.check_numbers(el, name, text, vals)
            self.drake_refuses(el, f"attribute '{name}' of <{qname(el)}> should be {n} numbers, "
                                   f"not {len(vals)} ('{quote(text)}')",
                               f"mbparse reads the first {n} and ignores the rest",
                               code="xml-value-invalid")
            return tuple(vals[:n])
        if len(vals) != n or len(text.split()) != n:
            lenient = self.unreadable_vector(el, name, text, n)
            if lenient is not None:
                return lenient
            self.error(el, f"attribute '{name}' of <{qname(el)}> should be {n} numbers, not "
                           f"'{quote(text)}'", code=unreadable_code(text, "xml-value-invalid"))
        self.check_numbers(el, name, text, vals)
        return tuple(vals)

    def _short_enough(self, el, name: str, text: str, n: int) -> None:
        """Refuses a value of ``n`` numbers that did not read as such and is
        longer than :data:`MAX_NUMBERS_TEXT` (a hostile megabyte of numbers,
        which would otherwise be read one by one to say what is wrong)."""
        if len(text) > MAX_NUMBERS_TEXT and len(text.split(None, n)) > n:
            self.error(el, f"attribute '{name}' of <{qname(el)}> should be {n} number"
                           f"{'s' if n > 1 else ''}, not {len(text):,} characters of text "
                           f"('{quote(text)}'); mbparse reads no more than "
                           f"{MAX_NUMBERS_TEXT:,} characters of a value that is not {n} "
                           "plain numbers", code="size-limit")

    def unreadable_vector(self, el, name: str, text: str, n: int) -> tuple | None:
        """A format's own reading of a vector attribute ``text`` that is not
        ``n`` whitespace-separated numbers, or None (the default: an error)."""
        return None

    def check_numbers(self, el, name: str, text: str, vals, finite: bool = True) -> None:
        """Refuses a non-finite value (when ``finite``) and warns about a
        token only partly a number (``1,2`` read as 1, as Drake reads it)."""
        if finite and not all_finite(vals):
            self.error(el, f"attribute '{name}' of <{qname(el)}>: "
                           f"{non_finite_problem(text, vals)}", code=non_finite_code(vals))
        partial = partial_number_problem(text)
        if partial is not None:
            self.warning(el, f"attribute '{name}' of <{qname(el)}>: {partial} (Drake reads it "
                             "the same way, silently); write a plain number",
                         code="number-malformed")

    def origin(self, el, others=None) -> RigidTransform:
        """The pose of an ``<origin xyz rpy>`` element (identity when None);
        ``others(el)`` is called when it has other attributes too."""
        if el is None:
            return IDENTITY
        # The memo's key is the element's (name, text) pairs as written: one
        # call to lxml (two get()s and a count of the attributes cost more).
        items = tuple(el.items())
        pose = self._poses.get(items)
        if pose is None:
            pose = self._read_origin(el, items, others)
        return pose

    def _read_origin(self, el, items: tuple, others) -> RigidTransform:
        """:meth:`origin` for attributes ``items`` not met before in this
        file (or met with a word to say); a pose read from plain numbers,
        of an element with no other attributes, is remembered."""
        xyz = rpy = None
        for name, text in items:
            if name == "xyz":
                xyz = text
            elif name == "rpy":
                rpy = text
        plain = len(items) == (xyz is not None) + (rpy is not None)
        if others is not None and not plain:
            others(el)
        p = ZERO3 if xyz is None else self._plain_vector3(xyz)
        angles = ZERO3 if rpy is None else self._plain_vector3(rpy)
        if p is None or angles is None:  # (the careful reading, with its words)
            p = self.vector(el, "xyz", 3, ZERO3, xyz)
            return RigidTransform.from_rpy_xyz(self.vector(el, "rpy", 3, ZERO3, rpy), p)
        pose = RigidTransform.of_floats(angles, p)
        if plain and len(self._poses) < MEMO_LIMIT:
            self._poses[items] = pose
        return pose

    def _plain_vector3(self, text: str) -> tuple[float, ...] | None:
        """``text`` as three plain finite numbers (remembered), or None
        (then :meth:`vector` reads it and says what is wrong)."""
        known = self._numbers.get(text)
        if known is not None and len(known) == 3:
            return known
        values = fast_numbers(text, 3)
        if values is not None and len(self._numbers) < MEMO_LIMIT:
            self._numbers[text] = values
        return values


def _line(el) -> int | None:
    return getattr(el, "sourceline", None) if el is not None else None


def _name(el) -> str | None:
    return qname(el) if el is not None and hasattr(el, "tag") else None


def _declared_at(diag: XmlDiagnostic, el) -> tuple:
    """Where the model elements added for ``el`` are declared: the
    diagnostic's file (placed by the policy's ``locate``, as for generated
    text) and the element's line."""
    line = getattr(el, "sourceline", None) if el is not None else None
    locate = diag.policy.locate
    return (diag.file, line) if locate is None else locate(diag.file, line)


class _Located:
    """The context :meth:`XmlDiagnostic.located` returns (a class, not a
    generator: readers enter one per element)."""

    __slots__ = ("diag", "el", "token")

    def __init__(self, diag: XmlDiagnostic, el):
        self.diag, self.el = diag, el

    def __enter__(self) -> None:
        self.token = CURRENT_SOURCE.set(_declared_at(self.diag, self.el))

    def __exit__(self, kind, error, traceback) -> bool:
        CURRENT_SOURCE.reset(self.token)
        if kind is not None and issubclass(kind, REFUSALS):
            self.diag.refused(self.el, error)
        return False
