"""expected_children: the first child of each expected name in one walk, and
the general child map (prefixed names read as written) only when the
element holds any other child element."""
from __future__ import annotations

from lxml import etree

from mbparse.formats.common.xml import NO_CHILDREN, expected_children

TAGS = ("origin", "geometry", "material")


def test_only_expected_children_give_the_first_of_each_and_no_map():
    el = etree.fromstring('<visual><geometry n="1"/><!-- c --><origin/><geometry n="2"/></visual>')
    (origin, geometry, material), kids = expected_children(el, TAGS)
    assert origin.tag == "origin" and geometry.get("n") == "1" and material is None
    assert kids is NO_CHILDREN and not kids


def test_any_other_child_gives_the_general_map_and_the_same_firsts():
    el = etree.fromstring('<visual xmlns:drake="d"><origin/><drake:extra/><geometry n="1"/>'
                          '<geometry n="2"/></visual>')
    (origin, geometry, material), kids = expected_children(el, TAGS)
    assert origin.tag == "origin" and geometry.get("n") == "1" and material is None
    assert set(kids) == {"origin", "drake:extra", "geometry"}


def test_a_name_not_asked_for_is_another_child():
    el = etree.fromstring("<collision><geometry/><material/></collision>")
    (origin, geometry), kids = expected_children(el, ("origin", "geometry"))
    assert origin is None and geometry.tag == "geometry" and "material" in kids
