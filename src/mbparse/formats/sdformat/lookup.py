"""Finding an element's children in one walk over them: lxml's ``find``
costs microseconds a call, and a reader looks up several children of every
element it reads. Plain names are matched as ``find`` matches them (no
namespace); prefixed names (``drake:x``) as
:func:`~mbparse.formats.common.xml.first_child` matches them."""
from __future__ import annotations

from ..common.xml import qname as local_name


def child_index(el) -> dict:
    """The first child element of each name, from one walk: a plain name
    maps to what ``el.find(name)`` finds, a prefixed one (``drake:x``) to
    what :func:`~mbparse.formats.common.xml.first_child` finds (a lookup in
    lxml costs microseconds; readers look up several children each)."""
    index: dict = {}
    for child in el[:]:
        tag = child.tag
        if tag.__class__ is not str:
            continue
        if tag[0] == "{":
            if child.prefix:
                index.setdefault(local_name(child), child)
        elif tag not in index:
            index[tag] = child
    return index


def prefixed_children(el, tagged: list[tuple] | None = None) -> dict[str, list]:
    """The child elements written with a prefix (``drake:joint``), by that
    name, each list in document order: from one walk, for a reader that
    looks for several such names among many children (a model's).
    ``tagged``: (tag, child) for each child of ``el``, when the caller has
    them (then no walk over lxml's children is made)."""
    out: dict[str, list] = {}
    for tag, child in (((c.tag, c) for c in el[:]) if tagged is None else tagged):
        if tag.__class__ is not str or (tag[0] != "{" and ":" not in tag):
            continue
        name = local_name(child)
        if ":" in name:
            found = out.get(name)
            if found is None:
                out[name] = [child]
            else:
                found.append(child)
    return out


def all_named(el, tag: str) -> list:
    """Every child named ``tag`` (a plain name), as ``el.findall(tag)``."""
    return [c for c in el[:] if c.tag == tag]


def all_named_in(el, tag: str, index: dict) -> list:
    """:func:`all_named` for an element whose :func:`child_index` is
    ``index``: when there are as many children as index entries, every child
    is an element of a name of its own, so the one indexed under ``tag`` is
    all there is (no walk over lxml's children, which makes an object per
    child: a link's visuals and collisions are looked up twice each)."""
    if len(el) == len(index):
        child = index.get(tag)
        return [] if child is None else [child]
    return all_named(el, tag)


def first_on_path(el, *tags: str):
    """The first element down the path of plain names ``tags``, as
    ``el.find("a/b/c")`` finds it (depth first, in document order)."""
    found = [el]
    for tag in tags:
        found = [c for parent in found for c in parent.iterchildren(tag)]
        if not found:
            return None
    return found[0]
