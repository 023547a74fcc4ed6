"""The plant finds an element by its bare name (no model instance) without
scanning its tables: a directives file of 16,000 add_frame, each naming the
frame before, was quadratic (minutes). Each table has an index of its keys by
name, brought up to date at a lookup from the keys added since."""
from __future__ import annotations

import pytest

from mbparse import MultibodyPlant
from mbparse.plant.elements import ModelError
from mbparse.plant.name_table import NameIndex
from mbparse.spatial import RigidTransform


def test_a_name_index_knows_the_elements_of_each_name_in_the_order_added():
    table: dict = {}
    index = NameIndex(table)
    table[(2, "a")] = "a2"
    table[(1, "b")] = "b1"
    assert index.named("a") == ["a2"]
    table[(1, "a")] = "a1"
    table[(2, "a")] = "a2 again"  # a new value for a key: looked up as it is now
    assert index.named("a") == ["a2 again", "a1"] and index.named("b") == ["b1"]
    assert index.named("c") == []


def test_a_name_index_after_a_removal_is_rebuilt():
    table: dict = {(1, "a"): 1, (2, "a"): 2}
    index = NameIndex(table)
    assert index.named("a") == [1, 2]
    del table[(1, "a")]
    table[(3, "b")] = 3  # as many keys as before: forget() tells the index
    index.forget()
    assert index.named("a") == [2] and index.named("b") == [3]
    del table[(2, "a")]  # fewer keys, no forget(): the index starts again itself
    assert index.named("a") == [] and index.named("b") == [3]


def test_a_lookup_reads_only_the_keys_added_since_the_last_one(monkeypatch):
    table: dict = {(1, f"f{i}"): i for i in range(100)}
    index = NameIndex(table)
    assert index.named("f5") == [5]
    for i in range(100, 110):
        table[(1, f"f{i}")] = i
        assert index.named(f"f{i}") == [i]
    # A scan of the whole table from the start would go through iter(table):
    seen = []
    monkeypatch.setattr("mbparse.plant.name_table.islice",
                        lambda it, n: seen.append(n) or list(it)[:n])
    table[(2, "f0")] = "again"
    assert index.named("f0") == [0, "again"] and seen == [1]


def test_the_plant_finds_a_bare_name_in_every_instance_and_refuses_an_ambiguous_one():
    plant = MultibodyPlant(0.0)
    a = plant.add_model_instance("a")
    b = plant.add_model_instance("b")
    body = plant.add_rigid_body("link", a)
    for i in range(50):
        plant.add_frame(f"f{i}", body.body_frame, RigidTransform(), a)
        assert plant.get_frame_by_name(f"f{i}").name == f"f{i}"
    plant.add_frame("g", plant.world_frame(), RigidTransform(), b)
    assert plant.get_body_by_name("link") is body
    assert plant.has_frame_named("g") and not plant.has_frame_named("nothing")
    plant.add_frame("g", body.body_frame, RigidTransform(), a)
    with pytest.raises(ModelError, match="not unique"):
        plant.get_frame_by_name("g")
    with pytest.raises(ModelError, match="no frame named 'nothing'"):
        plant.get_frame_by_name("nothing")


def test_a_dropped_frame_is_no_longer_found_by_its_bare_name():
    plant = MultibodyPlant(0.0)
    a = plant.add_model_instance("a")
    body = plant.add_rigid_body("link", a)
    frame = plant.add_frame("f", body.body_frame, RigidTransform(), a)
    assert plant.has_frame_named("f")
    plant._drop_frame(frame)
    plant.add_frame("h", body.body_frame, RigidTransform(), a)
    assert not plant.has_frame_named("f") and plant.has_frame_named("h")
    assert frame not in plant.frames()
