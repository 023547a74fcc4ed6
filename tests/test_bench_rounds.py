"""The benchmarks' rounds (benchmarks/bench_parse.py, issue 30): per file, the
best of every round's best, the median of their medians, and a file one
round rejects stays rejected."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "benchmarks"))
import bench_parse  # noqa: E402


def test_rounds_are_merged_per_file():
    one = {"a": {"best": 3.0, "median": 4.0, "cpu best": 2.0, "cpu median": 4.0, "first": 9.0},
           "b": {"error": "ParseError: no"}}
    two = {"a": {"best": 2.0, "median": 6.0, "cpu best": 3.0, "cpu median": 8.0, "first": 7.0},
           "b": {"error": "ParseError: no"}}
    three = {"a": {"best": 5.0, "median": 5.0, "cpu best": 1.0, "cpu median": 5.0, "first": 8.0},
             "b": {"error": "ParseError: no"}}
    merged = bench_parse._merged([one, two, three])
    assert merged["a"] == {"best": 2.0, "median": 5.0, "cpu best": 1.0, "cpu median": 5.0,
                           "first": 7.0}
    assert merged["b"] == {"error": "ParseError: no"}


def test_a_file_one_round_rejects_is_rejected():
    ok = {"a": {"best": 1.0, "median": 1.0, "cpu best": 1.0, "cpu median": 1.0, "first": 1.0}}
    failed = {"a": {"error": "MemoryError: "}}
    assert bench_parse._merged([ok, failed])["a"] == failed["a"]
