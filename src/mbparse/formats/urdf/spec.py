"""The attributes the URDF specification (and Drake's URDF extensions) give
the elements whose values are numbers or names a typo would silently lose:
``<limit lowr="-1">`` leaves the lower limit at -inf without a word. An
attribute not listed for its element is reported with the closest known
name. Only a likely typo (a known name within an edit or two) is a warning;
any other extra attribute (vendors add their own: ``<limit current=..>``,
``<dynamics K=..>``) is a note. The loader stays as lenient as Drake, which
ignores both.

Elements not listed (robot, link, joint, visual, collision, and everything
inside ``<gazebo>`` or ``<transmission>``, which other tools define) are not
checked here; the reader reports the children it does not know itself.

Where the check runs: :func:`check_attributes` walks the whole tree before
anything is read when warnings are errors (strict) or errors are collected
(``mbparse check``). Otherwise (:class:`SpecCheck`) the reader checks each
element where it already holds it -- the walk over ``<robot>`` cost an
eighth of a small URDF's instructions, mostly for lxml objects and
attribute lists the reader made again --, and every subtree it does not
read (a second ``<origin>``, an unknown child, a ``<material>``) is walked
as before. The same warnings come out, in reading order rather than all
first; a parse that an error ends walks what it had not read, so none is
lost.
"""
from __future__ import annotations

from ..common.suggest import closest
from ..common.xml import XmlDiagnostic, qname

ATTRIBUTES: dict[str, frozenset[str]] = {tag: frozenset(names.split()) for tag, names in {
    "origin": "xyz rpy",
    "axis": "xyz",
    "parent": "link",
    "child": "link",
    "limit": "lower upper effort velocity drake:acceleration",
    "dynamics": "damping friction",
    "mimic": "joint multiplier offset",
    "calibration": "rising falling reference_position",
    "safety_controller": "soft_lower_limit soft_upper_limit k_position k_velocity",
    "mass": "value",
    "inertia": "ixx ixy ixz iyy iyz izz",
    "box": "size",
    "cylinder": "radius length",
    "sphere": "radius",
    "capsule": "radius length",
    "mesh": "filename scale",
    "color": "rgba",
    "texture": "filename",
}.items()}
# The children the specification gives these elements (namespaced ones,
# such as Drake's drake:*, are read or reported by the reader itself).
CHILDREN: dict[str, frozenset[str]] = {tag: frozenset(names.split()) for tag, names in {
    "joint": "origin parent child axis calibration dynamics limit mimic safety_controller",
    "inertial": "origin mass inertia",
    "visual": "origin geometry material",
    "collision": "origin geometry verbose",
    "geometry": "box cylinder sphere capsule mesh",
}.items()}
# Elements whose insides belong to other tools, or to extensions that check
# their own children (iDynTree's <sensor>, the older <loop_joint> and
# <force_element>).
FOREIGN = frozenset({"gazebo", "transmission", "sensor", "loop_joint", "force_element"})


# Every element either check looks at, found by lxml's own tag filter (an
# element is checked for its attributes or for its children, never both).
assert not set(ATTRIBUTES) & set(CHILDREN)
_WATCHED = tuple(sorted(set(ATTRIBUTES) | set(CHILDREN)))


def check_attributes(diag: XmlDiagnostic, root, reported: set | None = None) -> None:
    """Reports every attribute of a listed element, and every child of a
    listed parent, that the specification does not give it: a warning naming
    the one probably meant, or a note when nothing known is close. Nothing
    inside a foreign element is looked at (asked only of an element found
    wanting: most files have nothing to report). ``reported``: elements
    already reported on, skipped, and to which those reported here are added."""
    _check(diag, root.iter(*_WATCHED), reported)


def _check(diag: XmlDiagnostic, elements, reported: set | None) -> None:
    """:func:`check_attributes` of each of ``elements`` (any element: those
    not listed are passed over)."""
    attributes, children = ATTRIBUTES, CHILDREN
    for el in elements:
        tag = el.tag
        known = attributes.get(tag)
        if known is None and tag not in children:
            continue
        if reported and el in reported:
            continue
        if known is not None:
            keys = el.keys()
            if known.issuperset(keys):
                continue
            for key in keys:
                if key not in known and ":" not in key and "{" not in key:
                    break
            else:
                continue  # (only prefixed attributes, which are not checked)
            if not _in_foreign(el):
                _unknown_attributes(diag, el, tag, known)
                if reported is not None:
                    reported.add(el)
            continue
        kids = children[tag]
        for _ in _unknown_child_names(el, kids):
            if not _in_foreign(el):
                _unknown_children(diag, el, tag, kids)
                if reported is not None:
                    reported.add(el)
            break


def _unknown_child_names(el, kids: frozenset[str]):
    """(child, name) for each child of ``el`` whose plain name is not among
    ``kids`` (prefixed and foreign ones are not checked)."""
    for child in el:
        name = child.tag
        if name in kids or name.__class__ is not str or not _checked_child_name(name):
            continue
        yield child, name


def _checked_child_name(name: str) -> bool:
    """Whether a child element called ``name`` (a plain tag, not among its
    parent's children) is reported: not a foreign element, not prefixed."""
    return name not in FOREIGN and ":" not in name and "{" not in name


def _unknown_children(diag: XmlDiagnostic, el, tag: str, kids: frozenset[str]) -> None:
    """Warns at each child of ``el`` (a ``<tag>``) that is not among ``kids``."""
    for child, name in _unknown_child_names(el, kids):
        meant = closest(name, kids)
        if meant is not None:
            diag.warning(child, f"<{name}> is not a child of <{tag}>; it is "
                                f"ignored. Did you mean <{meant}>?",
                         code="urdf-unknown-element")
        else:
            diag.warning(child, f"<{name}> is not a child of <{tag}> in URDF; it "
                                "is ignored", code="urdf-unsupported")


