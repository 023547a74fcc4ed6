"""Poses that are each finite but add up past what a double holds (1e308
relative to a frame at 1e308) are located errors, never a model holding an
infinity or a NaN. libsdformat and Drake 1.51 keep such a model silently:
Drake's joint frames then hold NaN (checked on this file's SDFormat case),
which no consumer can use, so here mbparse parts with Drake on purpose."""
from __future__ import annotations

import math

import pytest

from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions, load

BIG = "1e308 0 0"


def refusal(write, name: str, text: str, like: str = "default") -> ParseError:
    path = write(name, text)
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(like=like))
    d = info.value.diagnostic
    assert d.code == "number-not-finite", str(info.value)
    assert "inf" in d.message and "finite" in d.message
    return info.value


LIKES = pytest.mark.parametrize("like", ["default", "drake"])


@LIKES
def test_sdf_frames_posed_relative_to_each_other(write, like):
    e = refusal(write, "m.sdf", f"""<sdf version="1.9"><model name="m">
<frame name="f1"><pose>{BIG} 0 0 0</pose></frame>
<frame name="f2"><pose relative_to="f1">{BIG} 0 0 0</pose></frame>
<link name="a"><pose relative_to="f2">0 0 0 0 0 0</pose></link>
</model></sdf>""", like)
    assert e.diagnostic.line == 3 and "'m::f2'" in e.diagnostic.message


def test_sdf_nested_model_in_a_world(write):
    e = refusal(write, "w.sdf", f"""<sdf version="1.9"><world name="w"><model name="m">
<pose>{BIG} 0 0 0</pose><link name="a"/>
<model name="n"><pose>{BIG} 0 0 0</pose><link name="c"/></model>
</model></world></sdf>""")
    assert e.diagnostic.line == 3


def test_sdf_large_but_finite_poses_still_load(write):
    path = write("m.sdf", """<sdf version="1.9"><model name="m">
<frame name="f1"><pose>1e300 0 0 0 0 0</pose></frame>
<link name="a"><pose relative_to="f1">-1e300 0 0 0 0 0</pose></link>
</model></sdf>""")
    plant = load(str(path)).plant
    assert all(math.isfinite(v) for f in plant.frames() for v in f.X_BF.p)


@LIKES
def test_urdf_chain_of_joint_origins(write, like):
    e = refusal(write, "r.urdf", f"""<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
<joint name="j1" type="fixed"><origin xyz="{BIG}"/><parent link="a"/><child link="b"/></joint>
<joint name="j2" type="fixed"><origin xyz="{BIG}"/><parent link="b"/><child link="c"/></joint>
</robot>""", like)
    assert e.diagnostic.line == 3 and "'c'" in e.diagnostic.message


@pytest.mark.parametrize("inside,line_tag", [
    (f'<frame pos="{BIG}"><body name="b" pos="{BIG}"><joint/><geom size="1"/></body></frame>',
     "body"),
    (f'<body name="b"><joint/><geom size="1"/><frame pos="{BIG}"><geom size="1" pos="{BIG}" '
     'mass="0"/></frame></body>', "geom"),
    (f'<body name="b"><joint/><geom size="1"/><frame pos="{BIG}"><site pos="{BIG}"/></frame>'
     '</body>', "site"),
], ids=["body", "geom", "site"])
def test_mjcf_frames_around_an_element(write, inside, line_tag):
    e = refusal(write, "m.xml", f'<mujoco model="m"><worldbody>\n{inside}\n</worldbody></mujoco>')
    assert e.diagnostic.line == 2 and f"<{line_tag}>" in e.diagnostic.message


def test_dmd_frame_on_a_frame(write):
    e = refusal(write, "d.dmd.yaml", f"""directives:
- add_frame: {{name: f1, X_PF: {{base_frame: world, translation: [1e308, 0, 0]}}}}
- add_frame: {{name: f2, X_PF: {{base_frame: f1, translation: [1e308, 0, 0]}}}}
""")
    assert e.diagnostic.line == 3 and "'f2'" in e.diagnostic.message


def test_dmd_weld_offset_from_a_frame(write):
    model = write("a.sdf", '<sdf version="1.9"><model name="a"><link name="l"/></model></sdf>')
    e = refusal(write, "d.dmd.yaml", f"""directives:
- add_frame: {{name: f1, X_PF: {{base_frame: world, translation: [1e308, 0, 0]}}}}
- add_model: {{name: a, file: "file://{model}"}}
- add_weld: {{parent: f1, child: a::l, X_PC: {{translation: [1e308, 0, 0]}}}}
""")
    assert e.diagnostic.line == 4
