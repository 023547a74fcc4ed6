"""The plant finds an element by its bare name (no model instance) without
scanning its tables: a directives file of 16,000 add_frame, each naming the
frame before, was quadratic (minutes). The name table keeps, for each name,
its keys in the order they were added."""
from __future__ import annotations

import copy
import pickle

import pytest

from mbparse import MultibodyPlant
from mbparse.plant.elements import ModelError
from mbparse.plant.name_table import NameTable
from mbparse.spatial import RigidTransform


def test_a_name_table_knows_the_elements_of_each_name_in_the_order_added():
    t = NameTable()
    t[(2, "a")] = "a2"
    t[(1, "b")] = "b1"
    t[(1, "a")] = "a1"
    t[(2, "a")] = "a2 again"  # replacing keeps its place
    assert t.named("a") == ["a2 again", "a1"] and t.named("b") == ["b1"] and t.named("c") == []
    del t[(2, "a")]
    assert t.named("a") == ["a1"] and (2, "a") not in t
    del t[(1, "b")]
    assert t.named("b") == []


def test_copies_and_pickles_of_a_name_table_rebuild_its_index():
    t = NameTable()
    t[(1, "a")] = 1
    t[(2, "a")] = 2
    for other in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert dict(other) == dict(t) and other.named("a") == [1, 2]
        other[(3, "a")] = 3
        assert other.named("a") == [1, 2, 3] and t.named("a") == [1, 2]


@pytest.mark.parametrize("change", [lambda t: t.pop((1, "a")), lambda t: t.update({}),
                                    lambda t: t.setdefault((1, "b"), 0), lambda t: t.clear(),
                                    lambda t: t.popitem()])
def test_a_name_table_refuses_changes_that_would_bypass_its_index(change):
    t = NameTable()
    t[(1, "a")] = 1
    with pytest.raises(TypeError):
        change(t)


def test_the_plant_finds_a_bare_name_without_scanning_its_tables(monkeypatch):
    plant = MultibodyPlant(0.0)
    a = plant.add_model_instance("a")
    b = plant.add_model_instance("b")
    body = plant.add_rigid_body("link", a)
    for i in range(50):
        plant.add_frame(f"f{i}", body.body_frame, RigidTransform(), a)
    plant.add_frame("g", plant.world_frame(), RigidTransform(), b)

    def no_scan(self):
        raise AssertionError("the table was scanned")

    monkeypatch.setattr(NameTable, "items", no_scan)
    monkeypatch.setattr(NameTable, "__iter__", no_scan)
    assert plant.get_frame_by_name("f49").name == "f49"
    assert plant.get_body_by_name("link") is body
    assert plant.has_frame_named("g") and not plant.has_frame_named("nothing")
    plant.add_frame("g", body.body_frame, RigidTransform(), a)
    with pytest.raises(ModelError, match="not unique"):
        plant.get_frame_by_name("g")
    with pytest.raises(ModelError, match="no frame named 'nothing'"):
        plant.get_frame_by_name("nothing")
