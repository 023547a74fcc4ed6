"""MJCF <include>: the included file's root element is dropped and its
children spliced in place, whatever the root is called (MuJoCo and Drake
both accept <mujocoinclude> fragments, and any other root)."""
from __future__ import annotations

from conftest import new_parser

MAIN = """<mujoco model="m">
  <include file="frag.xml"/>
  <worldbody><body name="b"><joint type="hinge"/><geom type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>
"""
FRAGMENT = '<{root}>\n  <default><geom density="2000"/></default>\n</{root}>\n'


def _load(write, root: str):
    write("frag.xml", FRAGMENT.format(root=root))
    parser = new_parser()
    parser.add_models(str(write("main.xml", MAIN)))
    body = parser.plant().get_body_by_name("b")
    return body.default_spatial_inertia.mass, parser.diagnostic_policy().warnings_seen


def test_a_mujocoinclude_fragment_is_spliced_in_silently(write):
    mass, seen = _load(write, "mujocoinclude")
    assert abs(mass - 2000 * 4 / 3 * 3.141592653589793 * 0.1 ** 3) < 1e-9
    assert [d for d in seen if d.code == "mjcf-include-root"] == []


def test_another_root_is_spliced_in_with_a_located_warning(write):
    mass, seen = _load(write, "fragment")
    assert abs(mass - 2000 * 4 / 3 * 3.141592653589793 * 0.1 ** 3) < 1e-9
    (d,) = [d for d in seen if d.code == "mjcf-include-root"]
    assert d.file.endswith("frag.xml") and d.line == 1 and "<fragment>" in d.message


def test_the_same_in_drakes_mode_because_drake_accepts_them_too(write):
    write("frag.xml", FRAGMENT.format(root="mujocoinclude"))
    parser = new_parser()
    parser.set_like_drake()
    parser.add_models(str(write("main.xml", MAIN)))
    assert parser.plant().has_body_named("b")


def test_a_file_included_twice_gives_its_elements_at_both_places(write):
    write("arm.xml", '<mujocoinclude><joint type="hinge"/><geom type="sphere" size="0.1"/>'
                     '</mujocoinclude>\n')
    main = write("twice.xml", '<mujoco model="m"><worldbody>\n'
                              '<body name="a"><include file="arm.xml"/></body>\n'
                              '<body name="b"><include file="arm.xml"/></body>\n'
                              '</worldbody></mujoco>\n')
    parser = new_parser()
    parser.add_models(str(main))
    plant = parser.plant()
    assert plant.get_body_by_name("a").default_spatial_inertia.mass > 0
    assert plant.get_body_by_name("b").default_spatial_inertia.mass > 0
    assert plant.num_joints() == 2


def test_an_include_cycle_is_still_refused_when_the_file_was_found_before(write):
    import pytest
    from mbparse.diagnostics import ParseError
    write("loop.xml", '<mujocoinclude><include file="loop.xml"/></mujocoinclude>\n')
    main = write("cyc.xml", '<mujoco model="m"><include file="loop.xml"/></mujoco>\n')
    parser = new_parser()
    with pytest.raises(ParseError, match="cycle"):
        parser.add_models(str(main))


def _document(main):
    from mbparse.diagnostics import DiagnosticPolicy
    from mbparse.formats.mjcf.document import Document
    from mbparse.workspace import DataSource
    policy = DiagnosticPolicy()
    policy.emit = False
    return Document(DataSource(filename=str(main)), policy), policy


def test_children_spliced_in_without_a_word_are_kept_after_their_first_whole_expansion(write):
    write("frag.xml", FRAGMENT.format(root="mujocoinclude"))
    doc, _ = _document(write("main.xml", MAIN))
    first = doc.kids(doc.root)
    assert type(first) is not tuple  # expanded lazily, include by include
    spliced = list(first)
    assert [k.tag for k in spliced] == ["default", "worldbody"]
    again = doc.kids(doc.root)
    assert type(again) is tuple and list(again) == spliced


def test_an_expansion_that_warns_is_not_kept_so_it_warns_again_as_before(write):
    write("frag.xml", FRAGMENT.format(root="fragment"))  # the root warns when read...
    doc, policy = _document(write("main.xml", MAIN))
    list(doc.kids(doc.root))
    assert len(policy.warnings_seen) == 1
    assert type(doc.kids(doc.root)) is not tuple  # ...so this one was not kept;
    list(doc.kids(doc.root))  # the file is read once, so the second expansion is silent
    assert type(doc.kids(doc.root)) is tuple


def test_an_expansion_stopped_half_way_is_not_kept(write):
    write("frag.xml", FRAGMENT.format(root="mujocoinclude"))
    doc, _ = _document(write("main.xml", MAIN))
    next(iter(doc.kids(doc.root)))  # only the first child
    assert type(doc.kids(doc.root)) is not tuple


def test_children_kept_count_towards_the_include_limit_as_their_splicing_did(write):
    write("frag.xml", FRAGMENT.format(root="mujocoinclude"))
    doc, _ = _document(write("main.xml", MAIN))
    list(doc.kids(doc.root))
    spliced = doc._expansions
    doc.kids(doc.root)
    assert doc._expansions == 2 * spliced
