"""An OBJ file as a model: one free body whose mass properties come from the
enclosed volume at 1000 kg/m³, named by the model name, else the object
name, else the file name, with the mesh in all three roles."""
from __future__ import annotations

import pytest

from conftest import CORPUS, new_parser, parse_file
from mbparse import ParseError
from mbparse.formats import obj
from mbparse.geometry import ILLUSTRATION, PERCEPTION, PROXIMITY
from mbparse.workspace import DataSource
from test_obj_mesh_io import UNIT_CUBE


def test_obj_model_and_body_take_the_file_base_name_without_an_object_name(write):
    parsed = parse_file(write("my_cube.obj", UNIT_CUBE))
    assert parsed.plant.get_model_instance_name(parsed.instance) == "my_cube"
    assert parsed.plant.has_body_named("my_cube", parsed.instance)


def test_obj_model_and_body_take_the_object_name_when_the_file_has_one(write):
    parsed = parse_file(write("file_name.obj", "o cubey\n" + UNIT_CUBE))
    assert parsed.plant.get_model_instance_name(parsed.instance) == "cubey"
    assert parsed.plant.has_body_named("cubey", parsed.instance)


def test_obj_model_name_given_by_the_caller_wins_over_the_object_name(write):
    path = write("file_name.obj", "o cubey\n" + UNIT_CUBE)
    parser = new_parser()
    index = obj.add_model(DataSource(filename=str(path)), "given", None,
                          parser.make_workspace())
    assert parser.plant().get_model_instance_name(index) == "given"
    assert parser.plant().has_body_named("given", index)


def test_obj_model_name_given_in_model_directives(write):
    write("cube.obj", "o cubey\n" + UNIT_CUBE)
    write("package.xml", "<package format='2'><name>objs</name></package>")
    dmd = write("scene.dmd.yaml", "directives:\n- add_model:\n    name: from_dmd\n"
                                  "    file: package://objs/cube.obj\n")
    parser = new_parser()
    parser.package_map().add("objs", str(dmd.parent))
    (index,) = parser.add_models(dmd)
    assert parser.plant().get_model_instance_name(index) == "from_dmd"


def test_obj_body_mass_properties_come_from_the_volume_at_water_density(write):
    # The unit cube [0,1]³: 1000 kg, COM (½,½,½), measured at the body origin.
    parsed = parse_file(write("cube.obj", UNIT_CUBE))
    body = parsed.plant.get_body_by_name("cube", parsed.instance)
    M = body.default_spatial_inertia
    assert M.mass == pytest.approx(1000.0)
    assert M.com == pytest.approx((0.5, 0.5, 0.5))
    # About the origin: Ixx = m(1/6 + ½² + ½²) = 2000/3; Ixy = -m ½ ½ = -250.
    assert M.inertia_about_origin() == pytest.approx(
        (2000 / 3, 2000 / 3, 2000 / 3, -250, -250, -250))


def test_obj_body_is_free(write):
    parsed = parse_file(write("cube.obj", UNIT_CUBE))
    plant = parsed.plant
    plant.finalize()
    assert plant.get_body_by_name("cube", parsed.instance).is_floating_base_body


def test_obj_mesh_serves_all_three_roles(write):
    path = write("cube.obj", UNIT_CUBE)
    parsed = parse_file(path)
    collision = parsed.geometry("cube::collision")
    visual = parsed.geometry("cube::visual")
    assert collision.has_role(PROXIMITY) and not collision.has_role(ILLUSTRATION)
    assert visual.has_role(ILLUSTRATION) and visual.has_role(PERCEPTION)
    for g in (collision, visual):
        assert g.shape.filename == str(path)
        assert g.shape.scale == (1.0, 1.0, 1.0)
    # Drake gives the collision geometry empty proximity properties.
    assert len(collision.properties(PROXIMITY)) == 0


def test_obj_without_scene_graph_adds_the_body_only(write):
    parsed = parse_file(write("cube.obj", UNIT_CUBE), scene_graph=False)
    assert parsed.plant.has_body_named("cube", parsed.instance)


def test_obj_model_name_prefix_and_auto_renaming_apply(write):
    path = write("cube.obj", UNIT_CUBE)
    parser = new_parser(prefix="left")
    parser.set_auto_renaming(True)
    first = parser.add_models(path)[0]
    second = parser.add_models(path)[0]
    assert parser.plant().get_model_instance_name(first) == "left::cube"
    assert parser.plant().get_model_instance_name(second) == "left::cube_1"
    # The body keeps the plain name.
    assert parser.plant().has_body_named("cube", second)


def test_obj_with_several_objects_is_one_body_named_after_the_last_with_a_warning(write):
    text = ("o first\n" + UNIT_CUBE + "o second\n"
            + "".join(f"v {x + 2} {y} {z}\n" for x, y, z in
                      [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                       (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)])
            + "".join(line + "\n" for line in
                      ["f -8 -5 -6 -7", "f -4 -3 -2 -1", "f -8 -7 -3 -4",
                       "f -7 -6 -2 -3", "f -6 -5 -1 -2", "f -5 -8 -4 -1"]))
    parsed = parse_file(write("two.obj", text))
    body = parsed.plant.get_body_by_name("second", parsed.instance)
    assert body.default_spatial_inertia.mass == pytest.approx(2000.0)
    assert any("2 objects" in w for w in parsed.warnings)


def test_obj_corpus_file_with_two_objects_matches_drake():
    path = CORPUS / "drake" / "geometry" / "test" / "two_cube_objects.obj"
    if not path.exists():
        pytest.skip("corpus absent")
    parsed = parse_file(path)
    body = parsed.plant.get_body_by_name("cube2", parsed.instance)
    assert body.default_spatial_inertia.mass == pytest.approx(16000.0)


def test_obj_open_mesh_that_still_encloses_volume_is_accepted(write):
    # The cube without its top face: the five remaining faces still give a
    # positive volume, as Drake computes it.
    text = "\n".join(line for line in UNIT_CUBE.splitlines() if line != "f 5 6 7 8")
    parsed = parse_file(write("open.obj", text))
    assert parsed.plant.get_body_by_name("open", parsed.instance).default_spatial_inertia.mass > 0


def test_obj_with_negative_volume_is_an_error(write):
    flipped = "".join(
        ("f " + " ".join(reversed(line.split()[1:])) if line.startswith("f ") else line) + "\n"
        for line in UNIT_CUBE.splitlines())
    path = write("inside_out.obj", flipped)
    with pytest.raises(ParseError, match="volume of -1") as info:
        parse_file(path)
    assert info.value.diagnostic.file == str(path)


def test_obj_with_zero_volume_is_an_error(write):
    with pytest.raises(ParseError, match="volume"):
        parse_file(write("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n"))


def test_obj_with_no_faces_is_an_error(write):
    path = write("empty.obj", "v 0 0 0\nv 1 0 0\n")
    with pytest.raises(ParseError, match="no faces"):
        parse_file(path)


def test_obj_bad_face_error_names_file_and_line(write):
    path = write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n")
    with pytest.raises(ParseError) as info:
        parse_file(path)
    assert info.value.diagnostic.file == str(path)
    assert info.value.diagnostic.line == 4


def test_obj_text_from_a_string_is_an_error():
    with pytest.raises(ParseError, match="OBJ"):
        new_parser().add_models_from_string(UNIT_CUBE, "obj")


def test_obj_reader_refuses_string_sources_itself():
    parser = new_parser()
    with pytest.raises(ParseError, match="string"):
        obj.add_all_models(DataSource(contents=UNIT_CUBE), None, parser.make_workspace())
