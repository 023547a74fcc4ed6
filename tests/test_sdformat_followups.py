"""SDFormat details that follow libsdformat's own arithmetic and document
rules: poses with unnormalised quaternions, ``<inertial auto="true">`` and
the unflattening of pre-1.8 ``a::b`` names."""
from __future__ import annotations

import math

import pytest

from mbparse import ParseError
from conftest import CORPUS, needs_corpus, line_of, parse_file, parse_sdf, sdf

NS = 'xmlns:drake="http://drake.mit.edu"'








def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------ unnormalised quaternions
@needs_corpus
def test_sdf_model_frame_offset_follows_libsdformat_for_a_non_unit_quaternion():
    # The link's quaternion has a squared norm of 0.99999887: libsdformat
    # inverts the link pose without normalising, and Drake keeps the result.
    path = CORPUS / "sdformat/test/sdf/rotations_in_quaternions.sdf"
    plant = parse_file(path).plant
    X = plant.get_frame_by_name("__model__").X_BF
    assert close(X.p, (2.9925266891823625, -2.2410782010920625, -0.14959843262091566))


@needs_corpus
def test_sdf_non_unit_model_quaternion_offsets_the_model_frame_from_its_link():
    # Model pose with a (slightly) non-unit quaternion, link at the model
    # frame: libsdformat's inverse leaves a small offset, as in Drake.
    plant = parse_file(CORPUS / "sdformat/test/sdf/pose_1_9.sdf").plant
    m = plant.get_model_instance_by_name("model_quat_xyzw")
    X = plant.get_frame_by_name("__model__", m).X_BF
    assert close(X.p, (0.0, 5.3212476647246376e-08, -2.6606238656690095e-07), 1e-15)


def test_sdf_unit_quaternions_give_the_exact_model_frame():
    plant = parse_sdf(sdf('<model name="m"><pose rotation_format="quat_xyzw">'
                            '1 2 3  0 0 0.6 0.8</pose><link name="L"/></model>')).plant
    assert plant.get_frame_by_name("__model__").X_BF.p == (0.0, 0.0, 0.0)


def test_sdf_axis_in_a_frame_with_a_scaled_quaternion_is_rotated_as_libsdformat_does():
    # F's quaternion (w=1, z=1) has squared norm 2: libsdformat's
    # quaternion-times-vector gives (1 - 2)·x + 2·(R x) = (-1, 2, 0), not R x.
    plant = parse_sdf(sdf(
        '<model name="m"><link name="A"/><link name="B"/>'
        '<frame name="F"><pose rotation_format="quat_xyzw">0 0 0  0 0 1 1</pose></frame>'
        '<joint name="j" type="revolute"><parent>A</parent><child>B</child>'
        '<axis><xyz expressed_in="F">1 0 0</xyz></axis></joint></model>')).plant
    axis = plant.get_joint_by_name("j").axis
    assert close(axis, (-1 / math.sqrt(5), 2 / math.sqrt(5), 0.0))


# ------------------------------------------------------------ <inertial auto="true">
def auto_link(inertial: str, collisions: str, link_pose: str = "") -> str:
    return sdf(f'<model name="m"><link name="L">{link_pose}\n'
               f'<inertial auto="true">{inertial}</inertial>\n{collisions}\n</link></model>',
               "1.11")


def collision(name: str, shape: str, density: str | None = "<density>2</density>",
              pose: str = "") -> str:
    return (f'<collision name="{name}">{pose}{density or ""}<geometry>{shape}</geometry>'
            '</collision>')


def inertia_of(plant, name="L"):
    M = plant.get_body_by_name(name).default_spatial_inertia
    return M.mass, tuple(M.com), tuple(M.I_cm)


def test_sdf_auto_inertial_of_a_box_uses_the_collision_density():
    plant = parse_sdf(auto_link("", collision("c", "<box><size>1 2 3</size></box>"))).plant
    mass, com, I = inertia_of(plant)
    assert mass == pytest.approx(12.0) and com == (0.0, 0.0, 0.0)
    assert close(I, (12 / 12 * 13, 12 / 12 * 10, 12 / 12 * 5, 0, 0, 0))


def test_sdf_auto_inertial_link_density_applies_to_collisions_without_one():
    plant = parse_sdf(auto_link("<density>3</density>",
                                  collision("c", "<sphere><radius>2</radius></sphere>", None))).plant
    mass, _, I = inertia_of(plant)
    expected = 3 * 4 / 3 * math.pi * 8
    assert mass == pytest.approx(expected)
    assert close(I, (0.4 * expected * 4,) * 3 + (0, 0, 0), 1e-9)


