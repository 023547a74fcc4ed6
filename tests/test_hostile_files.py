"""Files a model names: only regular files are read, package:// paths stay in
their package, a folder with a symlink loop can be given to the package map,
and text that is no Unicode is a located error."""
from __future__ import annotations

import os

import pytest

from mbparse import MultibodyPlant, PackageMap, Parser
from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions, load


def test_an_sdf_include_of_dev_zero_is_refused_at_the_include(write):
    path = write("m.sdf", '<sdf version="1.9"><model name="a"><link name="l"/>\n'
                          '<include><uri>file:///dev/zero</uri></include></model></sdf>')
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    assert d.code == "file-not-regular" and d.line == 2 and "/dev/zero" in d.message


def test_a_dmd_add_model_of_a_fifo_is_refused(write, tmp_path):
    fifo = tmp_path / "pipe.sdf"
    os.mkfifo(fifo)
    path = write("d.dmd.yaml", f"directives:\n- add_model:\n    name: a\n    file: file://{fifo}\n")
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.code == "file-not-regular" and info.value.diagnostic.line == 2


def test_an_mjcf_mesh_that_is_a_fifo_is_refused_not_read(write, tmp_path):
    os.mkfifo(tmp_path / "pipe.obj")
    path = write("m.xml", '<mujoco model="m"><asset><mesh name="p" file="pipe.obj"/></asset>'
                          '<worldbody><body name="b"><joint type="hinge"/>'
                          '<geom type="mesh" mesh="p"/></body></worldbody></mujoco>')
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert "pipe.obj" in str(info.value) and info.value.diagnostic.line == 1


def test_read_regular_file_refuses_a_device():
    from mbparse.files import NotRegularFileError, read_regular_file
    with pytest.raises(NotRegularFileError, match="device"):
        read_regular_file("/dev/zero")


def test_a_package_path_that_climbs_out_of_its_package_is_refused(write):
    write("pkg/package.xml", "<package><name>pkg</name></package>")
    path = write("pkg/m.sdf", '<sdf version="1.9"><model name="a"><link name="l"/><include>'
                              '<uri>package://pkg/../../../../../etc/passwd</uri></include>'
                              '</model></sdf>')
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    assert d.code == "path-escapes-package" and "leaves its package" in d.message
    assert d.line == 1


def test_a_package_path_with_dots_that_stays_inside_resolves(write):
    write("pkg/package.xml", "<package><name>pkg</name></package>")
    write("pkg/sub/x.sdf", '<sdf version="1.9"><model name="x"><link name="l"/></model></sdf>')
    path = write("pkg/m.sdf", '<sdf version="1.9"><model name="a"><link name="l"/><include>'
                              '<uri>package://pkg/sub/../sub/x.sdf</uri></include></model></sdf>')
    assert load(str(path)).plant.num_bodies() == 3


def test_populate_from_folder_survives_a_symlink_loop(tmp_path):
    (tmp_path / "a" / "pkg").mkdir(parents=True)
    (tmp_path / "a" / "pkg" / "package.xml").write_text("<package><name>p</name></package>")
    os.symlink(tmp_path, tmp_path / "a" / "loop")
    pm = PackageMap()
    pm.populate_from_folder(str(tmp_path))
    assert pm.get_path("p") == str(tmp_path / "a" / "pkg")


def test_a_lone_surrogate_in_a_string_is_a_located_error():
    parser = Parser(MultibodyPlant(0.0))
    with pytest.raises(ParseError) as info:
        parser.add_models_from_string('<robot name="r">\n<link name="\ud800"/></robot>', "urdf")
    assert info.value.diagnostic.line == 2 and "surrogate" in str(info.value)


def test_a_gltf_whose_buffers_are_not_a_list_is_a_located_problem(write):
    write("m.gltf", '{"asset": {"version": "2.0"}, "buffers": 3}')
    write("n.gltf", '{"asset": {"version": "2.0"}, "buffers": [{"uri": 7}]}')
    for name in ("m.gltf", "n.gltf"):
        path = write("r.urdf", '<robot name="r"><link name="a"><collision><geometry>'
                               f'<mesh filename="{name}"/></geometry></collision></link></robot>')
        # Drake refuses such a collision mesh: a warning here, an error like Drake.
        assert any("malformed" in w.message for w in load(str(path), finalize=False).warnings)
        with pytest.raises(ParseError) as info:
            load(str(path), LoadOptions(like="drake"), finalize=False)
        assert "malformed" in str(info.value)


@pytest.mark.parametrize("kind", ["fifo", "folder", "no name", "entity bomb"])
def test_an_unreadable_package_xml_above_the_model_is_a_warning_not_silence(tmp_path, kind):
    pkg = tmp_path / "pkg"
    (pkg / "urdf").mkdir(parents=True)
    manifest = pkg / "package.xml"
    if kind == "fifo":
        os.mkfifo(manifest)
    elif kind == "folder":
        manifest.mkdir()
    elif kind == "no name":
        manifest.write_text("<package><name> </name></package>")
    else:
        entities = "".join(f'<!ENTITY e{i} "{f"&e{i - 1};" * 10 if i else "lol"}">'
                           for i in range(10))
        manifest.write_text(f'<!DOCTYPE package [{entities}]><package><name>&e9;</name></package>')
    model = pkg / "urdf" / "r.urdf"
    model.write_text('<robot name="r"><link name="a"/></robot>')
    loaded = load(str(model))
    assert loaded.plant.has_body_named("a")
    # The model asks for no package: the folders above are looked at when
    # the package map is asked what it holds, and the manifest is said then.
    assert not [w for w in loaded.warnings if w.code == "package-xml-unreadable"]
    assert loaded.parser.package_map().size() == 0
    said = loaded.parser.diagnostic_policy().warnings_seen
    hits = [w for w in said if w.code == "package-xml-unreadable"]
    assert len(hits) == 1 and hits[0].file == str(manifest)
    assert "ignored" in hits[0].message
    # The linter looks at them whatever the model asks for.
    from mbparse.lint import lint_file
    findings = [f for f in lint_file(str(model)) if f.rule == "package-xml-unreadable"]
    assert len(findings) == 1 and findings[0].file == str(manifest)


@pytest.mark.parametrize("call,arg", [("add_models", None), ("add_models", 123),
                                      ("add_models_from_url", None),
                                      ("add_models_from_url", b"file:///x.urdf")])
def test_a_wrong_argument_type_is_a_type_error_naming_the_call(call, arg):
    """Not an error from deep inside (os.fspath, a regular expression)."""
    with pytest.raises(TypeError, match=call):
        getattr(Parser(MultibodyPlant(0.0)), call)(arg)


def test_a_bytes_path_is_read_as_a_path(write):
    path = write("r.urdf", '<robot name="r"><link name="a"/></robot>')
    parser = Parser(MultibodyPlant(0.0))
    assert len(parser.add_models(os.fsencode(str(path)))) == 1
