"""The MJCF text: the main file, its ``<include>`` files spliced in place
(lexically, as MuJoCo does), and located diagnostics that name the file an
element came from."""
from __future__ import annotations

import os
from typing import NoReturn

from lxml import etree

from ...diagnostics import DiagnosticPolicy, ParseError
from ...limits import MAX_INCLUDE_SPLICES, current_limits, raise_hint
from ...workspace import DataSource, charge_elements
from ..common.xml import XmlDiagnostic, element_count, load_xml

# The root elements an included file usually has (MuJoCo accepts any).
INCLUDE_ROOTS = ("mujoco", "mujocoinclude")
# Includes nested deeper than this are refused (MuJoCo's limit).
MAX_INCLUDE_DEPTH = 32
# A document's includes are spliced in at most the limit max_include_splices
# of times (mbparse.limits, which says why); this is its default.
MAX_INCLUDE_EXPANSIONS = MAX_INCLUDE_SPLICES


def tag(el) -> str:
    """The element's tag ('' for comments and other non-elements)."""
    return el.tag if isinstance(el.tag, str) else ""


class Document:
    """A parsed MJCF file with its includes.

    ``kids(el)`` yields an element's child elements with every ``<include>``
    replaced by the children of the included file's root element; the
    included elements keep their own file for diagnostics.
    """

    def __init__(self, source: DataSource, policy: DiagnosticPolicy):
        self.policy = policy
        self.main_name = source.name()
        # (the main file's absolute path once: its folder is source.root_dir())
        main_path = os.path.abspath(source.filename) if source.is_file() else None
        self.base_dir = os.path.dirname(main_path) if main_path is not None else os.getcwd()
        self._diags: dict[object, XmlDiagnostic] = {}
        # What the schema check reported as not MJCF (elements, and (element,
        # attribute name) pairs): the readers skip them without a second word.
        self.unknown: set = set()
        self._included: dict[str, object] = {}
        # An <include> 'file' found relative to the main file's folder: its path.
        self._include_paths: dict[str, str] = {}
        # kids() of elements without an <include> child; False for those with one.
        self._kids: dict[object, tuple | bool] = {}
        # Whether a listing of children (kids()) met a <replicate>, or an
        # <include> (which may bring one): the schema check lists the children
        # of every element it knows, so after it False means none is to be expanded.
        self.met_replicate = False
        main_diag = XmlDiagnostic(policy, self.main_name)
        self.root = load_xml(source, main_diag)
        self._diags[self.root] = main_diag
        self._main_diag = main_diag
        self._only_main = True  # no <include> read yet
        self._include_stack: list[str] = [main_path] if main_path is not None else []
        self._expansions = 0  # includes spliced in so far
        # Included roots' element counts, and the places they were spliced in
        # (see _count_splice).
        self._splice_sizes: dict[object, int] = {}
        self._splices_counted: set[tuple] = set()
        # element -> (include stack, splices, children) of a silent whole
        # expansion of its children (see _kids_expanding)
        self._spliced: dict[object, tuple] = {}
        # The first <include> of each included file (its file, line and path), and
        # the other <include>s of the same file already warned about.
        self._first_include: dict[str, tuple] = {}
        self._repeat_warned: set[tuple] = set()
        # The errors of <include>s that could not be read, recorded once each
        # while collecting errors (the readers walk the model more than once).
        self._include_errors: set = set()

    # ------------------------------------------------------------ diagnostics
    def diag(self, el) -> XmlDiagnostic:
        """The diagnostic of the file ``el`` was read from."""
        if self._only_main:  # no include read: every element is the main file's
            return self._main_diag
        root = el.getroottree().getroot()
        return self._diags.get(root) or self._diags[self.root]

    def error(self, el, message: str, code: str | None = None) -> NoReturn:
        """Raises a ParseError located at ``el``."""
        self.diag(el).error(el, message, code=code)

    def warning(self, el, message: str, code: str | None = None) -> None:
        """Reports a warning located at ``el``."""
        self.diag(el).warning(el, message, code=code)

    def recover(self, error: ParseError) -> None:
        """What :meth:`DiagnosticPolicy.recovering` does with an error, for
        the readers' loops that catch it themselves (a ``try`` costs nothing
        until something is raised; a context per element does): with
        ``collect_errors`` the error is recorded and reading goes on, else it
        is raised again."""
        policy = self.policy
        if not policy.collect_errors:
            raise error
        policy.errors_seen.append(error.diagnostic)

    def file_of(self, el) -> str:
        return self.diag(el).file

    def relative_to_include(self, el, file: str, path: str, what: str) -> str:
        """Where MuJoCo looks for ``file`` (written at ``el``) when ``path``,
        its place relative to the main file's folder, does not exist: relative
        to the folder of the included file ``el`` was read from. Drake looks
        only at ``path``: in Drake's mode (or for an element of the main
        file, or when that file does not exist either) ``path`` is returned
        unchanged, for the caller's not-found error; otherwise a warning says
        Drake would refuse it."""
        diag = self.diag(el)
        if self.policy.like_drake or os.path.isabs(file) or diag is self._diags[self.root]:
            return path
        near = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(diag.file)), file))
        if not os.path.isfile(near):
            return path
        diag.drake_refuses(
            el, f"the {what} '{file}' does not exist relative to the main file's folder "
                f"(looked for '{path}')",
            f"mbparse reads '{near}', relative to the included file, as MuJoCo does",
            code="file-missing")
        return near

    # ------------------------------------------------------------ includes
    def kids(self, el, name: str | None = None):
        """Child elements (named ``name``, or all), includes expanded.

        The children of an element without an ``<include>`` among them are
        listed once and kept (the readers and the schema check ask for the
        same elements' children again and again); an element with one is
        expanded lazily, so that an include's error surfaces exactly where
        the reading reaches it, until an expansion of all its children ends
        without a word (then that is kept too)."""
        found = self._kids.get(el)
        if found is None:
            found = tuple(el.iterchildren(etree.Element))  # elements only, filtered in lxml
            for c in found:
                t = c.tag
                if t == "include":
                    found = False
                    self.met_replicate = True
                    break
                if t == "replicate":
                    self.met_replicate = True
            self._kids[el] = found
        if found is False:
            kept = self._spliced.get(el)
            if kept is None or kept[0] != self._include_stack \
                    or self._over_splices(self._expansions + kept[1]):
                return self._kids_expanding(el, name)
            # Spliced as before, from the same place in the includes: the same
            # elements, silently; they count towards the limit as they did.
            self._expansions += kept[1]
            found = kept[2]
        if name is None:
            return found
        return [c for c in found if c.tag == name]

    def forget_kids(self, el) -> None:
        """Drops the kept children of ``el`` (after its children changed)."""
        self._kids.pop(el, None)
        # Children kept after splicing may hold el's children (el may be an
        # included file's root): none is kept any longer.
        self._spliced.clear()

    def _kids_expanding(self, el, name: str | None):
        # A first expansion of all the children that ends without an error
        # or a warning is kept, with the include stack it was made under and
        # the splices it made: expanding them again from there would give
        # the same elements, silently (an expansion that warns, as an
        # <include> found beside the file that includes it does, is left to
        # warn again).
        warnings = self.policy.warnings_seen
        before = len(warnings)
        stack = list(self._include_stack)
        expansions = self._expansions
        got = [] if name is None else None
        for c in el.iterchildren(etree.Element):
            t = c.tag
            if t == "include":
                for k in self._expand(c):
                    if got is not None:
                        got.append(k)
                    if name is None or tag(k) == name:
                        yield k
            else:
                if got is not None:
                    got.append(c)
                if name is None or t == name:
                    yield c
        if got is not None and len(warnings) == before and self._kids.get(el) is False:
            self._spliced[el] = (stack, self._expansions - expansions, tuple(got))

    def first(self, el, name: str):
        for k in self.kids(el, name):
            return k
        return None

    @staticmethod
    def _over_splices(count: int) -> bool:
        """Whether ``count`` splices pass the limit ``max_include_splices``."""
        most = current_limits().max_include_splices
        return bool(most) and count > most

    def _expand(self, include_el):
        """The children of an included file's root, themselves expanded."""
        self._expansions += 1
        if self._over_splices(self._expansions):
            self.error(include_el, f"<include> of '{include_el.get('file')}': this model's "
                                   f"includes have been spliced in "
                                   f"{current_limits().max_include_splices:,} times, mbparse's "
                                   "limit (files that include the same file more than once "
                                   "multiply; MuJoCo refuses a file included twice); include "
                                   f"each file once, or {raise_hint('max_include_splices')}",
                       code="size-limit")
        try:
            root = self._load_include(include_el)
        except ParseError as e:
            # While collecting errors (``check``), an include that cannot be
            # read brings nothing, and the rest of the model is still read.
            if not self.policy.collect_errors:
                raise
            if e.diagnostic not in self._include_errors:  # (walked more than once)
                self._include_errors.add(e.diagnostic)
                self.recover(e)
            return
        self._count_splice(include_el, root)
        path = self._diags[root].file
        self._include_stack.append(path)
        try:
            yield from self.kids(root)
        finally:
            self._include_stack.pop()

    def _count_splice(self, include_el, root) -> None:
        """Counts the included file's elements against the parse's element
        budget each time an <include> splices it in at a new place, but the
        first (reading the file counted those)."""
        where = (include_el, tuple(self._include_stack))
        if where in self._splices_counted:
            return  # (the readers walk the model more than once)
        size = self._splice_sizes.get(root)
        if size is None:
            self._splice_sizes[root] = element_count(root)
        else:
            problem = charge_elements(size)
            if problem is not None:  # (raised again at every walk: the schema check's is lost)
                self.error(include_el, f"<include> of '{include_el.get('file')}': {problem}",
                           code="size-limit")
        self._splices_counted.add(where)

    def _load_include(self, include_el):
        file = include_el.get("file")
        if file is None:
            self.error(include_el, "<include> has no 'file' attribute",
                       code="mjcf-attribute-missing")
        # MuJoCo resolves an include against the main file's folder first,
        # then against the folder of the file that includes it.
        path = self._include_paths.get(file)
        found = path is not None  # (a regular file: os.path.isfile said so)
        if path is None:
            path = os.path.abspath(os.path.join(self.base_dir, file))
            if os.path.isfile(path):
                self._include_paths[file] = path  # found where MuJoCo looks first
                found = True
            else:
                path = self.relative_to_include(include_el, file, path, "<include> file")
        if path in self._include_stack:
            self.error(include_el, f"<include> of '{file}' forms a cycle: the file is already "
                                   "being included", code="include-cycle")
        if len(self._include_stack) > MAX_INCLUDE_DEPTH:
            self.error(include_el, f"<include> of '{file}' nests includes more than "
                                   f"{MAX_INCLUDE_DEPTH} files deep, MuJoCo's limit",
                       code="depth-limit")
        where = (self.file_of(include_el), include_el.sourceline,
                 include_el.getroottree().getpath(include_el))
        first = self._first_include.setdefault(path, where)
        if first != where and where not in self._repeat_warned:
            self._repeat_warned.add(where)
            self.warning(include_el, f"'{file}' is included a second time (first at "
                                     f"{os.path.basename(first[0])}:{first[1]}): MuJoCo refuses "
                                     "a file included twice; Drake and mbparse splice it in again",
                         code="mjcf-include-repeated")
        root = self._included.get(path)
        if root is None:
            if not found and not os.path.isfile(path):
                self.error(include_el, f"the <include> file '{file}' (resolved to '{path}') "
                                       "does not exist or is not a regular file",
                           code="file-missing")
            diag = XmlDiagnostic(self.policy, path)
            root = load_xml(DataSource(filename=path), diag, kind="<include> file")
            if tag(root) not in INCLUDE_ROOTS:
                # MuJoCo and Drake splice the children of any root element.
                diag.warning(root, f"the included file '{file}' has a <{tag(root)}> root, not "
                                   "<mujoco> or <mujocoinclude>; its children are included all "
                                   "the same", code="mjcf-include-root")
            self._diags[root] = diag
            self._only_main = False
            self._included[path] = root
        return root


def is_element(el) -> bool:
    return isinstance(el.tag, str)


__all__ = ["Document", "tag", "is_element"]
