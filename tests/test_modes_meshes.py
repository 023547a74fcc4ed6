"""Default mode and Drake's mode on the same files: what Drake refuses only
for a limit of its own (a collision mesh it cannot make a hull of, the
automatic inertia of a non-OBJ mesh) loads in the default mode with a
located warning; a mesh or texture file that is missing leaves that
geometry (or texture) out with a warning; ``like_drake`` gives Drake's
error. Where Drake parses a file, both modes build the same model."""
from __future__ import annotations

import pytest

from conftest import line_of, parse_file
from mbparse import ParseError
from mbparse.geometry import Mesh
from mbparse.geometry.meshes import shape_triangles
from mbparse.geometry.properties import ILLUSTRATION, PROXIMITY
from mbparse.summary import summarize

trimesh = pytest.importorskip("trimesh")

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" '
            'ixz="0" iyz="0"/></inertial>')


def urdf(link_inside: str) -> str:
    return (f'<?xml version="1.0"?>\n<robot name="r">\n<link name="a">{INERTIAL}\n'
            f'{link_inside}\n</link>\n<link name="b">{INERTIAL}</link>\n'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>\n'
            '</robot>\n')


def sdf(link_inside: str) -> str:
    return ('<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n'
            f'<link name="a">\n{link_inside}\n</link>\n</model>\n</sdf>\n')


def box_stl(path):
    trimesh.creation.box(extents=(1.0, 2.0, 3.0)).export(path)


def both(path):
    """(default parse with its warnings, the ParseError Drake's mode raises)."""
    parsed = parse_file(path)
    with pytest.raises(ParseError) as info:
        parse_file(path, like_drake=True)
    return parsed, info.value


def test_modes_urdf_stl_collision_mesh_loads_by_default_and_is_refused_like_drake(write, tmp_path):
    box_stl(tmp_path / "part.stl")
    text = urdf('<collision><geometry><mesh filename="part.stl"/></geometry></collision>')
    path = write("m.urdf", text)
    parsed, error = both(path)
    (g,) = parsed.geometries()
    assert isinstance(g.shape, Mesh) and g.has_role(PROXIMITY)
    (warning,) = parsed.parser.diagnostic_policy().warnings_seen
    assert warning.line == line_of(text, "<mesh") and "Drake refuses this" in warning.message
    assert f"{path}:{line_of(text, '<mesh')}:" in str(error) and ".stl" in str(error)
    # the hull a result needs is read from the file then, not at parse time
    assert shape_triangles(g.shape).convex_hull().mass_properties(1.0)[0] == pytest.approx(6.0)


@pytest.mark.parametrize("ext", ["dae", "ply", "glb"])
def test_modes_urdf_collision_meshes_drake_has_no_hull_for_are_kept(write, tmp_path, ext):
    trimesh.creation.box().export(tmp_path / f"part.{ext}")
    path = write("m.urdf", urdf(f'<collision><geometry><mesh filename="part.{ext}"/>'
                                '</geometry></collision>'))
    parsed, _ = both(path)
    (g,) = parsed.geometries()
    assert g.shape.extension() == f".{ext}"


def test_modes_urdf_missing_mesh_is_left_out_and_the_kinematics_load(write):
    text = urdf('<visual><geometry><mesh filename="meshes/absent.dae"/></geometry></visual>\n'
                '<collision><geometry><box size="1 1 1"/></geometry></collision>')
    path = write("m.urdf", text)
    parsed, error = both(path)
    assert [type(g.shape).__name__ for g in parsed.geometries()] == ["Box"]
    assert parsed.plant.num_joints() == 1 and parsed.plant.num_bodies() == 3
    (warning,) = parsed.parser.diagnostic_policy().warnings_seen
    assert "absent.dae" in warning.message and warning.line == line_of(text, "absent.dae")
    assert "absent.dae" in str(error)


def test_modes_urdf_mesh_in_an_unknown_package_is_left_out(write):
    path = write("m.urdf", urdf('<visual><geometry><mesh filename="package://nowhere/a.stl"/>'
                                '</geometry></visual>'))
    parsed, error = both(path)
    assert parsed.geometries() == [] and "nowhere" in str(error)


def test_modes_urdf_missing_texture_is_left_out_and_the_colour_kept(write):
    path = write("m.urdf", urdf(
        '<visual><geometry><box size="1 1 1"/></geometry><material name="m">'
        '<color rgba="1 0 0 1"/><texture filename="absent.png"/></material></visual>'))
    parsed, error = both(path)
    (g,) = parsed.geometries()
    props = g.properties(ILLUSTRATION)
    assert not props.has_property("phong", "diffuse_map")
    assert props.has_property("phong", "diffuse")
    assert "absent.png" in str(error)


