"""Deep input: deep but legal trees load; absurd depth is a located error
that names the limit -- never Python's RecursionError."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import ParseError
from mbparse.formats.common.xml import MAX_ELEMENT_DEPTH
from mbparse.formats.dmd.schema import MAX_YAML_DEPTH
from mbparse.loading import load
from mbparse.workspace import MAX_FILE_NESTING

LINK = '<link name="l"/>'


def nested_mjcf(n: int) -> str:
    bodies = "".join(f'<body name="b{i}"><joint type="hinge"/><geom size="0.1"/>' for i in range(n))
    return f'<mujoco model="m"><worldbody>{bodies}{"</body>" * n}</worldbody></mujoco>'


def nested_sdf(n: int) -> str:
    models = "".join(f'<model name="m{i}">{LINK}' for i in range(n))
    return f'<sdf version="1.9">{models}{"</model>" * n}</sdf>'


def test_a_chain_of_450_nested_mjcf_bodies_loads(write):
    loaded = load(str(write("m.xml", nested_mjcf(450))))
    assert loaded.plant.num_bodies() == 451


def test_450_nested_sdf_models_load(write):
    loaded = load(str(write("m.sdf", nested_sdf(450))))
    assert loaded.plant.num_bodies() == 451


def test_sdf_models_nested_to_the_deepest_the_xml_reader_admits_load(write):
    # <sdf>, 498 models and the innermost link: MAX_ELEMENT_DEPTH levels.
    loaded = load(str(write("m.sdf", nested_sdf(MAX_ELEMENT_DEPTH - 2))))
    assert loaded.plant.num_bodies() == MAX_ELEMENT_DEPTH - 1


def test_mjcf_bodies_nested_to_the_deepest_the_xml_reader_admits_load(write):
    # <mujoco>, <worldbody>, 497 bodies and the innermost joint and geom.
    loaded = load(str(write("m.xml", nested_mjcf(MAX_ELEMENT_DEPTH - 3))))
    assert loaded.plant.num_bodies() == MAX_ELEMENT_DEPTH - 2


@pytest.mark.parametrize("name,text", [("m.xml", nested_mjcf(1500)), ("m.sdf", nested_sdf(1500)),
                                       ("m.urdf", '<robot name="r">' + "<link>" * 1500
                                        + "</link>" * 1500 + "</robot>")])
def test_1500_nested_elements_are_a_located_error_naming_the_limit(write, name, text):
    with pytest.raises(ParseError) as info:
        load(str(write(name, text)))
    d = info.value.diagnostic
    assert str(MAX_ELEMENT_DEPTH) in d.message and d.line == 1 and d.file.endswith(name)
    assert d.code == "depth-limit"


def include_chain(write, n: int) -> str:
    folder = write("m0.sdf", "").parent
    for i in range(n):
        inc = (f'<include><uri>file://{folder}/m{i + 1}.sdf</uri><name>m{i + 1}</name>'
               '</include>' if i + 1 < n else "")
        write(f"m{i}.sdf", f'<sdf version="1.9"><model name="m{i}">{LINK}{inc}</model></sdf>')
    return str(folder / "m0.sdf")


def test_an_sdf_include_chain_of_50_loads(write):
    assert load(include_chain(write, 50)).plant.num_bodies() == 51


def test_an_sdf_include_chain_of_300_is_a_located_error(write):
    with pytest.raises(ParseError) as info:
        load(include_chain(write, 300))
    d = info.value.diagnostic
    assert d.code == "depth-limit" and d.line == 1 and str(MAX_FILE_NESTING) in d.message


def directives_chain(write, n: int) -> str:
    write("leaf.sdf", f'<sdf version="1.9"><model name="x">{LINK}</model></sdf>')
    folder = None
    for i in range(n):
        path = write(f"d{i}.dmd.yaml", "directives:\n")
        folder = path.parent
    for i in range(n):
        body = (f"- add_directives:\n    file: file://{folder}/d{i + 1}.dmd.yaml\n" if i + 1 < n
                else f"- add_model:\n    name: x\n    file: file://{folder}/leaf.sdf\n")
        (folder / f"d{i}.dmd.yaml").write_text("directives:\n" + body)
    return str(folder / "d0.dmd.yaml")


def test_a_dmd_add_directives_chain_of_50_loads(write):
    assert load(directives_chain(write, 50)).plant.num_bodies() == 2


def test_a_dmd_add_directives_chain_of_1000_is_a_located_error(write):
    with pytest.raises(ParseError) as info:
        load(directives_chain(write, 1000))
    d = info.value.diagnostic
    assert d.code == "depth-limit" and d.line == 2 and str(MAX_FILE_NESTING) in d.message


def test_yaml_nested_1000_deep_is_a_located_error(write):
    path = write("d.dmd.yaml", "directives:\n- " + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    assert d.code == "depth-limit" and d.line == 2 and str(MAX_YAML_DEPTH) in d.message


def test_an_mjcf_include_chain_deeper_than_32_is_reported_as_depth_not_cycle(write):
    for i in range(40):
        inner = f'<include file="i{i + 1}.xml"/>' if i + 1 < 40 else '<geom size="1"/>'
        write(f"i{i}.xml", f"<mujoco>{inner}</mujoco>")
    path = write("m.xml", '<mujoco model="m"><worldbody><body name="b"><joint type="hinge"/>'
                          '<include file="i0.xml"/></body></worldbody></mujoco>')
    with pytest.raises(ParseError) as info:
        load(str(path))
    message = str(info.value)
    assert "32" in message and "cycle" not in message


@pytest.mark.parametrize("depth", [256, 257, 300, MAX_ELEMENT_DEPTH, MAX_ELEMENT_DEPTH + 1])
def test_the_depth_limit_is_exact_on_both_sides_of_libxml2s_own_limit(depth):
    # Trees up to 256 deep come from a parser that keeps libxml2's own depth
    # limit; deeper ones are read again without it and then measured.
    from mbparse.formats.common.xml import parse_xml_bytes
    text = b"<a>" * depth + b"<b/>" * 300 + b"</a>" * depth  # (more tags than the limit)
    root, problem, line = parse_xml_bytes(text)
    if depth + 1 <= MAX_ELEMENT_DEPTH:
        assert root is not None and problem == ""
    else:
        assert root is None and f"more than {MAX_ELEMENT_DEPTH} deep" in problem and line == 1


def _scanner_depth(text: str) -> int:
    """The deepest nesting of collections YAML's scanner finds in ``text``."""
    import yaml

    from mbparse.formats.dmd import schema
    depth = deepest = 0
    for token in yaml.scan(text, Loader=yaml.SafeLoader):
        if isinstance(token, schema._OPENS):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(token, schema._CLOSES):
            depth -= 1
    return deepest


