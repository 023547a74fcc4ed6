"""Did-you-mean suggestions for misspelled names (attributes, elements, links...)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from ...workspace import spend_suggestion


# Names longer than this get no suggestion.
MAX_SUGGESTED_LENGTH = 100
# Names are looked for among at most this many: past it, a search per mistake
# would cost a model of many names (and many mistakes, which `check` reports
# all of) time in proportion to their product. Callers whose candidates are
# costly to list ask :func:`too_many` first.
MAX_CANDIDATES = 1000


def too_many(count: int) -> bool:
    """Whether ``count`` candidates are more than a suggestion looks among."""
    return count > MAX_CANDIDATES


def edit_distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def closest(name: str, known: Iterable[str]) -> str | None:
    """The name in ``known`` that ``name`` is plausibly a typo of (1 edit; 2 for long names), else
    None (also when ``known`` holds more than :data:`MAX_CANDIDATES` names)."""
    if not hasattr(known, "__len__"):
        known = list(known)
    if too_many(len(known)):  # type: ignore[arg-type]
        return None
    # Kept: a file repeats its mistakes (80,000 copies of one unknown element
    # must not cost 80,000 searches); a parse's new searches are counted.
    key = (name, known if known.__class__ is frozenset else frozenset(known))
    found = _FOUND.get(key, _UNSEEN)
    if found is _UNSEEN:
        if not spend_suggestion():
            return None
        if len(_FOUND) >= 4096:
            _FOUND.clear()
        found = _FOUND[key] = _closest(name, tuple(sorted(key[1])))
    return found  # type: ignore[return-value]


_FOUND: dict[tuple[str, frozenset[str]], str | None] = {}
_UNSEEN = object()


@lru_cache(maxsize=1024)
def _letters(name: str) -> Counter:
    return Counter(name)


def _closest(name: str, known: tuple[str, ...]) -> str | None:
    if len(name) > MAX_SUGGESTED_LENGTH:
        return None   # the distance costs the product of the lengths
    limit = 1 if len(name) < 6 else 2
    best, best_distance = None, limit + 1
    letters = Counter(name)
    for candidate in known:
        if abs(len(candidate) - len(name)) >= best_distance:
            continue  # at least that many insertions or deletions
        # An edit changes at most one letter of each name, so each name's
        # letters the other lacks are at most the distance: a quick bound
        # that spares most candidates the full measure.
        theirs = _letters(candidate)
        if max(sum((letters - theirs).values()),
               sum((theirs - letters).values())) >= best_distance:
            continue
        distance = edit_distance(name, candidate)
        if 0 < distance < best_distance:
            best, best_distance = candidate, distance
    return best


def did_you_mean(name: str, known: Iterable[str], element: bool = False) -> str:
    """A message tail " Did you mean 'x'?" (``<x>`` for an element), or "" when nothing is close."""
    match = closest(name, known)
    if match is None:
        return ""
    return f" Did you mean <{match}>?" if element else f" Did you mean '{match}'?"
