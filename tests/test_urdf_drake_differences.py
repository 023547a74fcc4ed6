"""Two Drake behaviours the corpus never showed, checked against Drake 1.51:
a <mimic> tag is checked whole even on a plant that then ignores it (TAMSI),
and Drake's mobilizer offset frames are named after the joint's own parent
frame "<joint>_parent", which every URDF joint has (ANYmal C's joints share
their child link's name: LH_HAA_LH_HAA_parent_F)."""
from __future__ import annotations

import pytest

from conftest import HEAVY, line_of, parse_urdf, robot
from mbparse import ParseError

LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def revolute(name: str, parent: str, child: str, axis: str = "0 0 1", inside: str = "") -> str:
    return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/><axis xyz="{axis}"/>{LIMIT}{inside}</joint>\n')


def links(*names: str) -> str:
    return "".join(f'<link name="{n}">{HEAVY}</link>\n' for n in names)


@pytest.mark.parametrize("time_step, approximation", [(0.001, "tamsi"), (0.0, "tamsi"),
                                                      (0.001, "sap")])
@pytest.mark.parametrize("mimic, words, like_drake", [
    # the default mode ignores a <mimic> of an absent joint (tests/test_modes_urdf.py)
    ('<mimic joint="nothere"/>', "'nothere'", True),
    ("<mimic/>", "no 'joint' attribute", False),
    ('<mimic joint="j"/>', "cannot mimic itself", False),
])
def test_urdf_mimic_is_checked_even_on_a_plant_that_ignores_it(time_step, approximation,
                                                                mimic, words, like_drake):
    text = robot(links("a", "b") + revolute("j", "a", "b", inside=mimic))
    with pytest.raises(ParseError, match=words) as info:
        parse_urdf(text, time_step=time_step, approximation=approximation,
                   like_drake=like_drake)
    assert f":{line_of(text, '<mimic')}:" in str(info.value)


def test_urdf_mimic_between_joints_of_different_dofs_is_an_error_on_tamsi_too():
    text = robot(links("a", "b", "c") + revolute("j", "a", "b", inside='<mimic joint="k"/>')
                 + '<drake:joint name="k" type="ball"><parent link="b"/><child link="c"/>'
                   '</drake:joint>')
    with pytest.raises(ParseError, match="cannot mimic"):
        parse_urdf(text, time_step=0.001, approximation="tamsi", like_drake=True)
    # the default mode ignores that <mimic> with a warning (TALOS's grippers)
    parsed = parse_urdf(text, time_step=0.001, approximation="sap")
    assert parsed.plant.num_constraints() == 0
    assert any("cannot mimic" in w and "Drake refuses this" in w for w in parsed.warnings)


def test_urdf_valid_mimic_on_tamsi_is_ignored_with_a_warning():
    text = robot(links("a", "b", "c") + revolute("j", "a", "b", inside='<mimic joint="k"/>')
                 + revolute("k", "b", "c"))
    parsed = parse_urdf(text, time_step=0.001, approximation="tamsi")
    assert parsed.plant.num_constraints() == 0
    assert any("TAMSI" in w for w in parsed.warnings)


def frame_names(text: str) -> list[str]:
    parsed = parse_urdf(text, time_step=0.001)
    parsed.plant.finalize()
    return sorted(f.name for f in parsed.plant.frames())


def test_urdf_offset_frames_are_named_after_the_joint_parent_frame_as_drake_names_them():
    # What pydrake 1.51 lists for this model (ANYmal C's naming: link and
    # joint share a name).
    text = robot(links("base", "LH_HAA", "c", "d", "w")
                 + revolute("LH_HAA", "base", "LH_HAA", axis="1 1 0")
                 + revolute("k", "LH_HAA", "c", axis="1 1 0")
                 + '<joint name="c" type="revolute"><parent link="c"/><child link="d"/>'
                   f'<origin xyz="0 0 1"/><axis xyz="0 1 1"/>{LIMIT}</joint>'
                 + '<joint name="w" type="fixed"><parent link="d"/><child link="w"/>'
                   '<origin xyz="0 0 1"/></joint>')
    assert frame_names(text) == [
        "LH_HAA", "LH_HAA_LH_HAA_M", "LH_HAA_LH_HAA_parent_F", "LH_HAA_parent", "base", "c",
        "c_c_parent_F", "c_d_M", "c_parent", "d", "k_c_M", "k_k_parent_F", "k_parent", "w",
        "w_parent", "world"]


@pytest.mark.parametrize("jtype, inside, frames", [
    ("revolute", f'<axis xyz="0 0 1"/>{LIMIT}', ["a", "b", "j_parent", "world"]),
    ("fixed", "", ["a", "b", "j_parent", "world"]),
    ("continuous", '<axis xyz="1 1 0"/>', ["a", "b", "j_b_M", "j_j_parent_F", "j_parent",
                                           "world"]),
    ("planar", '<axis xyz="0 0 1"/>', ["a", "b", "j_child", "j_parent", "world"]),
])
def test_urdf_every_joint_has_its_parent_frame_as_in_drake(jtype, inside, frames):
    text = robot(links("a", "b") + f'<joint name="j" type="{jtype}"><parent link="a"/>'
                 f'<child link="b"/>{inside}</joint>')
    assert frame_names(text) == frames
