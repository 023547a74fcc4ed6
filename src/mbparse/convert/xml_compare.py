"""Comparing two XML trees: same elements, attributes and values, with numbers
equal within a tolerance and the order of siblings ignored."""
from __future__ import annotations

import math

from .sdf_tree import Node


def _numbers(text: str) -> list[float] | None:
    parts = text.split()
    if not parts:
        return None
    try:
        return [float(p) for p in parts]
    except ValueError:
        return None


def values_equal(a: str | None, b: str | None, tol: float = 1e-9) -> bool:
    """Equal texts, or equal lists of numbers within ``tol`` (absolute or relative)."""
    a = (a or "").strip()
    b = (b or "").strip()
    if a == b:
        return True
    na, nb = _numbers(a), _numbers(b)
    if na is None or nb is None or len(na) != len(nb):
        return False
    for x, y in zip(na, nb):
        if math.isnan(x) and math.isnan(y):
            continue
        if x == y:
            continue
        if not abs(x - y) <= tol * max(1.0, abs(x), abs(y)):
            return False
    return True


def differences(a: Node, b: Node, tol: float = 1e-9, path: str = "", limit: int = 20) -> list[str]:
    """Human-readable differences between two trees (empty when they agree)."""
    out: list[str] = []
    _diff(a, b, tol, path or "/" + a.name, out, limit)
    return out


def _label(n: Node) -> str:
    return n.name + (f"[@name='{n.attrs['name']}']" if "name" in n.attrs else "")


def _diff(a: Node, b: Node, tol: float, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit:
        return
    if a.name != b.name:
        out.append(f"{path}: element <{a.name}> vs <{b.name}>")
        return
    for k in sorted(set(a.attrs) | set(b.attrs)):
        if not values_equal(a.attrs.get(k), b.attrs.get(k), tol) or (k in a.attrs) != (k in b.attrs):
            out.append(f"{path}/@{k}: {a.attrs.get(k)!r} vs {b.attrs.get(k)!r}")
    if not a.children and not b.children and not values_equal(a.text, b.text, tol):
        out.append(f"{path}: value {a.text!r} vs {b.text!r}")
    unmatched = list(b.children)
    for ca in a.children:
        match = None
        for i, cb in enumerate(unmatched):
            if cb.name == ca.name and cb.attrs.get("name") == ca.attrs.get("name") \
                    and not _quick_differs(ca, cb, tol):
                match = i
                break
        if match is None:
            same_label = [i for i, cb in enumerate(unmatched)
                          if cb.name == ca.name and cb.attrs.get("name") == ca.attrs.get("name")]
            if len(same_label) >= 1:
                cb = unmatched.pop(same_label[0])
                _diff(ca, cb, tol, f"{path}/{_label(ca)}", out, limit)
            else:
                out.append(f"{path}/{_label(ca)}: only in the first tree")
        else:
            unmatched.pop(match)
    for cb in unmatched:
        out.append(f"{path}/{_label(cb)}: only in the second tree")


def _quick_differs(a: Node, b: Node, tol: float) -> bool:
    probe: list[str] = []
    _diff(a, b, tol, "", probe, 1)
    return bool(probe)


def trees_equal(a: Node, b: Node, tol: float = 1e-9) -> bool:
    return not differences(a, b, tol, limit=1)
