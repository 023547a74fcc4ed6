"""The model's small value classes (written out by hand instead of with
@dataclass, for start-up time) behave as the dataclasses did: construction by
position and keyword with the same defaults, a fresh list or dict per instance,
equality and hashing by fields (or by identity), immutability where they were
frozen, the same repr, pickling, and no per-instance __dict__ where slotted."""
from __future__ import annotations

import ast
import copy
import math
import pickle
import subprocess
import sys

import pytest

from mbparse.collision_filter_groups import CollisionFilterGroups
from mbparse.diagnostics import Diagnostic, DiagnosticPolicy
from mbparse.geometry.properties import CoulombFriction, Rgba
from mbparse.geometry.scene_graph import Geometry, GeometryInstance
from mbparse.geometry.shapes import (Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh,
                                     ShapeError, Sphere)
from mbparse.package_map import PackageMap
from mbparse.plant.elements import (Frame, GenericForceElement, JointActuator, ModelInstance,
                                    RigidBody, Sensor)
from mbparse.records import FrozenInstanceError
from mbparse.spatial import RigidTransform, SpatialInertia
from mbparse.workspace import DataSource, ParsingOptions, Workspace

X = RigidTransform()

FROZEN = [Diagnostic("error", "m", "a.urdf", 3, 4, "link", "code"), Rgba(1, 0.5, 0),
          CoulombFriction(1.0, 0.5), Box(1, 2, 3), Sphere(0.5), Cylinder(1, 2), Capsule(1, 2),
          Ellipsoid(1, 2, 3), HalfSpace(), Mesh("/m/a.obj", (1, 2, 3)), Convex("/m/a.obj"),
          DataSource("a.urdf")]


