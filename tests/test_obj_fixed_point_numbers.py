"""Vertex numbers written with one decimal point and a fixed count of
digits after it (what exporters write) are read as integers and scaled:
the doubles must be exactly the ones float() reads, signs of zero included,
and anything else must go to the other readings with the same result."""
from __future__ import annotations

import random

import numpy as np
import pytest

from mbparse.geometry.mesh_io import _fixed_point_vertices, _parse_obj_lines, parse_obj


def _rows(tokens: list[str]) -> str:
    return "\n".join(" ".join(tokens[k:k + 3]) for k in range(0, len(tokens), 3))


@pytest.mark.parametrize("digits", [1, 3, 6, 9, 15])
def test_fixed_point_numbers_are_the_doubles_float_reads(digits):
    rng = random.Random(digits)
    tokens = []
    for _ in range(3000):
        whole = str(rng.randrange(10 ** rng.randint(0, 15 - digits)))
        if rng.random() < 0.1:
            whole = ""  # '.5' and '-.5'
        frac = "".join(rng.choice("0123456789") for _ in range(digits))
        tokens.append(rng.choice(("", "-", "+")) + whole + "." + frac)
    tokens += ["-0." + "0" * digits, "0." + "0" * digits, "+0." + "0" * digits]
    tokens += ["1." + "0" * digits] * (-len(tokens) % 3)
    V = _fixed_point_vertices(_rows(tokens), len(tokens) // 3)
    expected = np.array([float(t) for t in tokens]).reshape(-1, 3)
    assert V is not None
    assert np.array_equal(V, expected)
    assert np.array_equal(np.signbit(V), np.signbit(expected))


@pytest.mark.parametrize("tokens", [
    ["1.5", "2.25", "3.0"],              # digits after the point differ
    ["1", "2.0", "3.0"],                 # a number without a point
    ["1.", "2.", "3."],                  # no digit after the point
    ["-.", "2.0", "3.0"],                # no digit at all
    ["1.0.0", "2.0", "3.0"],             # two points
    ["1.5e3", "2.0", "3.0"],             # an exponent
    ["12345678901234567.0", "1.0", "2.0"],  # past 2**53
    ["1.-5", "2.0", "3.0"],              # a sign after the point
    ["1.0", "2.0"],                      # too few numbers
])
def test_numbers_not_in_fixed_point_are_left_to_the_other_readings(tokens):
    assert _fixed_point_vertices(" ".join(tokens), 1) is None


def test_rows_of_two_and_four_fixed_point_numbers_are_not_read_as_threes():
    assert _fixed_point_vertices("1.0 2.0\n3.0 4.0 5.0 6.0", 2) is None


@pytest.mark.parametrize("line", ["v 1.0 2.0", "v 1.0 2.0 3.0 4.0", "v -.5 2.0 3.0",
                                  "v 1.0 2.0 3.00", "v -0.000 0.000 1.000", "v 1.0. 2.0 3.0"])
def test_obj_with_an_odd_vertex_among_fixed_point_ones_reads_as_the_line_reading(line):
    rng = random.Random(line)
    lines = ["v " + " ".join(f"{rng.uniform(-1, 1):.6f}" for _ in range(3)) for _ in range(600)]
    lines.insert(450, line)
    lines += [f"f {k + 1} {k + 2} {k + 3}" for k in range(290)]
    text = "\n".join(lines) + "\n"
    mesh, slow = parse_obj(text), _parse_obj_lines(text, False)
    assert np.array_equal(mesh.vertices, slow.vertices)
    assert np.array_equal(np.signbit(mesh.vertices), np.signbit(slow.vertices))
    assert mesh.warnings == slow.warnings