def _in_foreign(el) -> bool:
    """Whether ``el`` is inside a foreign element."""
    for _ in el.iterancestors(*FOREIGN):
        return True
    return False


def _unknown_attributes(diag: XmlDiagnostic, el, tag: str, known: frozenset[str]) -> None:
    for key in el.attrib:
        if key in known or ":" in key or "{" in key:
            continue
        meant = closest(key, known)
        if meant is not None:
            diag.warning(el, f"<{tag}> has no attribute '{key}'; it is ignored. "
                             f"Did you mean '{meant}'?", code="urdf-unknown-attribute")
        else:
            diag.warning(el, f"<{tag}> has no attribute '{key}' in URDF; it is ignored",
                         code="urdf-unsupported")


class SpecCheck:
    """The check of one file's tree, run where the reader holds each element
    (see the module's docstring); with ``strict`` or ``collect_errors``
    (``inline`` false), one walk before reading, as :func:`check_attributes`."""

    __slots__ = ("diag", "inline", "reported")

    def __init__(self, diag: XmlDiagnostic, root):
        self.diag = diag
        policy = diag.policy
        # In these modes a warning raises, or reading goes on past an error
        # inside an element: the warnings must all come first.
        self.inline = not (policy.strict or policy.collect_errors)
        # The elements reported on so far (the walk after an error skips them).
        self.reported: set = set()
        if not self.inline:
            check_attributes(diag, root)

    def subtree(self, el) -> None:
        """Checks ``el`` and everything inside it: a part the reader does not
        read (or reads without checking)."""
        if self.inline:
            # (lxml's iter() with the listed tags costs some 40,000
            # instructions to set up: too much for a part of a few elements)
            _check(self.diag, el.iter() if len(el) else (el,), self.reported)

    def rest(self, root) -> None:
        """After an error ended the reading: checks what is left of the tree
        (read links are gone from it; what was checked and found wanting is
        skipped, and what was checked and found fine is fine again)."""
        if self.inline:
            self.inline = False
            check_attributes(self.diag, root, self.reported)

    def children(self, el, parent: str | None, descend: str | None = None,
                 taken: tuple[str, ...] = ("origin",)) -> tuple[dict, object]:
        """``el``'s :func:`child_map` (its first child of each name), each
        child checked on the way: a listed one's attributes, and, when
        ``parent`` names ``el``'s (plain) tag, whether ``el`` may have it.
        What the reader does not read further is checked whole, except the
        first plain ``descend`` child, which the reader reads and checks
        itself (returned, or None when it is not plain: then it is checked
        here), and the attributes of the first of each of the ``taken``
        children, which the reader reads and checks (:meth:`counted`; an
        ``<origin>``, diag.origin with :meth:`origin_has_others`)."""
        out: dict = {}
        odd = False
        inline = self.inline
        kids = CHILDREN[parent] if parent is not None else None
        unknown = False
        attributes = ATTRIBUTES
        for c in el:  # (plain iteration: the cheapest walk lxml offers; one pass)
            tag = c.tag
            if tag.__class__ is not str:
                continue  # (not an element)
            first = tag not in out
            if first:
                out[tag] = c
                if tag[0] == "{":
                    odd = True
            if not inline:
                continue
            known = attributes.get(tag)
            if known is not None:
                if not (first and tag in taken) and not known.issuperset(c.keys()):
                    self._attributes(c, tag, known)
                if len(c):
                    for g in c:
                        self.subtree(g)
            elif not (first and tag == descend):
                self.subtree(c)
            if kids is not None and tag not in kids and _checked_child_name(tag):
                unknown = True
        if unknown:
            _unknown_children(self.diag, el, parent, kids)
            self.reported.add(el)
        if odd:  # prefixed names (as child_map reads them)
            fixed: dict = {}
            for k, c in out.items():
                fixed.setdefault(qname(c) if k[0] == "{" else k, c)
            if inline:  # a prefixed child came first: the plain one left to the reader is not read
                for tag in (*taken, descend):
                    c = out.get(tag)
                    if c is not None and fixed[tag] is not c:
                        if tag == descend:
                            self.subtree(c)
                        elif not ATTRIBUTES[tag].issuperset(c.keys()):
                            self._attributes(c, tag, ATTRIBUTES[tag])
            out = fixed
        descended = None
        if descend is not None:
            descended = out.get(descend)
            if descended is not None and descended.tag != descend:
                descended = None
        return out, descended

    def inside(self, el) -> None:
        """Checks what is inside ``el``, an element the reader reads alone."""
        if self.inline and len(el):
            for g in el:
                self.subtree(g)

    def counted(self, el, tag: str, found: int) -> None:
        """Checks ``el``, a child :meth:`children` left to the reader, which
        looked up each attribute a ``<tag>`` may have and ``found`` of them:
        when it has no others (the common case: a count, some 800
        instructions, where listing the names costs 1,400) it is fine;
        otherwise it is checked when it is a plain ``<tag>``."""
        if self.inline and len(el.attrib) != found and el.tag == tag:
            self._attributes(el, tag, ATTRIBUTES[tag])

    def origin_has_others(self, el) -> None:
        """Checks an ``<origin>`` (the first of its parent's, which
        :meth:`children` leaves to the reader) that has attributes other
        than xyz and rpy (or may have: None is not an element)."""
        if self.inline and el is not None and el.tag == "origin":
            self._attributes(el, "origin", ATTRIBUTES["origin"])

    def _attributes(self, el, tag: str, known: frozenset[str]) -> None:
        for key in el.keys():
            if key not in known and ":" not in key and "{" not in key:
                _unknown_attributes(self.diag, el, tag, known)
                self.reported.add(el)
                return
