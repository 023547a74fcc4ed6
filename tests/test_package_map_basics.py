"""PackageMap: explicit packages, package.xml manifests, crawling folders and
path-list environment variables, and URL resolution (never a network)."""
from __future__ import annotations

import os

import pytest

from mbparse import PackageMap
from mbparse.package_map import PackageMapError


def manifest(name: str) -> str:
    return f'<?xml version="1.0"?>\n<package format="2"><name>{name}</name></package>\n'


@pytest.fixture
def packages(write, tmp_path):
    """Two packages under tmp_path/ws, one nested in the other's subfolder."""
    write("ws/alpha/package.xml", manifest("alpha"))
    write("ws/alpha/meshes/part.obj", "v 0 0 0\n")
    write("ws/alpha/sub/beta/package.xml", manifest("beta"))
    write("ws/gamma/package.xml", manifest("gamma"))
    return tmp_path / "ws"


def test_package_map_add_contains_get_path(tmp_path):
    pm = PackageMap()
    assert not pm.contains("p")
    pm.add("p", str(tmp_path))
    assert pm.contains("p")
    assert pm.get_path("p") == str(tmp_path)
    assert pm.get_package_names() == ["p"]


def test_package_map_add_missing_folder_is_an_error(tmp_path):
    with pytest.raises(PackageMapError, match="does not exist"):
        PackageMap().add("p", str(tmp_path / "absent"))


def test_package_map_add_same_package_twice_at_same_place_is_fine(tmp_path):
    pm = PackageMap()
    pm.add("p", str(tmp_path))
    pm.add("p", str(tmp_path) + "/")
    assert pm.get_package_names() == ["p"]


def test_package_map_add_same_package_at_another_place_is_an_error(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    pm = PackageMap()
    pm.add("p", str(tmp_path / "a"))
    with pytest.raises(PackageMapError, match="already contains"):
        pm.add("p", str(tmp_path / "b"))


def test_package_map_get_path_of_unknown_package_is_an_error():
    with pytest.raises(PackageMapError, match="nope"):
        PackageMap().get_path("nope")


def test_package_map_remove(tmp_path):
    pm = PackageMap()
    pm.add("p", str(tmp_path))
    pm.remove("p")
    assert not pm.contains("p")
    with pytest.raises(PackageMapError):
        pm.remove("p")


def test_package_map_add_package_xml_uses_the_manifest_name(packages):
    pm = PackageMap()
    pm.add_package_xml(str(packages / "alpha" / "package.xml"))
    assert pm.get_package_names() == ["alpha"]
    assert os.path.samefile(pm.get_path("alpha"), packages / "alpha")


def test_package_map_add_package_xml_without_name_is_an_error(write):
    path = write("bad/package.xml", "<package></package>")
    with pytest.raises(PackageMapError, match="name"):
        PackageMap().add_package_xml(str(path))


def test_package_map_add_package_xml_malformed_is_an_error(write):
    path = write("bad/package.xml", "<package><name>x</name>")
    with pytest.raises(PackageMapError, match="parse"):
        PackageMap().add_package_xml(str(path))


def test_package_map_populate_from_folder_finds_nested_packages(packages):
    pm = PackageMap()
    pm.populate_from_folder(str(packages))
    assert pm.get_package_names() == ["alpha", "beta", "gamma"]
    assert os.path.samefile(pm.get_path("beta"), packages / "alpha" / "sub" / "beta")


def test_package_map_populate_from_environment_reads_a_path_list(packages, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("MY_PACKAGE_PATH", f"{packages / 'alpha'}:{packages / 'gamma'}")
    pm = PackageMap()
    pm.populate_from_environment("MY_PACKAGE_PATH")
    assert {"alpha", "gamma"} <= set(pm.get_package_names())


def test_package_map_ros_package_path_stops_at_a_package(packages, monkeypatch):
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{packages}::{packages / 'gamma'}")
    pm = PackageMap()
    pm.populate_from_environment("ROS_PACKAGE_PATH")
    # beta lies inside package alpha, so ROS-style crawling does not see it.
    assert pm.get_package_names() == ["alpha", "gamma"]


def test_package_map_ros_package_path_honours_ignore_markers(packages, write, monkeypatch):
    write("ws/gamma/CATKIN_IGNORE", "")
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(packages))
    pm = PackageMap()
    pm.populate_from_environment("ROS_PACKAGE_PATH")
    assert pm.get_package_names() == ["alpha"]


def test_package_map_populate_from_unset_environment_adds_nothing(monkeypatch):
    monkeypatch.delenv("MBPARSE_UNSET_VARIABLE", raising=False)
    pm = PackageMap()
    pm.populate_from_environment("MBPARSE_UNSET_VARIABLE")
    assert pm.get_package_names() == []


@pytest.mark.parametrize("scheme", ["package", "model"])
def test_package_map_resolve_url_of_a_package(packages, scheme):
    pm = PackageMap()
    pm.populate_from_folder(str(packages))
    path = pm.resolve_url(f"{scheme}://alpha/meshes/part.obj")
    assert os.path.samefile(path, packages / "alpha" / "meshes" / "part.obj")


def test_package_map_resolve_file_url(packages):
    target = packages / "alpha" / "meshes" / "part.obj"
    assert PackageMap().resolve_url(f"file://{target}") == str(target)


def test_package_map_resolve_url_unknown_package_is_an_error():
    with pytest.raises(PackageMapError, match="ghost"):
        PackageMap().resolve_url("package://ghost/x.obj")


def test_package_map_resolve_url_missing_file_is_an_error(packages):
    pm = PackageMap()
    pm.add_package_xml(str(packages / "alpha" / "package.xml"))
    with pytest.raises(PackageMapError, match="does not exist"):
        pm.resolve_url("package://alpha/meshes/absent.obj")


@pytest.mark.parametrize("url", ["http://example.com/x.obj", "https://example.com/x.obj"])
def test_package_map_never_fetches_from_a_network(url, monkeypatch):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("the package map tried to open a network connection")
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(PackageMapError, match="scheme"):
        PackageMap().resolve_url(url)


def test_package_map_remembers_a_bounded_number_of_manifests(tmp_path, monkeypatch):
    from mbparse import package_map

    monkeypatch.setattr(package_map, "MAX_CACHED_MANIFESTS", 3)
    monkeypatch.setattr(package_map, "_MANIFESTS", {})
    for k in range(5):
        folder = tmp_path / f"p{k}"
        folder.mkdir()
        (folder / "package.xml").write_text(f"<package><name>p{k}</name></package>")
        os.utime(folder / "package.xml", (1e9, 1e9))  # (long settled: one to remember)
        assert package_map.read_package_xml(str(folder / "package.xml")) == (f"p{k}", None)
    assert len(package_map._MANIFESTS) == 2  # (full at the fourth: all forgotten)
    assert str(tmp_path / "p4" / "package.xml") in package_map._MANIFESTS
    assert str(tmp_path / "p0" / "package.xml") not in package_map._MANIFESTS
