"""``file://meshes/a.obj``: a relative path written as a file URI (gym-ignition's
iCub and Panda, the Gazebo and pybullet habit). The default mode reads it from
the model's folder, as Gazebo, pybullet and yourdfpy do, with a located
warning; Drake's mode reads it as Drake's ResolveUri does (the first folder
taken for the URI's host and dropped) and refuses the missing file."""
from __future__ import annotations

import warnings

import pytest

from conftest import load_scene_graph
from mbparse.diagnostics import ParseError, ParseWarning

OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def _model(tmp_path, name, text):
    (tmp_path / "meshes" / "visual").mkdir(parents=True)
    (tmp_path / "meshes" / "visual" / "link0.obj").write_text(OBJ)
    path = tmp_path / name
    path.write_text(text)
    return path


URDF = ('<robot name="r"><link name="a">'
        '<visual><geometry><mesh filename="file://meshes/visual/link0.obj"/></geometry></visual>'
        '<collision><geometry><mesh filename="file://meshes/visual/link0.obj"/></geometry>'
        '</collision></link></robot>')
SDF = ('<sdf version="1.9"><model name="m"><link name="a"><visual name="v"><geometry><mesh>'
       '<uri>file://meshes/visual/link0.obj</uri></mesh></geometry></visual></link></model></sdf>')


@pytest.mark.parametrize("name,text,count", [("r.urdf", URDF, 2), ("m.sdf", SDF, 1)])
def test_a_relative_file_uri_is_read_from_the_models_folder(tmp_path, name, text, count):
    path = _model(tmp_path, name, text)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        sg = load_scene_graph(path)
    files = [g.shape.filename for g in sg.geometries()]
    assert files == [str(tmp_path / "meshes" / "visual" / "link0.obj")] * count
    relative = [x.message for x in w if x.message.diagnostic.code == "file-uri-relative"]
    assert len(relative) == 1  # once per URI and file
    assert relative[0].diagnostic.line == 1
    assert "'/visual/link0.obj'" in str(relative[0])  # what Drake looks for


@pytest.mark.parametrize("name,text", [("r.urdf", URDF), ("m.sdf", SDF)])
def test_drake_mode_reads_the_host_away_and_refuses(tmp_path, name, text):
    path = _model(tmp_path, name, text)
    with pytest.raises(ParseError, match="names '/visual/link0.obj', which does not exist"):
        load_scene_graph(path, like_drake=True)


def test_a_relative_file_uri_naming_nothing_is_still_missing(tmp_path):
    path = _model(tmp_path, "r.urdf", URDF.replace("link0.obj", "none.obj"))
    with pytest.warns(ParseWarning, match="names '/visual/none.obj', which does not exist"):
        sg = load_scene_graph(path)
    assert not list(sg.geometries())


def test_an_absolute_file_uri_is_unchanged(tmp_path):
    path = _model(tmp_path, "r.urdf", URDF.replace(
        "file://meshes", f"file://{tmp_path}/meshes"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sg = load_scene_graph(path)
    assert len(list(sg.geometries())) == 2