def test_import_mbparse_imports_neither_dataclasses_nor_typing():
    """Together a third of ``import mbparse``: write classes out (see
    mbparse.records); take Iterable, Callable... from collections.abc, and
    Any, NoReturn... under ``if TYPE_CHECKING:`` with ``TYPE_CHECKING = False``."""
    code = ("import sys, mbparse; "
            "print(sorted({'dataclasses', 'inspect', 'ast', 'typing'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_positional_and_keyword_construction_give_the_same_values():
    assert Diagnostic("warning", "m", line=3, code="c") == Diagnostic(
        severity="warning", message="m", file=None, line=3, column=None, element=None, code="c")
    assert Rgba(1, 0, 0) == Rgba(r=1, g=0, b=0, a=1.0)
    assert Mesh("a.obj") == Mesh(filename="a.obj", scale=(1.0, 1.0, 1.0))
    assert DataSource(contents="<x/>") == DataSource(None, "<x/>", None, None)
    with pytest.raises(TypeError):
        Box(1, 2)
    with pytest.raises(TypeError):
        Sphere(1, radius=2)


def test_defaults_are_those_the_dataclasses_had():
    policy = DiagnosticPolicy()
    assert (policy.strict, policy.emit, policy.like_drake, policy.locate,
            policy.collect_errors) == (False, True, False, None, False)
    body = RigidBody(1, "b", 2, SpatialInertia(1.0))
    assert (body.body_frame, body.is_floating_base_body, body.default_free_body_pose,
            body.gravity_enabled, body.source) == (None, False, None, True, (None, None))
    actuator = JointActuator(0, "a", None)
    assert (actuator.effort_limit, actuator.gear_ratio, actuator.rotor_inertia,
            actuator.controller_gains) == (math.inf, 1.0, 0.0, None)
    assert GeometryInstance(X, Sphere(1), "g").source == (None, None)
    assert Geometry(0, 1, GeometryInstance(X, Sphere(1), "g")).deformable is False
    assert ParsingOptions().enable_auto_renaming is False
    assert ModelInstance(0, "w").static is False


def test_every_instance_gets_its_own_list_or_dict():
    def pairs():
        ws = [Workspace(ParsingOptions(), PackageMap(), DiagnosticPolicy(), None, None)
              for _ in range(2)]
        policies = [DiagnosticPolicy() for _ in range(2)]
        groups = [CollisionFilterGroups() for _ in range(2)]
        instances = [GeometryInstance(X, Sphere(1), "g") for _ in range(2)]
        forces = [GenericForceElement("t", "n", None, X) for _ in range(2)]
        sensors = [Sensor("s", "imu", "b", None, X, 0) for _ in range(2)]
        yield ws[0].open_files, ws[1].open_files
        yield policies[0].warnings_seen, policies[1].warnings_seen
        yield policies[0].errors_seen, policies[1].errors_seen
        yield groups[0]._groups, groups[1]._groups
        yield groups[0]._pairs, groups[1]._pairs
        yield instances[0].properties, instances[1].properties
        yield forces[0].parameters, forces[1].parameters
        yield sensors[0].parameters, sensors[1].parameters
    for a, b in pairs():
        assert a == b and not a
        assert a is not b


@pytest.mark.parametrize("value", FROZEN, ids=lambda v: type(v).__name__)
def test_a_frozen_value_refuses_assignment_and_deletion(value):
    name = type(value)._fields[0] if type(value)._fields else "anything"
    with pytest.raises(FrozenInstanceError, match="cannot assign to field"):
        setattr(value, name, 1)
    with pytest.raises(AttributeError, match="cannot delete field"):
        delattr(value, name)
    with pytest.raises(FrozenInstanceError):
        value.not_a_field = 1


@pytest.mark.parametrize("value", FROZEN, ids=lambda v: type(v).__name__)
def test_a_frozen_value_hashes_and_compares_by_its_fields(value):
    twin = copy.copy(value)
    assert twin is not value
    assert twin == value and not (twin != value)
    assert hash(twin) == hash(value) == hash(tuple(getattr(value, n) for n in value._fields))
    assert len({value, twin}) == 1


@pytest.mark.parametrize("value", FROZEN, ids=lambda v: type(v).__name__)
def test_a_frozen_value_survives_pickling(value):
    back = pickle.loads(pickle.dumps(value))
    assert type(back) is type(value) and back == value and repr(back) == repr(value)


def test_values_of_different_classes_are_never_equal():
    assert Mesh("a.obj") != Convex("a.obj")
    assert Cylinder(1, 2) != Capsule(1, 2)
    assert Box(1, 2, 3) != (1, 2, 3)
    assert Box(1, 2, 3) == Box(1.0, 2.0, 3.0)
    assert HalfSpace() == HalfSpace()


def test_fields_compare_as_a_tuple_so_one_nan_equals_itself():
    nan = math.nan
    assert Rgba(nan, 0, 0) == Rgba(nan, 0, 0)  # the same float object in both tuples
    assert Sphere(0.5) == Sphere(0.5)


def test_mutable_value_classes_compare_by_fields_and_are_unhashable():
    assert DiagnosticPolicy() == DiagnosticPolicy()
    assert DiagnosticPolicy(strict=True) != DiagnosticPolicy()
    g = GeometryInstance(X, Sphere(1), "g")
    assert g == GeometryInstance(X, Sphere(1), "g")
    assert g != GeometryInstance(X, Sphere(1), "h")
    for value in (DiagnosticPolicy(), g, CollisionFilterGroups(), ParsingOptions()):
        with pytest.raises(TypeError, match="unhashable"):
            hash(value)
    g.name = "renamed"  # mutable
    assert g.name == "renamed"


def test_model_elements_compare_and_hash_by_identity():
    a, b = ModelInstance(0, "w"), ModelInstance(0, "w")
    assert a != b and a == a
    assert len({a, b}) == 2
    body = RigidBody(1, "b", 2, SpatialInertia(1.0))
    assert body != RigidBody(1, "b", 2, body.default_spatial_inertia)


def test_repr_names_the_fields_as_the_dataclasses_did():
    assert repr(Box(1, 2, 3)) == "Box(width=1, depth=2, height=3)"
    assert repr(Convex("/m/a.obj")) == "Convex(filename='/m/a.obj', scale=(1.0, 1.0, 1.0))"
    assert repr(HalfSpace()) == "HalfSpace()"
    assert repr(Diagnostic("warning", "m")) == (
        "Diagnostic(severity='warning', message='m', file=None, line=None, column=None, "
        "element=None, code=None)")
    assert repr(ParsingOptions(True)) == "ParsingOptions(enable_auto_renaming=True)"
    assert repr(ModelInstance(2, "arm")) == "ModelInstance(index=2, name='arm', static=False)"


def test_a_body_repr_leaves_out_its_frame_and_source():
    body = RigidBody(1, "b", 2, SpatialInertia(1.0), source=("a.urdf", 3))
    body.body_frame = Frame(3, "b", 2, body, X, is_body_frame=True)
    text = repr(body.body_frame)
    assert text.startswith("Frame(index=3, name='b', model_instance=2, body=RigidBody(index=1,")
    assert " body_frame=" not in text and "source=" not in text


def test_a_record_that_contains_itself_has_a_finite_repr():
    policy = DiagnosticPolicy()
    policy.warnings_seen.append(policy)
    assert "warnings_seen=[...]" in repr(policy)


def test_positional_patterns_match_the_fields_in_order():
    match Box(1, 2, 3):
        case Box(w, d, h):
            assert (w, d, h) == (1, 2, 3)
        case _:
            pytest.fail("Box did not match")
    match RigidBody(1, "b", 2, SpatialInertia(1.0)):
        case RigidBody(index, name):
            assert (index, name) == (1, "b")


def test_a_mesh_refuses_its_scale_under_its_own_shape_name():
    with pytest.raises(ShapeError, match="Convex scale must be finite"):
        Convex("a.obj", (1.0, math.inf, 1.0))
    with pytest.raises(ShapeError, match="Box width should be a positive"):
        Box(-1, 1, 1)


def test_diagnostic_messages_are_made_plain_and_short_on_construction():
    class Uri(str):
        pass
    d = Diagnostic("error", Uri("m"))
    assert type(d.message) is str
    long = Diagnostic("error", "value '" + "a" * 5000 + "' is bad")
    assert len(long.message) < 200 and long.message.endswith("is bad")
    assert pickle.loads(pickle.dumps(long)).message == long.message


def test_replace_gives_a_changed_copy_and_runs_the_checks_again():
    from mbparse.loading import LoadOptions
    from mbparse.records import replace
    options = LoadOptions(time_step=0.0, packages=[("p", "/p")])
    changed = replace(options, like="drake", collect_errors=True)
    assert (changed.time_step, changed.packages, changed.like, changed.collect_errors) == (
        0.0, [("p", "/p")], "drake", True)
    assert options.like == "default" and changed is not options
    assert replace(Box(1, 2, 3), height=4) == Box(1, 2, 4)
    with pytest.raises(ShapeError):
        replace(Box(1, 2, 3), height=-1)
    with pytest.raises(TypeError):
        replace(Box(1, 2, 3), colour="red")
    body = RigidBody(1, "b", 2, SpatialInertia(1.0), source=("a.urdf", 3))
    assert replace(body, name="c").source == ("a.urdf", 3)  # fields repr leaves out are kept


def test_load_options_batch_failures_and_rules_behave_as_before():
    from mbparse.batch import Failed
    from mbparse.lint.rules import Rule
    from mbparse.loading import LoadOptions
    assert LoadOptions() == LoadOptions(0.001, "tamsi", [], False, "default", False)
    assert LoadOptions().packages is not LoadOptions().packages
    assert pickle.loads(pickle.dumps(LoadOptions(like="drake"))) == LoadOptions(like="drake")
    failed = Failed("a.urdf", "ValueError: x")
    assert pickle.loads(pickle.dumps(failed)) == failed and hash(failed) == hash(
        ("a.urdf", "ValueError: x"))
    assert repr(failed) == "Failed(item='a.urdf', error='ValueError: x')"
    with pytest.raises(ValueError, match="unknown severity"):
        Rule("r", "fatal", "s", "h")


def test_the_lint_package_loads_a_module_only_when_a_name_of_it_is_used():
    code = ("import sys; from mbparse.lint.rules import RULES; "
            "print(sorted(m for m in sys.modules if m.startswith('mbparse.lint'))); "
            "from mbparse.lint import lint_file, Finding, model_rules; "
            "print(lint_file.__module__, Finding.__module__, model_rules.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["['mbparse.lint', 'mbparse.lint.rules']",
                   "mbparse.lint.runner mbparse.lint.findings mbparse.lint.model_rules"]
    import mbparse.lint
    with pytest.raises(AttributeError):
        mbparse.lint.no_such_name  # noqa: B018


def modules_after(command: str, path, names: set[str]) -> list[str]:
    """Which of ``names`` are imported after ``mbparse COMMAND path`` in a
    fresh process."""
    code = (f"import sys; from mbparse import cli; cli.main(['{command}', sys.argv[1]]); "
            f"print(sorted({sorted(names)!r} & sys.modules.keys()))")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True).stdout
    return ast.literal_eval(out.splitlines()[-1])  # a printed list of module names


