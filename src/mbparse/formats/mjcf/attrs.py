"""Typed access to an MJCF element's attributes after its default class is
applied. Numbers are read strictly, as MuJoCo reads them: every token must
be a whole number (``inf`` and ``nan`` included) and the count must fit."""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, NoReturn, Sequence

from ...limits import current_limits, raise_hint
from ...numbers import all_finite, non_finite_code, non_finite_problem, quote

if TYPE_CHECKING:
    from .document import Document

_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)",
                     re.IGNORECASE)


def parse_numbers(text: str) -> list[float] | None:
    """The numbers of a whitespace-separated list, or None if a token is
    not a number."""
    out = []
    for tok in text.split():
        if not _NUMBER.fullmatch(tok):
            return None
        out.append(float(tok))
    return out


# Texts already read by _read_finite and what they gave (a model repeats
# the same few texts: "0 0 1", a default's size, every copy of a replicate).
_READ: dict[str, tuple[float, ...] | None] = {}
_READ_MAX = 4096
_LONG_TEXT = 4096  # characters; longer texts are not kept in _READ
_NO_LIMIT = 1 << 62  # (a limit of 0 is none)


def _read_and_keep(text: str) -> tuple[float, ...] | None:
    """:func:`_read_finite` of ``text``, kept in ``_READ`` for next time
    (unless it is long: a mesh's vertex list is read once)."""
    values = _read_finite(text)
    if len(text) > _LONG_TEXT:
        return values
    if len(_READ) >= _READ_MAX:
        _READ.clear()
    _READ[text] = values
    return values


def _read_finite(text: str) -> tuple[float, ...] | None:
    """The finite decimal numbers of ``text`` (None unless all are;
    ``float()`` would also take ``1_0``, so texts with ``_`` or non-ASCII
    characters are left to the strict reading)."""
    return _finite_tokens(text.split(), text)


def _finite_tokens(tokens: list[str], text: str) -> tuple[float, ...] | None:
    """:func:`_read_finite` of ``text`` split into ``tokens``."""
    try:
        values = tuple(map(float, tokens))
    except ValueError:
        return None
    if math.isfinite(sum(values)) and text.isascii() and "_" not in text:
        return values
    return None


def own_values(el, items: list | None = None) -> dict[str, tuple[str, object]]:
    """An element's own attributes as :class:`Attrs` holds them: name →
    (text, the element); ``items``: ``el.items()`` when the caller has them."""
    # (a loop, not a comprehension: Python 3.11 makes a function of each
    # comprehension, which costs more than the few attributes it fills)
    own = {}
    for k, v in el.items() if items is None else items:
        own[k] = (v, el)
    return own


