"""The library and the command line load the same model (issue 29, item 6):
Parser.add_models adds the packages whose package.xml stands above the model,
as every mbparse command does (tiago: 53 geometries through the API, 129
through the CLI); a package the map already has keeps its folder, and
set_package_discovery(False) is Drake's Parser, which finds packages only in
its package map."""
from __future__ import annotations

import json
import warnings

import pytest

from mbparse import MultibodyPlant, Parser, SceneGraph
from mbparse.cli import main

OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
MESH = '<mesh filename="package://my_robot/meshes/box.obj"/>'


@pytest.fixture
def model(tmp_path):
    """A package named my_robot in a folder of another name (so the search
    by folder name does not find it), its URDF two folders below."""
    pkg = tmp_path / "src" / "robot_pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "meshes").mkdir()
    (pkg / "meshes" / "box.obj").write_text(OBJ)
    (pkg / "package.xml").write_text('<package format="2"><name>my_robot</name></package>')
    urdf = pkg / "urdf" / "r.urdf"
    urdf.write_text(f'<robot name="r"><link name="a"><visual><geometry>{MESH}</geometry>'
                    f'</visual><collision><geometry>{MESH}</geometry></collision></link></robot>')
    return urdf


def api_geometries(path, discovery=True, packages=()):
    plant, sg = MultibodyPlant(0.001), SceneGraph()
    parser = Parser(plant, sg)
    parser.set_package_discovery(discovery)
    for name, folder in packages:
        parser.package_map().add(name, str(folder))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        parser.add_models(path)
    plant.finalize()
    return sg.num_geometries(), [str(x.message) for x in w], parser