def _random_yaml(rng, depth: int, indent: int) -> str:
    """A value of block and flow collections (compact, indentless and
    indented at odd columns), with quoted brackets and marks."""
    r = rng.random()
    if depth > 10 or r < 0.25:
        return rng.choice(["a", "", "-1", "'x: [y'", '"q]}"', "~", "b c"])
    if r < 0.45:
        inner = ", ".join(_random_yaml(rng, 11, 0) if rng.random() < 0.5 else
                          _random_yaml(rng, depth + 3, 0).strip() or "a"
                          for _ in range(rng.randint(0, 3)))
        return f"[{inner}]" if "\n" not in inner else "[a]"
    pad = " " * indent
    if r < 0.75:
        items = [_random_yaml(rng, depth + 1, indent + 2) for _ in range(rng.randint(1, 3))]
        return "\n" + "\n".join(pad + ("-" + it if it.startswith("\n") else f"- {it}")
                                for it in items)
    items = [_random_yaml(rng, depth + 1, indent + rng.choice([0, 1, 2, 5]))
             for _ in range(rng.randint(1, 3))]
    return "\n" + "\n".join(pad + (f"k{i}:" + it if it.startswith("\n") else f"k{i}: {it}")
                            for i, it in enumerate(items))


def test_the_nesting_bound_that_spares_a_directives_file_the_scan_is_never_below_the_scanners_depth():
    # A text whose bound is within MAX_YAML_DEPTH is composed without the
    # token scan that finds collections nested too deep: the bound must
    # never be less than what that scan would find.
    import random

    import yaml

    from mbparse.formats.dmd.schema import _nesting_bound
    rng = random.Random(30)
    checked = 0
    for _ in range(1500):
        text = "top:" + _random_yaml(rng, 0, 2)
        try:
            depth = _scanner_depth(text)
        except yaml.YAMLError:
            continue
        assert _nesting_bound(text) >= depth, text
        checked += 1
    assert checked > 1000
    for n in (99, 100, 101):  # compact and indentless nesting, flow brackets
        for text in ("- " * n + "a", "k:\n" + "".join(" " * i + "- \n" for i in range(n)),
                     "".join(" " * i + "? \n" for i in range(n)),  # complex keys
                     "[" * n + "]" * n, "a: " + "{b: " * n + "c" + "}" * n):
            assert _nesting_bound(text) >= _scanner_depth(text) > n - 2, text