class Attrs:
    """An element's attributes: its own, then those its class supplies.

    ``values`` maps a name to ``(text, element that wrote it)`` so that a
    problem with a value inherited from a ``<default>`` is reported where
    the value was written.
    """

    __slots__ = ("el", "doc", "values")

    def __init__(self, el, doc: "Document", values: dict[str, tuple[str, object]]):
        self.el = el
        self.doc = doc
        self.values = values

    def has(self, name: str) -> bool:
        return name in self.values

    def where(self, name: str):
        """The element that wrote ``name`` (the element itself when absent)."""
        v = self.values.get(name)
        return v[1] if v is not None else self.el

    def warn_unsupported(self, names: Sequence[str], tag_name: str | None = None) -> None:
        """Warns, in the order of ``names``, of each of them the element has:
        attributes MJCF defines and mbparse ignores (``tag_name`` names the
        element in the message; its own tag by default)."""
        values = self.values
        if values.keys().isdisjoint(names):  # (nearly always) none of them
            return
        for name in names:
            if name in values:
                self.doc.warning(self.where(name), f"the attribute '{name}' of "
                                                   f"<{tag_name or self.el.tag}> is not "
                                                   "supported and is ignored",
                                 code="mjcf-unsupported")

    def error(self, name: str, message: str, code: str | None = None) -> NoReturn:
        """Raises a ParseError at the element that wrote attribute ``name``."""
        self.doc.error(self.where(name), message, code=code)

    def text(self, name: str, default: str | None = None) -> str | None:
        values = self.values
        return values[name][0] if name in values else default

    def numbers(self, name: str, count: int | tuple[int, int],
                default: Sequence[float] | None = None) -> tuple[float, ...] | None:
        """``count`` numbers (or between ``count[0]`` and ``count[1]``)."""
        v = self.values.get(name)
        if v is None:
            return tuple(default) if default is not None else None
        # The common case first: a text already read, of the right count
        # (a model repeats a few texts). Then finite decimal numbers, in one
        # float() per token; anything else goes to the strict reading, which
        # says what is wrong.
        fast = _READ.get(v[0])
        if fast is not None:
            if count.__class__ is int:
                if len(fast) == count:
                    return fast
            elif count[0] <= len(fast) <= count[1]:
                return fast
        lo, hi = (count, count) if count.__class__ is int else count
        if fast is None and v[0] not in _READ:
            if len(v[0]) > _LONG_TEXT:
                self._few_enough(name, v, lo, hi)
            fast = _read_and_keep(v[0])
            if fast is not None and lo <= len(fast) <= hi:
                return fast
        return self._strictly(name, v, lo, hi)

    def _strictly(self, name: str, v: tuple, lo: int, hi: int) -> tuple[float, ...]:
        """The strict reading of the text ``v`` of ``lo`` to ``hi`` numbers,
        which says what is wrong with it."""
        vals = parse_numbers(v[0])
        tag = self.el.tag
        if vals is None:
            self.doc.error(v[1], f"the attribute '{name}' of <{tag}> is not a list of numbers: "
                                 f"'{quote(v[0])}'", code="mjcf-value-invalid")
        if not lo <= len(vals) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.doc.error(v[1], f"the attribute '{name}' of <{tag}> needs {want} number(s); "
                                 f"it has {len(vals)}: '{quote(v[0])}'", code="mjcf-value-invalid")
        if not all_finite(vals):
            self.doc.error(v[1], f"the attribute '{name}' of <{tag}>: "
                                 f"{non_finite_problem(v[0], vals)}", code=non_finite_code(vals))
        return tuple(vals)

    def _few_enough(self, name: str, v: tuple, lo: int, hi: int) -> None:
        """Refuses a long text ``v`` of more than the few numbers (``lo`` to
        ``hi``) it may hold before its megabytes are read one number at a
        time."""
        if hi <= 64 and len(v[0].split(None, hi)) > hi:
            self.doc.error(v[1], f"the attribute '{name}' of <{self.el.tag}> needs "
                                 f"{lo if lo == hi else f'{lo} to {hi}'} number(s); it has more: "
                                 f"'{quote(v[0])}'", code="mjcf-value-invalid")

    def number_list(self, name: str) -> tuple[float, ...] | None:
        """Any count of numbers up to the limit ``max_list_numbers`` (None
        when absent)."""
        v = self.values.get(name)
        if v is None:
            return None
        text = v[0]
        most = current_limits().max_list_numbers or _NO_LIMIT
        # (a text no longer than the limit holds no more numbers than it)
        if len(text) > _LONG_TEXT or len(text) > most:  # split once, no further than the limit
            tokens = text.split(None, most)
            if len(tokens) > most:
                self.doc.error(v[1], f"the attribute '{name}' of <{self.el.tag}> lists more "
                                     f"than {most:,} numbers, mbparse's limit for one "
                                     "attribute; give a large mesh as a file, or "
                                     f"{raise_hint('max_list_numbers')}", code="size-limit")
            values = _finite_tokens(tokens, text)
            # (not read again the quick way when it failed: the strict reading says why)
            return values if values is not None else self._strictly(name, v, 0, most)
        return self.numbers(name, (0, most))

    def scalar(self, name: str, default: float | None = None) -> float | None:
        if name not in self.values:
            return default
        vals = self.numbers(name, 1)
        return None if vals is None else vals[0]

    def integer(self, name: str, default: int) -> int:
        v = self.values.get(name)
        if v is None:
            return default
        try:
            return int(v[0].strip())
        except ValueError:
            self.doc.error(v[1], f"the attribute '{name}' of <{self.el.tag}> must be an "
                                 f"integer; it is '{v[0]}'", code="mjcf-value-invalid")
        return default

    def boolean(self, name: str, default: bool) -> bool:
        v = self.values.get(name)
        if v is None:
            return default
        if v[0] not in ("true", "false"):
            self.doc.error(v[1], f"the attribute '{name}' of <{self.el.tag}> must be 'true' or "
                                 f"'false'; it is '{v[0]}'", code="mjcf-value-invalid")
        return v[0] == "true"

    def choice(self, name: str, options: Sequence[str], default: str) -> str:
        values = self.values
        if name not in values:
            return default
        v = values[name]
        if v[0] not in options:
            self.doc.error(v[1], f"the attribute '{name}' of <{self.el.tag}> must be one of "
                                 f"{', '.join(options)}; it is '{v[0]}'", code="mjcf-value-invalid")
        return v[0]