def test_inspecting_a_urdf_makes_no_dataclass_and_loads_no_json(tmp_path):
    """``mbparse inspect robot.urdf`` is one short process: creating a
    dataclass compiles code at import (about 2 ms each), so nothing on its
    path is one (write the class out; see mbparse.records); and the text
    outline needs no json (only ``--json`` imports it)."""
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/>'
                    '</geometry></visual></link></robot>')
    assert modules_after("inspect", path, {"dataclasses", "json"}) == []


def test_a_finding_gives_its_fields_as_a_dict_and_a_changed_copy():
    from mbparse.lint.findings import Finding
    from mbparse.records import replace
    f = Finding("mass-negative", "error", "m", "h", "a.urdf", 3)
    assert f.to_dict() == {"rule": "mass-negative", "severity": "error", "message": "m",
                           "hint": "h", "file": "a.urdf", "line": 3, "column": None}
    assert list(f.to_dict()) == list(Finding._fields)
    assert replace(f, message="m [2 times]") == Finding("mass-negative", "error", "m [2 times]",
                                                         "h", "a.urdf", 3)


def test_checking_a_urdf_makes_no_dataclass(tmp_path):
    """``mbparse check robot.urdf`` (without ``--for``) is one short process too."""
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r"><link name="a"/></robot>')
    assert modules_after("check", path, {"dataclasses"}) == []


def test_an_obj_mesh_gets_fresh_lists_and_inspecting_an_obj_makes_no_dataclass(tmp_path):
    from mbparse.geometry.mesh_io import ObjMesh
    a, b = ObjMesh(), ObjMesh()
    assert a.object_names == [] and a.object_names is not b.object_names
    assert a.warnings is not b.warnings and (a.vertices, a.faces) == (None, None)
    assert ObjMesh(object_names=["box"]).object_name == "box"
    path = tmp_path / "box.obj"
    path.write_text("o box\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                    "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    assert modules_after("inspect", path, {"dataclasses"}) == []
