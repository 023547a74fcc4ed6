"""The writers give every element a name of its own: a name taken already
becomes ``name_1``, ``name_2``... (the first free one), and a name shared by
every geometry of a large model costs a step per copy."""
from __future__ import annotations

import random

from mbparse.convert.writers.base import unique_name


def one_by_one(name: str, taken: set[str]) -> str:
    """The first free name, searched from the start every time."""
    candidate, n = name, 1
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate


def test_unique_name_gives_the_first_free_name_as_a_search_from_the_start_would():
    rng = random.Random(7)
    pool = ["Box", "Box_1", "Box_2", "Box_1_1", "Sphere", "Sphere_3", "a"]
    taken, searched, reference = set(), {}, set()
    for _ in range(2000):
        name = rng.choice(pool)
        if rng.random() < 0.1:  # a name taken directly, outside unique_name
            taken.add(name)
            reference.add(name)
            continue
        assert unique_name(name, taken, searched) == one_by_one(name, reference)
    assert taken == reference


def test_unique_name_numbers_repeated_names_in_order():
    taken, searched = {"Box_2"}, {}
    assert [unique_name("Box", taken, searched) for _ in range(4)] == [
        "Box", "Box_1", "Box_3", "Box_4"]


def test_twenty_thousand_copies_of_one_name_are_numbered_in_order():
    taken, searched = set(), {}
    names = [unique_name("Box", taken, searched) for _ in range(20_000)]
    assert names[-1] == "Box_19999" and len(set(names)) == 20_000