def test_sdf_auto_inertial_sums_collisions_with_their_poses():
    # Two half-cubes stacked along z make the unit cube's inertia; a third,
    # rotated cylinder far away moves the center of mass.
    half = "<box><size>1 1 0.5</size></box>"
    plant = parse_sdf(auto_link("", collision("up", half, pose="<pose>0 0 0.25 0 0 0</pose>")
                                  + collision("down", half,
                                              pose="<pose>0 0 -0.25 0 0 0</pose>"))).plant
    mass, com, I = inertia_of(plant)
    assert mass == pytest.approx(2.0) and close(com, (0, 0, 0))
    assert close(I, (2 / 6, 2 / 6, 2 / 6, 0, 0, 0))
    plant = parse_sdf(auto_link("", collision("a", "<box><size>1 1 1</size></box>")
                                  + collision("b", "<cylinder><radius>1</radius><length>2"
                                              "</length></cylinder>",
                                              pose="<pose>4 0 0 0 1.5707963267948966 0</pose>"))).plant
    mass, com, I = inertia_of(plant)
    m_cyl = 2 * math.pi * 2
    assert mass == pytest.approx(2 + m_cyl)
    assert close(com, (4 * m_cyl / (2 + m_cyl), 0, 0), 1e-12)
    # Cylinder axis along x after the rotation: its Ixx is m r²/2.
    d_box, d_cyl = com[0], 4 - com[0]
    iyy = 2 / 6 + m_cyl / 12 * (3 + 4) + 2 * d_box ** 2 + m_cyl * d_cyl ** 2
    assert close(I[:3], (2 / 6 + m_cyl / 2, iyy, iyy), 1e-9)


def test_sdf_auto_inertial_with_mass_scales_to_it():
    plant = parse_sdf(auto_link("<mass>6</mass>", collision(
        "c", "<capsule><radius>0.5</radius><length>1</length></capsule>", None))).plant
    mass, _, I = inertia_of(plant)
    assert mass == 6.0
    # Capsule about its center: cylinder plus two hemispheres, per unit mass.
    r, l = 0.5, 1.0
    m_c, m_h = math.pi * r * r * l, 2 / 3 * math.pi * r ** 3
    dz = l / 2 + 3 * r / 8
    ixx = (m_c / 12 * (3 * r * r + l * l)
           + 2 * (83 / 320 * m_h * r * r + m_h * dz * dz)) / (m_c + 2 * m_h)
    izz = (m_c / 2 * r * r + 2 * 2 / 5 * m_h * r * r) / (m_c + 2 * m_h)
    assert close(I, (6 * ixx, 6 * ixx, 6 * izz, 0, 0, 0), 1e-12)


def test_sdf_auto_inertial_collision_pose_relative_to_another_frame():
    text = sdf('<model name="m"><frame name="F"><pose>0 0 1 0 0 0</pose></frame>'
               '<link name="L"><inertial auto="true"/>'
               + collision("c", "<ellipsoid><radii>1 2 3</radii></ellipsoid>",
                           pose='<pose relative_to="F">1 0 0 0 0 0</pose>')
               + '</link></model>', "1.11")
    plant = parse_sdf(text).plant
    mass, com, I = inertia_of(plant)
    assert mass == pytest.approx(2 * 4 / 3 * math.pi * 6)
    assert close(com, (1.0, 0.0, 1.0))
    assert close(I, (mass / 5 * 13, mass / 5 * 10, mass / 5 * 5, 0, 0, 0), 1e-9)


def test_sdf_auto_inertial_of_an_obj_mesh(tmp_path):
    (tmp_path / "cube.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
        "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n")
    model = tmp_path / "m.sdf"
    model.write_text(auto_link("", collision("c", "<mesh><uri>cube.obj</uri>"
                                                  "<scale>2 1 1</scale></mesh>")))
    plant = parse_file(model).plant
    mass, com, I = inertia_of(plant)
    assert mass == pytest.approx(4.0) and close(com, (1.0, 0.5, 0.5))
    assert close(I, (4 / 12 * 2, 4 / 12 * 5, 4 / 12 * 5, 0, 0, 0))


