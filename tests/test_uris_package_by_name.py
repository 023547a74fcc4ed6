"""A package:// URI whose package the map does not have is looked for, in
the default mode, in a folder of that name above the model (as pybullet and
yourdfpy do), with one warning per package; Drake's mode refuses it."""
from __future__ import annotations

import pytest

from conftest import load_scene_graph
from mbparse.diagnostics import ParseError, ParseWarning
from mbparse.formats.common.uris import package_folder_above

OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"


def _robot(tmp_path, uris):
    """robosuite's layout: <pkg>/urdf/r.urdf naming package://<pkg>/meshes/..."""
    pkg = tmp_path / "arm_description"
    (pkg / "meshes").mkdir(parents=True)
    (pkg / "urdf").mkdir()
    (pkg / "meshes" / "a.obj").write_text(OBJ)
    (pkg / "meshes" / "b.obj").write_text(OBJ)
    visuals = "".join(f'<visual><geometry><mesh filename="{u}"/></geometry></visual>' for u in uris)
    urdf = pkg / "urdf" / "r.urdf"
    urdf.write_text(f'<robot name="r"><link name="a">{visuals}</link></robot>')
    return urdf


def test_unknown_package_is_found_by_name_above_the_model_with_one_warning(tmp_path):
    urdf = _robot(tmp_path, ["package://arm_description/meshes/a.obj",
                             "package://arm_description/meshes/b.obj"])
    with pytest.warns(ParseWarning, match="package 'arm_description' is not in the package map") as w:
        sg = load_scene_graph(urdf)
    by_name = [x for x in w if "package-found-by-name" == getattr(x.message, "diagnostic", None).code]
    assert len(by_name) == 1
    files = sorted(g.shape.filename for g in sg.geometries() if hasattr(g.shape, "filename"))
    assert files == [str(tmp_path / "arm_description" / "meshes" / n) for n in ("a.obj", "b.obj")]


def test_drake_mode_still_refuses_an_unknown_package(tmp_path):
    urdf = _robot(tmp_path, ["package://arm_description/meshes/a.obj"])
    with pytest.raises(ParseError, match="package map does not have"):
        load_scene_graph(urdf, like_drake=True)


def test_a_file_missing_from_the_folder_found_by_name_is_still_unknown(tmp_path):
    urdf = _robot(tmp_path, ["package://arm_description/meshes/none.obj"])
    with pytest.warns(ParseWarning, match="package map does not have"):
        sg = load_scene_graph(urdf)
    assert not [g for g in sg.geometries() if hasattr(g.shape, "filename")]


def test_a_path_climbing_out_of_the_folder_found_by_name_is_not_read(tmp_path):
    (tmp_path / "secret.obj").write_text(OBJ)
    urdf = _robot(tmp_path, ["package://arm_description/../secret.obj"])
    with pytest.warns(ParseWarning, match="package map does not have"):
        sg = load_scene_graph(urdf)
    assert not [g for g in sg.geometries() if hasattr(g.shape, "filename")]


def test_package_folder_is_found_as_an_ancestor_or_beside_one(tmp_path):
    (tmp_path / "a" / "pkg" / "urdf").mkdir(parents=True)
    (tmp_path / "b" / "pkg").mkdir(parents=True)
    (tmp_path / "b" / "deep" / "er").mkdir(parents=True)
    assert package_folder_above("pkg", str(tmp_path / "a" / "pkg" / "urdf")) == str(tmp_path / "a" / "pkg")
    assert package_folder_above("pkg", str(tmp_path / "b" / "deep" / "er")) == str(tmp_path / "b" / "pkg")
    assert package_folder_above("..", str(tmp_path)) is None
    assert package_folder_above("nowhere_at_all", str(tmp_path)) is None


def test_sdformat_meshes_find_their_package_by_name_too(tmp_path):
    _robot(tmp_path, [])
    sdf = tmp_path / "arm_description" / "urdf" / "m.sdf"
    sdf.write_text('<sdf version="1.9"><model name="m"><link name="a"><visual name="v"><geometry>'
                   '<mesh><uri>package://arm_description/meshes/a.obj</uri></mesh></geometry>'
                   '</visual></link></model></sdf>')
    with pytest.warns(ParseWarning, match="package-found-by-name|reads its files from the folder"):
        sg = load_scene_graph(sdf)
    assert [g.shape.filename for g in sg.geometries() if hasattr(g.shape, "filename")] == [
        str(tmp_path / "arm_description" / "meshes" / "a.obj")]


def test_each_file_is_checked_though_the_package_folder_is_found_once(tmp_path):
    urdf = _robot(tmp_path, ["package://arm_description/meshes/a.obj",
                             "package://arm_description/meshes/none.obj",
                             "package://arm_description/meshes/b.obj"])
    with pytest.warns(ParseWarning) as w:
        sg = load_scene_graph(urdf)
    texts = [str(x.message) for x in w]
    assert sum("package-found-by-name" == x.message.diagnostic.code for x in w) == 1
    assert any("none.obj" in t and "package map does not have" in t for t in texts)
    files = sorted(g.shape.filename for g in sg.geometries() if hasattr(g.shape, "filename"))
    assert files == [str(tmp_path / "arm_description" / "meshes" / n) for n in ("a.obj", "b.obj")]
