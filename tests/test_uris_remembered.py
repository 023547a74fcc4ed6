"""A URI found to name a file is remembered for the rest of one parse (a
model names the same mesh for its visual and its collision); a URI that names
nothing is looked up, and reported, again at every element."""
from __future__ import annotations

from mbparse import MultibodyPlant, Parser, SceneGraph
from mbparse.formats.common import uris

REAL_RESOLVE = uris.resolve_uri
OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"


def _parse(tmp_path, monkeypatch, filenames):
    (tmp_path / "m.obj").write_text(OBJ)
    geometry = "".join(f'<visual><geometry><mesh filename="{f}"/></geometry></visual>'
                       f'<collision><geometry><mesh filename="{f}"/></geometry></collision>'
                       for f in filenames)
    urdf = tmp_path / "r.urdf"
    urdf.write_text(f'<robot name="r"><link name="a">{geometry}</link></robot>')
    looked_up = []

    def counting(uri, *args):
        looked_up.append(uri)
        return REAL_RESOLVE(uri, *args)

    monkeypatch.setattr(uris, "resolve_uri", counting)
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    parser.diagnostic_policy().emit = False
    parser.add_models(str(urdf))
    return plant, parser, looked_up


def test_a_found_uri_is_resolved_once_per_parse(tmp_path, monkeypatch):
    plant, _, looked_up = _parse(tmp_path, monkeypatch, ["m.obj"])
    assert looked_up == ["m.obj"]
    shapes = [g.shape for g in plant.scene_graph.geometries()]
    assert [s.filename for s in shapes] == [str(tmp_path / "m.obj")] * 2


def test_a_missing_uri_is_reported_at_every_element(tmp_path, monkeypatch):
    plant, parser, looked_up = _parse(tmp_path, monkeypatch, ["gone.obj"])
    assert looked_up == ["gone.obj", "gone.obj"]
    missing = [d for d in parser.diagnostic_policy().warnings_seen if d.code == "mesh-missing"]
    assert len(missing) == 2 and missing[0].line == missing[1].line == 1
    assert plant.scene_graph.num_geometries() == 0


def test_each_parse_looks_its_uris_up_again(tmp_path, monkeypatch):
    _, _, first = _parse(tmp_path, monkeypatch, ["m.obj"])
    _, _, second = _parse(tmp_path, monkeypatch, ["m.obj"])
    assert first == second == ["m.obj"]