def test_the_api_and_the_cli_load_the_same_geometries(model, capsys):
    count, said, parser = api_geometries(model)
    assert count == 2 and not said
    assert parser.package_map().get_path("my_robot") == str(model.parent.parent)
    assert main(["inspect", "--json", str(model)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert len(summary["geometries"]) == count


def test_without_discovery_the_parser_is_drakes(model):
    parser = Parser(MultibodyPlant(0.0))
    assert parser.get_package_discovery()
    count, said, _ = api_geometries(model, discovery=False)
    assert count == 0
    assert any("package 'my_robot', which the package map does not have" in m for m in said)


def test_a_package_already_in_the_map_keeps_its_folder(model, tmp_path):
    other = tmp_path / "elsewhere"
    (other / "meshes").mkdir(parents=True)
    (other / "meshes" / "box.obj").write_text(OBJ)
    count, _, parser = api_geometries(model, packages=[("my_robot", other)])
    assert count == 2 and parser.package_map().get_path("my_robot") == str(other)


def test_an_unreadable_package_xml_above_is_said_and_the_model_loads(model):
    (model.parent / "package.xml").write_text("<package><name></name></package>")
    count, said, _ = api_geometries(model)
    assert count == 2
    assert any("has no <name>" in m and "is ignored" in m for m in said)


def _stamp(path, seconds_ago: float) -> None:
    """Gives ``path`` a modification time ``seconds_ago`` in the past (a
    manifest modified within the last seconds is never remembered)."""
    import os
    import time

    ns = time.time_ns() - int(seconds_ago * 1e9)
    os.utime(path, ns=(ns, ns))


def test_a_changed_package_xml_is_read_again(model):
    """Manifests are remembered between loads (every load looks at those above
    its file), by the file's identity: a manifest rewritten since names its
    new package, and one that became unreadable is said."""
    manifest = model.parent.parent / "package.xml"
    _stamp(manifest, 100)
    assert api_geometries(model)[2].package_map().contains("my_robot")
    manifest.write_text('<package format="2"><name>renamed_robot</name></package>')
    _stamp(manifest, 50)
    count, said, parser = api_geometries(model)
    assert parser.package_map().contains("renamed_robot")
    assert not parser.package_map().contains("my_robot")
    assert count == 0 and any("'my_robot', which the package map does not have" in m
                              for m in said)
    manifest.write_text("<package><name></name></package>")
    _stamp(manifest, 40)
    _, said, parser = api_geometries(model)
    assert parser.package_map().size() == 0
    assert any("has no <name>" in m and "is ignored" in m for m in said)


def _rewrite_in_place(path, data: bytes) -> None:
    with open(path, "r+b") as f:  # (the inode is kept)
        f.write(data)


def test_a_package_xml_fixed_in_place_is_read_again(model):
    """A manifest with a fault is remembered with its fault; once fixed in
    place (same path, size and inode, a millisecond later) it is read again."""
    manifest = model.parent.parent / "package.xml"
    good = manifest.read_bytes()
    bad = good.replace(b"<name>", b"<nome>").replace(b"</name>", b"</nome>")
    assert len(bad) == len(good)
    _rewrite_in_place(manifest, bad)
    _stamp(manifest, 100)
    _, said, parser = api_geometries(model)
    assert any("has no <name>" in m for m in said)
    _rewrite_in_place(manifest, good)
    _stamp(manifest, 99.999)
    count, said, parser = api_geometries(model)
    assert count == 2 and not said and parser.package_map().contains("my_robot")


def test_a_package_xml_rewritten_within_one_clock_tick_is_read_again(model):
    """A file system stamps times with a coarse clock: a manifest rewritten in
    place at the same size within one tick keeps its whole identity. A
    manifest modified in the last seconds is therefore read at every load."""
    import os

    manifest = model.parent.parent / "package.xml"
    good = manifest.read_bytes()
    other = good.replace(b"my_robot", b"my_other")
    stamp = os.stat(manifest).st_mtime_ns
    assert api_geometries(model)[2].package_map().contains("my_robot")
    _rewrite_in_place(manifest, other)
    os.utime(manifest, ns=(stamp, stamp))  # (the same tick)
    assert api_geometries(model)[2].package_map().contains("my_other")


def test_a_dangling_package_xml_link_above_is_said(model):
    """A package.xml that is a link to nothing is a manifest that cannot be
    read (said), not a folder without one."""
    import os

    os.symlink(model.parent / "missing.xml", model.parent / "package.xml")
    count, said, _ = api_geometries(model)
    assert count == 2
    assert any("package.xml" in m and "No such file" in m and "is ignored" in m for m in said)


# ---- the folders are looked at when the map is asked (issue 30: a load that
# names no package outside the map does not pay for the look)

def _manifest_looks(monkeypatch):
    """A list that grows by one for each package.xml path the discovery asks
    the file system about."""
    import mbparse.package_map as pm_module

    looks = []
    real = pm_module.os.access

    def access(path, *args, **kwargs):
        if str(path).endswith("package.xml"):
            looks.append(path)
        return real(path, *args, **kwargs)
    monkeypatch.setattr(pm_module.os, "access", access)
    return looks


def test_a_model_that_names_no_package_does_not_look_above(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "package.xml").write_text('<package format="2"><name>mine</name></package>')
    model = pkg / "urdf" / "r.urdf"
    model.write_text('<robot name="r"><link name="a"/></robot>')
    looks = _manifest_looks(monkeypatch)
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models(str(model))
    assert looks == []
    # Asked what it holds, the map looks, and holds what the folders name.
    assert parser.package_map().get_package_names() == ["mine"]
    assert str(pkg / "urdf" / "package.xml") in looks
    assert parser.package_map().get_path("mine") == str(pkg)


def test_a_package_in_the_map_is_resolved_without_looking_above(model, tmp_path, monkeypatch):
    other = tmp_path / "elsewhere"
    (other / "meshes").mkdir(parents=True)
    (other / "meshes" / "box.obj").write_text(OBJ)
    looks = _manifest_looks(monkeypatch)
    count, _, parser = api_geometries(model, packages=[("my_robot", other)])
    assert count == 2 and looks == []
    assert parser.package_map().get_path("my_robot") == str(other)  # (a hit: still no look)
    assert looks == []
    assert parser.package_map().size() == 1  # the folders name my_robot too: it keeps its folder
    assert looks and parser.package_map().get_path("my_robot") == str(other)


def test_discoveries_put_off_are_done_in_load_order(tmp_path):
    """Two models under manifests of the same name: the first file loaded
    gives the package its folder, as when each load looked at once."""
    folders = []
    for which in ("a", "b"):
        folder = tmp_path / which
        folder.mkdir()
        (folder / "package.xml").write_text('<package format="2"><name>same</name></package>')
        (folder / "r.urdf").write_text(f'<robot name="{which}"><link name="l"/></robot>')
        folders.append(folder)
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models(str(folders[1] / "r.urdf"))
    parser.add_models(str(folders[0] / "r.urdf"))
    assert parser.package_map().get_path("same") == str(folders[1])


def test_a_change_to_the_map_after_a_load_meets_what_the_load_found(model, tmp_path):
    """add() after add_models is checked against the packages the load's
    folders name, as when the load looked at once."""
    from mbparse.package_map import PackageMapError

    other = tmp_path / "elsewhere"
    other.mkdir()
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models(str(model))
    with pytest.raises(PackageMapError, match="already contains package 'my_robot'"):
        parser.package_map().add("my_robot", str(other))


def test_without_discovery_nothing_is_put_off(model, monkeypatch):
    looks = _manifest_looks(monkeypatch)
    parser = Parser(MultibodyPlant(0.0))
    parser.set_package_discovery(False)
    parser.add_models(str(model))
    assert parser.package_map().size() == 0 and looks == []


def test_a_parser_whose_discovery_is_put_off_is_freed_when_dropped(model):
    """What the map keeps until it looks holds no reference to the parser:
    a parser and its plant are freed as soon as they are dropped, without
    waiting for Python's cyclic collector."""
    import gc
    import weakref

    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    parser.add_models(str(model))
    gone = weakref.ref(plant), weakref.ref(parser)
    was = gc.isenabled()
    gc.disable()
    try:
        del plant, parser
        assert [ref() for ref in gone] == [None, None]
    finally:
        if was:
            gc.enable()


def test_a_relative_path_is_looked_above_from_where_it_was_loaded(model, tmp_path, monkeypatch):
    """The folder is fixed when the file is loaded: a change of working
    folder before the map looks does not move it."""
    monkeypatch.chdir(model.parent)
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models("r.urdf")
    monkeypatch.chdir(tmp_path)
    assert parser.package_map().get_path("my_robot") == str(model.parent.parent)


def test_a_repr_does_not_look_at_folders(model, monkeypatch):
    looks = _manifest_looks(monkeypatch)
    parser = Parser(MultibodyPlant(0.0))
    parser.add_models(str(model))
    assert "0 packages" in repr(parser)
    assert "1 folder(s) not looked at yet" in repr(parser.package_map())
    assert looks == []