def test_sdf_auto_inertial_without_any_density_or_mass_is_a_located_error():
    text = auto_link("", collision("c", "<box><size>1 1 1</size></box>", None))
    with pytest.raises(ParseError, match="density") as e:
        parse_sdf(text)
    assert f":{line_of(text, '<collision')}:" in str(e.value)


def test_sdf_auto_inertial_needs_a_collision():
    text = auto_link("<mass>1</mass>", "")
    with pytest.raises(ParseError, match="no <collision>") as e:
        parse_sdf(text)
    assert f":{line_of(text, '<inertial')}:" in str(e.value)


def test_sdf_auto_inertial_with_explicit_inertia_is_an_error():
    text = auto_link("<mass>1</mass>\n<inertia><ixx>1</ixx></inertia>",
                     collision("c", "<sphere/>"))
    with pytest.raises(ParseError, match="inertia") as e:
        parse_sdf(text)
    assert f":{line_of(text, '<inertia>')}:" in str(e.value)


def test_sdf_auto_inertial_cannot_use_a_plane():
    text = auto_link("", collision("c", "<plane><normal>0 0 1</normal></plane>"))
    with pytest.raises(ParseError, match="plane") as e:
        parse_sdf(text)
    assert f":{line_of(text, '<collision')}:" in str(e.value)


def test_sdf_auto_inertial_invalid_collision_warns_and_adds_nothing():
    # A density of zero gives no mass, which libsdformat finds invalid.
    parsed = parse_sdf(auto_link("", collision("bad", "<box><size>1 1 1</size></box>",
                                                     "<density>0</density>")
                                       + collision("good", "<box><size>1 1 1</size></box>")))
    plant, parser = parsed.plant, parsed.parser
    assert inertia_of(plant)[0] == pytest.approx(2.0)
    messages = [d.message for d in parser.diagnostic_policy().warnings_seen]
    assert any("'bad'" in m and "not valid" in m for m in messages)


