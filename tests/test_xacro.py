"""xacro files (.xacro, .urdf.xacro) are expanded with the xacro package
and read as URDF: macros, properties, $(find) through the package map,
includes; a diagnostic about the expanded URDF names the xacro file and the
line that produced the element; a xacro error is a located ParseError."""
from __future__ import annotations

import pytest

from conftest import line_of, new_parser
from mbparse import ParseError

pytest.importorskip("xacro")

NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
INERTIA = '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
PARTS = f"""<?xml version="1.0"?>
<robot {NS}>
  <xacro:macro name="arm_link" params="name mass">
    <link name="${{name}}">
      <inertial><mass value="${{mass}}"/>{INERTIA}</inertial>
    </link>
  </xacro:macro>
</robot>
"""


def robot(body: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="arm" {NS}>\n{body}\n</robot>\n'


def load(path, packages=(), like_drake=False):
    parser = new_parser(like_drake=like_drake)
    for name, folder in packages:
        parser.package_map().add(name, str(folder))
    instances = parser.add_models(path)
    return parser.plant(), instances, parser


@pytest.fixture
def pkg(tmp_path):
    """A package 'parts' with the macro file and a mesh."""
    folder = tmp_path / "parts"
    (folder / "urdf").mkdir(parents=True)
    (folder / "urdf" / "parts.xacro").write_text(PARTS)
    (folder / "meshes").mkdir()
    (folder / "meshes" / "box.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    return folder


ARM = """  <xacro:property name="base_mass" value="2.5"/>
  <xacro:include filename="$(find parts)/urdf/parts.xacro"/>
  <xacro:arm_link name="base" mass="${base_mass}"/>
  <xacro:arm_link name="tip" mass="${base_mass * 2}"/>
  <joint name="elbow" type="revolute">
    <parent link="base"/><child link="tip"/>
    <axis xyz="0 0 1"/><limit lower="LOWER" upper="1" effort="1" velocity="1"/>
  </joint>
  <link name="shell">
    <visual><geometry><mesh filename="package://parts/meshes/box.obj"/></geometry></visual>
  </link>
  <joint name="weld" type="fixed"><parent link="tip"/><child link="shell"/></joint>"""


@pytest.mark.parametrize("name", ["arm.urdf.xacro", "arm.xacro"])
def test_xacro_macro_property_find_and_include_expand_into_the_model(write, pkg, name):
    path = write(name, robot(ARM.replace("LOWER", "-1")))
    plant, (instance,), _ = load(path, [("parts", pkg)])
    assert plant.get_model_instance_name(instance) == "arm"
    assert plant.get_body_by_name("base", instance).mass == 2.5
    assert plant.get_body_by_name("tip", instance).mass == 5.0
    assert plant.get_joint_by_name("elbow", instance).pos_lower == [-1.0]
    (g,) = plant.scene_graph.geometries()
    assert g.shape.filename == str(pkg / "meshes" / "box.obj")


def test_xacro_diagnostic_names_the_xacro_line_that_made_the_element(write, pkg):
    text = robot(ARM.replace("LOWER", "2"))
    path = write("arm.urdf.xacro", text)
    # Inverted limits: Drake refuses them (the default mode leaves the joint
    # unlimited with a warning at the same place, as pybullet reads them).
    with pytest.raises(ParseError) as info:
        load(path, [("parts", pkg)], like_drake=True)
    d = info.value.diagnostic
    assert (d.file, d.line) == (str(path), line_of(text, '<joint name="elbow"'))
    *_, parser = load(path, [("parts", pkg)])
    located = [(w.file, w.line) for w in parser.diagnostic_policy().warnings_seen
               if w.code == "limit-inverted"]
    assert located == [(str(path), line_of(text, '<joint name="elbow"'))]


def test_xacro_diagnostic_inside_a_macro_names_the_macro_body_line(write, pkg):
    (pkg / "urdf" / "parts.xacro").write_text(PARTS.replace('"${mass}"', '"${mass} ${mass}"'))
    path = write("arm.urdf.xacro", robot(ARM.replace("LOWER", "-1")))
    with pytest.raises(ParseError) as info:
        load(path, [("parts", pkg)])
    d = info.value.diagnostic
    assert d.file == str(pkg / "urdf" / "parts.xacro")
    assert d.line in (line_of(PARTS, '<link name="${name}">'), line_of(PARTS, "<mass"))


def test_xacro_find_of_a_package_the_map_lacks_is_a_located_error(write):
    text = robot(ARM.replace("LOWER", "-1"))
    path = write("arm.urdf.xacro", text)
    with pytest.raises(ParseError, match="'parts' is not in the package map") as info:
        load(path)
    d = info.value.diagnostic
    assert d.code == "xacro-error" and d.file == str(path)
    assert d.line == line_of(text, "$(find parts)")


def test_xacro_include_of_a_package_uri_is_a_located_error_that_names_find(write, pkg):
    # example-robot-data's hector quadrotor_base.xacro: xacro (ROS 1, ROS 2, PyPI) joins a
    # package:// include filename to the folder, so the file is not found; the package map
    # holds 'parts', but mbparse expands as xacro does and says what to write instead
    text = robot(ARM.replace("LOWER", "-1").replace("$(find parts)", "package://parts"))
    path = write("arm.urdf.xacro", text)
    for like_drake in (False, True):
        with pytest.raises(ParseError, match=r"the included file 'package://parts/urdf/parts."
                                             r"xacro' is not found.*write filename=\"\$\(find "
                                             r"parts\)/urdf/parts.xacro\"") as info:
            load(path, [("parts", pkg)], like_drake=like_drake)
        d = info.value.diagnostic
        assert d.code == "xacro-error" and d.file == str(path)
        assert d.line == line_of(text, "package://parts/urdf")


def test_xacro_property_without_the_prefix_is_named_in_the_undefined_name_error(write, pkg):
    # rtb-data's kr210l150_macro.xacro: <property name="deg"> (no xacro: prefix), which
    # xacro reads no more since 1.14 (ROS Noetic); the error points at that line
    macros = PARTS.replace('<xacro:macro', '<property name="scale" value="2"/>\n  <xacro:macro')
    (pkg / "urdf" / "parts.xacro").write_text(macros.replace('"${mass}"', '"${mass * scale}"'))
    path = write("arm.urdf.xacro", robot(ARM.replace("LOWER", "-1")))
    with pytest.raises(ParseError, match=r"name 'scale' is not defined.*'scale' is defined here "
                                         r"by <property> without the 'xacro:' prefix.*write "
                                         r"<xacro:property name=\"scale\"") as info:
        load(path, [("parts", pkg)])
    d = info.value.diagnostic
    assert (d.file, d.line) == (str(pkg / "urdf" / "parts.xacro"),
                                line_of(macros, '<property name="scale"'))
    assert "\n" not in d.message


def test_xacro_find_of_a_package_given_by_a_relative_folder(write, pkg, monkeypatch):
    # --package parts=. from inside the package, the xacro file elsewhere
    monkeypatch.chdir(pkg)
    path = write("arm.urdf.xacro", robot(ARM.replace("LOWER", "-1")))
    plant, (instance,), _ = load(path, [("parts", ".")])
    assert plant.get_body_by_name("tip", instance).mass == 5.0


def test_xacro_undefined_property_is_a_located_error(write):
    text = robot(f'<link name="a"><inertial><mass value="${{nowhere}}"/>{INERTIA}</inertial>'
                 '</link>')
    path = write("a.xacro", text)
    with pytest.raises(ParseError, match="nowhere") as info:
        load(path)
    assert info.value.diagnostic.line == line_of(text, "nowhere")
    assert info.value.diagnostic.code == "xacro-error"


def test_xacro_malformed_xml_is_a_located_error(write):
    path = write("a.xacro", '<robot name="r">\n<link name="a">\n</robot>\n')
    with pytest.raises(ParseError) as info:
        load(path)
    assert info.value.diagnostic.file == str(path) and info.value.diagnostic.line == 3


def test_xacro_missing_mesh_in_the_expansion_follows_the_modes(write, pkg):
    text = robot(ARM.replace("LOWER", "-1").replace("box.obj", "absent.obj"))
    path = write("arm.urdf.xacro", text)
    plant, _, parser = load(path, [("parts", pkg)])
    (w,) = [w for w in parser.diagnostic_policy().warnings_seen if "absent.obj" in w.message]
    assert (w.file, w.line) == (str(path), line_of(text, "<mesh"))
    with pytest.raises(ParseError, match="absent.obj"):
        load(path, [("parts", pkg)], like_drake=True)


def test_xacro_warnings_become_parse_warnings(write):
    # 'len' shadows a symbol xacro defines; xacro warns about it.
    path = write("a.xacro", robot('<xacro:property name="len" value="1"/>\n<link name="a"/>'))
    _, _, parser = load(path)
    assert any("len" in w.message and w.code == "xacro-warning"
               for w in parser.diagnostic_policy().warnings_seen)


def test_xacro_model_elements_record_their_xacro_source(write, pkg):
    text = robot(ARM.replace("LOWER", "-1"))
    path = write("arm.urdf.xacro", text)
    plant, (instance,), _ = load(path, [("parts", pkg)])
    assert plant.get_joint_by_name("elbow", instance).source == \
        (str(path), line_of(text, '<joint name="elbow"'))
    (g,) = plant.scene_graph.geometries()
    assert g.instance.source == (str(path), line_of(text, "<visual>"))


# -- hostile xacro: the expansion runs in a child process under limits

@pytest.mark.parametrize("target", ["/dev/zero", "FIFO"])
def test_xacro_include_of_a_device_or_fifo_is_refused_not_read_forever(write, tmp_path, target):
    import os
    if target == "FIFO":
        target = str(tmp_path / "parts.xacro")
        os.mkfifo(target)
    path = write("a.xacro", robot(f'<xacro:include filename="{target}"/>\n<link name="a"/>'))
    with pytest.raises(ParseError, match="not a regular file") as info:
        load(path)
    assert info.value.diagnostic.code == "xacro-error"


def test_xacro_load_yaml_of_a_device_is_refused(write):
    path = write("a.xacro", robot(
        '<xacro:property name="p" value="${xacro.load_yaml(\'/dev/zero\')}"/>\n'
        '<link name="${p}"/>'))
    with pytest.raises(ParseError, match="not a regular file"):
        load(path)


def test_xacro_expression_that_needs_unbounded_memory_is_a_located_error(write):
    path = write("a.xacro", robot('<link name="${\'a\' * 10**10}"/>'))
    with pytest.raises(ParseError, match="more than 1024 MB of memory") as info:
        load(path)
    assert info.value.diagnostic.file == str(path)


def test_xacro_expansion_that_never_ends_is_stopped_by_its_cpu_limit(write):
    # 10**(10**10) is one multiplication Python cannot interrupt: only the
    # child's CPU-time limit ends it.
    path = write("a.xacro", robot('<link name="${10**10**10}"/>'))
    # On a loaded machine the wall-clock limit (2 x the CPU limit) may come first.
    with pytest.raises(ParseError, match="more than 4 s of CPU time|did not finish within") as info:
        load(path)
    assert info.value.diagnostic.code == "xacro-error"
    assert info.value.diagnostic.file == str(path)


def test_xacro_python_escape_is_refused_by_xacro(write, tmp_path):
    marker = tmp_path / "escaped"
    path = write("a.xacro", robot(
        f'<link name="${{__import__(\'os\').system(\'touch {marker}\')}}"/>'))
    with pytest.raises(ParseError, match="invalid name"):
        load(path)
    assert not marker.exists()


def test_xacro_file_that_includes_itself_is_named_not_a_bare_recursion_error(write):
    path = write("a.urdf.xacro", robot('<xacro:include filename="a.urdf.xacro"/>\n<link name="a"/>'))
    with pytest.raises(ParseError, match="'a.urdf.xacro' includes itself") as info:
        load(path)
    assert info.value.diagnostic.code == "xacro-error"
    assert "recursion" not in str(info.value)


def test_xacro_macro_that_calls_itself_without_end_names_the_nesting_limit(write):
    path = write("a.xacro", robot(
        '<xacro:macro name="m" params="n"><link name="l${n}"/><xacro:m n="${n+1}"/></xacro:macro>\n'
        '<xacro:m n="0"/>'))
    with pytest.raises(ParseError, match=r"macros are nested more than about \d+ deep") as info:
        load(path)
    assert "calls itself" in str(info.value)


def test_xacro_macros_nested_300_deep_expand(write):
    # (xacro's own program stops near 330 levels; the expansion goes as deep)
    macros = ['<xacro:macro name="m0" params=""><link name="a"/></xacro:macro>']
    macros += [f'<xacro:macro name="m{i}" params=""><xacro:m{i - 1}/></xacro:macro>'
               for i in range(1, 300)]
    path = write("a.xacro", robot("\n".join(macros) + "\n<xacro:m299/>"))
    plant, _, _ = load(path)
    assert plant.has_body_named("a")