def test_modes_urdf_gltf_with_a_missing_buffer_is_left_out_for_contact(write, tmp_path):
    (tmp_path / "part.gltf").write_text('{"asset": {"version": "2.0"}, '
                                        '"buffers": [{"uri": "part.bin", "byteLength": 1}]}')
    path = write("m.urdf", urdf('<collision><geometry><mesh filename="part.gltf"/></geometry>'
                                '</collision>'))
    parsed, error = both(path)
    assert parsed.geometries() == [] and "part.bin" in str(error)


def test_modes_a_file_drake_parses_gives_the_same_model_in_both_modes(write, tmp_path):
    trimesh.creation.box().export(tmp_path / "part.obj")
    path = write("m.urdf", urdf('<collision><geometry><mesh filename="part.obj"/></geometry>'
                                '</collision><visual><geometry><mesh filename="part.obj"/>'
                                '</geometry></visual>'))
    default = parse_file(path)
    drake = parse_file(path, like_drake=True)
    default.plant.finalize()
    drake.plant.finalize()
    assert summarize(default.plant, default.parser, default.instances) == \
        summarize(drake.plant, drake.parser, drake.instances)
    assert default.parser.diagnostic_policy().warnings_seen == []


def test_modes_sdf_missing_mesh_is_left_out_by_default(write):
    text = sdf('<visual name="v"><geometry><mesh><uri>absent.stl</uri></mesh></geometry>'
               '</visual>\n<collision name="c"><geometry><mesh><uri>absent.stl</uri></mesh>'
               '</geometry></collision>')
    path = write("m.sdf", text)
    parsed, error = both(path)
    assert parsed.geometries() == [] and parsed.plant.num_bodies() == 2
    warnings = parsed.parser.diagnostic_policy().warnings_seen
    assert [w.line for w in warnings] == [5, 6] and all("absent.stl" in w.message
                                                        for w in warnings)
    assert "absent.stl" in str(error)


def test_modes_sdf_stl_collision_mesh_loads_by_default(write, tmp_path):
    box_stl(tmp_path / "part.stl")
    path = write("m.sdf", sdf('<collision name="c"><geometry><mesh><uri>part.stl</uri></mesh>'
                              '</geometry></collision>'))
    parsed, error = both(path)
    (g,) = parsed.geometries()
    assert g.shape.extension() == ".stl" and ".stl" in str(error)


def test_modes_sdf_automatic_inertia_of_an_stl_mesh_is_computed_by_default(write, tmp_path):
    box_stl(tmp_path / "part.stl")
    path = write("m.sdf", sdf('<inertial auto="true"/><collision name="c"><density>2</density>'
                              '<geometry><mesh><uri>part.stl</uri><scale>1 1 2</scale></mesh>'
                              '</geometry></collision>'))
    parsed, error = both(path)
    body = parsed.plant.get_body_by_name("a", parsed.instance)
    assert body.mass == pytest.approx(2.0 * 1 * 2 * 6)
    assert ".stl" in str(error)


def test_modes_sdf_automatic_inertia_of_a_degenerate_mesh_is_a_located_error(write, tmp_path):
    text = sdf('<inertial auto="true"/><collision name="c"><density>2</density>'
               '<geometry><mesh><uri>flat.obj</uri></mesh></geometry></collision>')
    (tmp_path / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    path = write("m.sdf", text)
    with pytest.raises(ParseError) as info:
        parse_file(path)
    assert f"{path}:{line_of(text, '<mesh')}:" in str(info.value)


def test_modes_meshes_are_not_read_when_no_result_needs_them(write, tmp_path):
    # An unreadable STL loads: a URDF's meshes are read only for a hull, an
    # inertia or the viewer, never for the model itself.
    (tmp_path / "junk.stl").write_bytes(b"\x00not a mesh")
    path = write("m.urdf", urdf('<collision><geometry><mesh filename="junk.stl"/></geometry>'
                                '</collision>'))
    (g,) = parse_file(path).geometries()
    from mbparse.geometry.meshes import MeshReadError
    with pytest.raises(MeshReadError):
        shape_triangles(g.shape)


def test_modes_importing_and_loading_a_urdf_does_not_import_the_mesh_libraries(write, tmp_path):
    import subprocess
    import sys
    box_stl(tmp_path / "part.stl")
    path = write("m.urdf", urdf('<collision><geometry><mesh filename="part.stl"/></geometry>'
                                '</collision>'))
    code = ("import sys, warnings; warnings.simplefilter('ignore');"
            "from mbparse.loading import LoadOptions, load;"
            f"load({str(path)!r}, LoadOptions());"
            "print(sorted(m for m in ('trimesh', 'collada', 'scipy', 'xacro') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