@pytest.mark.parametrize("bad", [
    collision("bad", "<box><size>1e100 1e100 1e100</size></box>", "<density>1e300</density>"),
    collision("bad", "<mesh><uri>tet.obj</uri><scale>1e200 1e200 1e200</scale></mesh>"),
], ids=["box-mass-overflows", "mesh-scale-overflows"])
def test_sdf_auto_inertial_that_overflows_is_invalid_and_adds_nothing(tmp_path, bad):
    """A collision whose mass properties overflow a double is one libsdformat
    finds invalid ("Inertia Calculated for collision: bad is invalid.") and
    leaves out; Drake 1.51 then loads the box case with mass 0 and crashes
    (std::bad_alloc) on the mesh one. Before, mbparse refused both with a
    center of mass of NaN in the message."""
    (tmp_path / "tet.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                      "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    model = tmp_path / "m.sdf"
    model.write_text(auto_link("", bad + collision("good", "<box><size>1 1 1</size></box>")))
    loaded = parse_file(model)
    mass, com, I = inertia_of(loaded.plant)
    assert mass == pytest.approx(2.0) and close(com, (0, 0, 0))
    assert all(math.isfinite(v) for v in I)
    messages = [d.message for d in loaded.parser.diagnostic_policy().warnings_seen]
    assert any("'bad'" in m and "not valid" in m for m in messages)


# ------------------------------------------------------------ unflattening (< 1.8)
FLAT = '''<world name="w"><model name="P"><pose>0 0 1 0 0 0</pose>
<frame name="N::__model__" attached_to="N::B"><pose relative_to="__model__">5 0 0 0 0 0</pose></frame>
<frame name="N::F" attached_to="N::__model__"><pose>0 1 0 0 0 0</pose></frame>
<link name="N::A"><pose relative_to="N::F">0 0 0 0 0 0</pose>
<visual name="v"><pose relative_to="N::__model__">0 0 0 0 0 0</pose><geometry><sphere/></geometry></visual></link>
<link name="N::B"/>
<joint name="N::J" type="revolute"><parent>N::A</parent><child>N::B</child>
<axis><xyz expressed_in="N::F">0 0 1</xyz></axis></joint>
<model name="N::Inner"><link name="L"/></model>
<link name="own"/>
</model></world>'''


def test_sdf_flattened_names_before_1_8_become_nested_models():
    parsed = parse_sdf(sdf(FLAT, "1.7"))
    plant, instances = parsed.plant, parsed.instances
    names = [plant.get_model_instance_name(i) for i in instances]
    assert names == ["P", "P::N", "P::N::Inner"]
    n = plant.get_model_instance_by_name("P::N")
    # The N::__model__ frame gave N its pose (in P) and its canonical link B.
    model_frame = plant.get_frame_by_name("__model__", n)
    assert model_frame.body.name == "B" and model_frame.X_BF.p == (0.0, 0.0, 0.0)
    assert plant.get_body_by_name("B", n).default_free_body_pose.p == (5.0, 0.0, 1.0)
    assert plant.get_body_by_name("A", n).default_free_body_pose.p == (5.0, 1.0, 1.0)
    assert plant.get_frame_by_name("F", n).X_BF.p == (0.0, 1.0, 0.0)
    assert plant.get_joint_by_name("J", n).child_body.name == "B"
    assert plant.has_body_named("own", plant.get_model_instance_by_name("P"))


def test_sdf_flattened_names_from_1_8_on_are_errors():
    text = sdf(FLAT, "1.8")
    with pytest.raises(ParseError, match="::") as e:
        parse_sdf(text)
    assert f":{line_of(text, 'N::__model__')}:" in str(e.value)


def test_sdf_flattened_names_written_as_character_references_are_unflattened():
    # (the loader unflattens only a text holding '::', '&' or a NUL byte)
    parsed = parse_sdf(sdf('<world name="w"><model name="P"><link name="N&#58;:A"/>'
                           '</model></world>', "1.7"))
    plant, instances = parsed.plant, parsed.instances
    assert [plant.get_model_instance_name(i) for i in instances] == ["P", "P::N"]
    assert plant.has_body_named("A", plant.get_model_instance_by_name("P::N"))


def test_sdf_top_level_flattened_model_is_not_unflattened():
    # libsdformat unflattens only the models of a world.
    parsed = parse_sdf(sdf('<model name="P"><link name="N::A"/></model>', "1.7"))
    plant, instances = parsed.plant, parsed.instances
    assert [plant.get_model_instance_name(i) for i in instances] == ["P"]
    assert plant.has_body_named("N::A", instances[0])


def test_sdf_unflattening_a_joint_end_outside_the_model_is_a_located_error():
    text = sdf('<world name="w"><model name="P"><link name="N::A"/><link name="X"/>\n'
               '<joint name="N::J" type="fixed"><parent>X</parent><child>N::A</child></joint>'
               '</model></world>', "1.7")
    with pytest.raises(ParseError, match="'X'") as e:
        parse_sdf(text)
    assert f":{line_of(text, '<parent>X')}:" in str(e.value)


def test_sdf_include_is_searched_in_sdf_path_as_libsdformat_does(tmp_path, monkeypatch):
    """libsdformat looks for an included file in each folder of SDF_PATH
    before asking Drake's package map."""
    from mbparse import MultibodyPlant, Parser
    models = tmp_path / "models"
    models.mkdir()
    (models / "part.sdf").write_text('<?xml version="1.0"?>\n<sdf version="1.9">'
                                     '<model name="part"><link name="L"/></model></sdf>\n')
    top = tmp_path / "top.sdf"
    top.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><world name="w">'
                   '<include><uri>part.sdf</uri></include></world></sdf>\n')
    monkeypatch.setenv("SDF_PATH", str(models))
    plant = MultibodyPlant()
    instances = Parser(plant).add_models(str(top))
    assert [plant.get_model_instance_name(i) for i in instances] == ["part"]


def test_sdf_two_deformable_bodies_can_collide_with_each_other():
    """Deformable geometries sit in the world frame but move on their own:
    a pair of them is a collision candidate (Drake counts 1 for bubbles.sdf)."""
    from mbparse.geometry import Box, GeometryInstance, GeometryProperties, SceneGraph
    from mbparse.geometry.properties import PROXIMITY
    from mbparse.spatial import RigidTransform
    sg = SceneGraph()
    for name in ("left", "right"):
        sg.register_geometry(0, GeometryInstance(RigidTransform(), Box(1, 1, 1), name,
                                                 {PROXIMITY: GeometryProperties()}),
                             deformable=True)
    sg.register_geometry(0, GeometryInstance(RigidTransform(), Box(1, 1, 1), "floor",
                                             {PROXIMITY: GeometryProperties()}))
    # left-right, left-floor, right-floor; two rigid world geometries would be none.
    assert sg.num_collision_candidates() == 3 == len(sg.collision_candidates())
