"""Property fuzzing with hypothesis: any number text, any name and any
nesting in the places a model reads them ends as a located error or a model
of finite numbers -- never another exception."""
from __future__ import annotations

import math

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from mbparse import MultibodyPlant, Parser, SceneGraph  # noqa: E402
from mbparse.diagnostics import ParseError  # noqa: E402

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

NUMBER_TEXT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1e400", "-1e400", "nan", "inf", "1,2", "0x1p3", "", " ", "1e", ".",
                     "+", "1.5abc", "1_0", "٣", "1e-400", "9" * 400]),
    st.text(alphabet="0123456789.eE+-,x ", max_size=12))
NAME = st.text(min_size=0, max_size=30).filter(lambda t: "\x00" not in t)


def finite_or_located(text: str, file_type: str) -> None:
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    parser.diagnostic_policy().emit = False
    try:
        parser.add_models_from_string(text, file_type)
        plant.finalize()
    except ParseError as e:
        assert e.diagnostic.file
        return
    except Exception as e:  # ModelError from finalize is the plant's own refusal
        from mbparse.plant import ModelError
        assert isinstance(e, ModelError), repr(e)
        return
    for body in plant.bodies():
        M = body.default_spatial_inertia
        assert all(math.isfinite(v) for v in (M.mass, *M.com, *M.I_cm))
    for joint in plant.joints():
        assert all(math.isfinite(v) for v in joint.damping)
        assert all(math.isfinite(v) for row in joint.frame_on_parent.X_BF.R for v in row)


def urdf_with(value: str, where: str) -> str:
    link = ('<link name="b"><inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{mass}"/>'
            '<inertia ixx="{i}" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    fields = {"xyz": "0 0 0", "rpy": "0 0 0", "mass": "1", "i": "1", "axis": "0 0 1",
              "damping": "0", "lower": "-1"}
    fields[where] = value
    return ('<robot name="r"><link name="a"/>' + link.format(**fields)
            + '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<axis xyz="{axis}"/><limit lower="{lower}" upper="1"/>'
            '<dynamics damping="{damping}"/></joint></robot>'.format(**fields))


@SETTINGS
@given(value=NUMBER_TEXT, where=st.sampled_from(["xyz", "rpy", "mass", "i", "axis", "damping",
                                                 "lower"]))
def test_urdf_numbers_give_a_located_error_or_a_finite_model(value, where):
    if where in ("xyz", "rpy", "axis"):
        value = f"0 {value} 0"
    finite_or_located(urdf_with(value.replace('"', ""), where), "urdf")


@SETTINGS
@given(value=NUMBER_TEXT, what=st.sampled_from(["pose", "mass", "ixx", "xyz"]))
def test_sdf_numbers_give_a_located_error_or_a_finite_model(value, what):
    value = value.replace("<", "").replace("&", "")
    fields = {"pose": "0 0 0 0 0 0", "mass": "1", "ixx": "1", "xyz": "0 0 1"}
    fields[what] = f"0 0 0 0 0 {value}" if what == "pose" else (
        f"0 {value} 1" if what == "xyz" else value)
    text = ('<sdf version="1.9"><model name="m"><link name="a"/><link name="b">'
            '<pose>{pose}</pose><inertial><mass>{mass}</mass><inertia><ixx>{ixx}</ixx>'
            '<iyy>1</iyy><izz>1</izz></inertia></inertial></link><joint name="j" '
            'type="revolute"><parent>a</parent><child>b</child><axis><xyz>{xyz}</xyz></axis>'
            '</joint></model></sdf>').format(**fields)
    finite_or_located(text, "sdf")


@SETTINGS
@given(value=NUMBER_TEXT, attr=st.sampled_from(["pos", "euler", "quat", "size", "mass",
                                                "axis", "damping"]))
def test_mjcf_numbers_give_a_located_error_or_a_finite_model(value, attr):
    value = value.replace('"', "")
    attrs = {"pos": "0 0 0", "euler": "0 0 0", "quat": "1 0 0 0", "size": "0.1",
             "mass": "1", "axis": "0 0 1", "damping": "0"}
    attrs[attr] = value
    text = ('<mujoco model="m"><worldbody><body name="b" pos="{pos}" euler="{euler}">'
            '<joint type="hinge" axis="{axis}" damping="{damping}"/>'
            '<geom size="{size}" mass="{mass}" quat="{quat}"/></body></worldbody>'
            '</mujoco>').format(**attrs)
    finite_or_located(text, "xml")


@SETTINGS
@given(name=NAME, kind=st.sampled_from(["link", "joint", "robot"]))
def test_urdf_names_give_a_located_error_or_a_model(name, kind):
    from xml.sax.saxutils import quoteattr
    q = quoteattr(name)
    if kind == "robot":
        text = f'<robot name={q}><link name="a"/></robot>'
    elif kind == "link":
        text = f'<robot name="r"><link name={q}/></robot>'
    else:
        text = (f'<robot name="r"><link name="a"/><link name="b"/><joint name={q} type="fixed">'
                '<parent link="a"/><child link="b"/></joint></robot>')
    finite_or_located(text, "urdf")


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(depth=st.integers(min_value=1, max_value=700), kind=st.sampled_from(["sdf", "mjcf"]))
def test_nesting_gives_a_located_error_or_a_model(depth, kind):
    if kind == "sdf":
        text = ('<sdf version="1.9">' + "".join(f'<model name="m{i}"><link name="l"/>'
                                                for i in range(depth))
                + "</model>" * depth + "</sdf>")
        finite_or_located(text, "sdf")
    else:
        text = ('<mujoco model="m"><worldbody>'
                + "".join(f'<body name="b{i}"><joint/><geom size="1"/>' for i in range(depth))
                + "</body>" * depth + "</worldbody></mujoco>")
        finite_or_located(text, "xml")


@SETTINGS
@given(text=st.text(max_size=200))
def test_any_directives_text_gives_a_located_error_or_a_model(text):
    finite_or_located(text, "dmd.yaml")
