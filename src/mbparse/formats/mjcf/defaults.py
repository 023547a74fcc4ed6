"""``<default>`` classes: nested classes inherit their parent's values, and
an element takes its values from its ``class``, else from the nearest
enclosing body's ``childclass``, else from the top-level class ``main``."""
from __future__ import annotations

from .attrs import Attrs, own_values
from .document import Document, tag

ORIENTATION = ("quat", "axisangle", "euler", "xyaxes", "zaxis")
ORIENTATION_SET = frozenset(ORIENTATION)
# Every actuator shortcut writes the one actuator default of its class.
ACTUATOR_KINDS = ("general", "motor", "position", "velocity", "intvelocity", "damper",
                  "cylinder", "muscle", "adhesion", "orientation", "pid", "dcmotor")
DEFAULT_KINDS = ("mesh", "material", "joint", "geom", "site", "camera", "light", "pair",
                 "equality", "tendon") + ACTUATOR_KINDS
MAIN = "main"


def kind_of(element_tag: str, like_drake: bool = False) -> str:
    """The default slot an element reads: in MuJoCo every actuator shortcut
    shares one; Drake 1.51 keeps one per element name (a ``<general>``
    default does not reach a ``<motor>``)."""
    return "actuator" if element_tag in ACTUATOR_KINDS and not like_drake else element_tag


class DefaultClasses:
    """Every class's values: ``classes[class][kind][attr] = (text, element)``."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.classes: dict[str, dict[str, dict[str, tuple[str, object]]]] = {MAIN: {}}
        # (class, kind, tag) → the values that class gives such an element
        # (its 'name' left out: a default never names an element).
        self._given: dict[tuple, dict[str, tuple[str, object]]] = {}

    def read(self, default_el, parent: str | None = None) -> None:
        """Reads a ``<default>`` element and its nested classes."""
        doc = self.doc
        self._given.clear()
        name = default_el.get("class")
        if parent is None:
            name = name or MAIN
        elif name is None:
            doc.error(default_el, "a nested <default> needs a 'class' attribute",
                      code="mjcf-attribute-missing")
        if parent is not None and name in self.classes:
            doc.error(default_el, f"the default class '{name}' is defined twice",
                      code="mjcf-conflict")
        inherited = self.classes.get(parent if parent is not None else name, {})
        values = {kind: dict(slot) for kind, slot in inherited.items()}
        written: set[str] = set()
        for child in doc.kids(default_el):
            t = tag(child)
            if t == "default":
                continue
            if t not in DEFAULT_KINDS:
                if child not in doc.unknown:  # else the schema check reported it
                    doc.warning(child, f"<{t}> defaults are not supported and are ignored",
                                code="mjcf-unsupported")
                continue
            kind = kind_of(t, doc.policy.like_drake)
            slot = values.setdefault(kind, {})
            own = own_values(child)
            if any(k in own for k in ORIENTATION):
                for k in ORIENTATION:
                    slot.pop(k, None)
            slot.update(own)
            written.add(kind)
        if doc.policy.like_drake:
            # Drake 1.51 keeps a class's defaults only for the kinds of element
            # the class itself writes, so a class that writes no <joint> gives
            # its joints (and its child classes' joints) no defaults at all.
            values = {kind: slot for kind, slot in values.items() if kind in written}
        self.classes[name] = values
        for child in doc.kids(default_el, "default"):
            self.read(child, name)

    def class_of(self, el, childclass: str | None) -> str:
        """The class an element uses; an unknown class is an error."""
        name = el.get("class")
        if name is None:
            return childclass or MAIN
        if name not in self.classes:
            self.doc.error(el, f"<{tag(el)}> uses the default class '{name}', which is not "
                               "defined", code="mjcf-unknown-class")
        return name

    def check_class(self, el, name: str) -> None:
        if name not in self.classes:
            self.doc.error(el, f"the default class '{name}' is not defined",
                           code="mjcf-unknown-class")

    def attrs(self, el, childclass: str | None = None, kind: str | None = None,
              items: list | None = None) -> Attrs:
        """The element's attributes with its class's defaults filled in
        (``items``: ``el.items()`` when the caller has them)."""
        own = own_values(el, items)
        written = own.pop("class", None)
        cls = (childclass or MAIN) if written is None else self.class_of(el, childclass)
        key = (cls, kind, el.tag)
        try:
            given = self._given[key]
        except KeyError:
            slot = self.classes[cls].get(kind or kind_of(tag(el), self.doc.policy.like_drake), {})
            given = self._given[key] = {k: v for k, v in slot.items() if k != "name"}
        if not given:
            return Attrs(el, self.doc, own)
        if ORIENTATION_SET.isdisjoint(own):
            return Attrs(el, self.doc, {**given, **own})
        values = {}
        for k, v in given.items():
            if k not in ORIENTATION_SET:
                values[k] = v
        values.update(own)
        return Attrs(el, self.doc, values)
