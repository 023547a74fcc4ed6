"""A file that gives tens of thousands of warnings (every element unknown):
the first MAX_WARNINGS are listed, one more says the rest are not, and the
readers make no message for the rest, so such a file loads in seconds."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import MAX_WARNINGS, DiagnosticPolicy
from mbparse.loading import load


def test_the_policy_lists_the_limit_then_says_the_rest_are_not_listed():
    policy = DiagnosticPolicy(emit=False)
    for i in range(MAX_WARNINGS + 50):
        policy.warning(f"w{i}", "f.urdf", i + 1, code="urdf-unsupported")
    seen = policy.warnings_seen
    assert len(seen) == MAX_WARNINGS + 1 and policy.saturated()
    assert seen[MAX_WARNINGS - 1].message == f"w{MAX_WARNINGS - 1}"
    last = seen[-1]
    assert last.code == "too-many-warnings" and (last.file, last.line) == ("f.urdf", MAX_WARNINGS + 1)
    assert f"more than {MAX_WARNINGS:,} warnings" in last.message


@pytest.mark.parametrize("name, text", [
    ("r.urdf", "<robot name='r'><link name='l'>{}</link></robot>"),
    ("m.sdf", "<sdf version='1.9'><model name='m'><link name='l'>{}</link></model></sdf>"),
    ("m.xml", "<mujoco model='m'><worldbody><body>{}<geom size='1'/></body></worldbody>"
              "</mujoco>")])
def test_a_file_of_many_different_unknown_elements_loads_with_the_warnings_cut(write, name,
                                                                              text):
    inner = "".join(f"<u{i}/>" for i in range(MAX_WARNINGS + 500))
    loaded = load(str(write(name, text.format(inner))))
    assert len(loaded.warnings) == MAX_WARNINGS + 1
    assert loaded.warnings[-1].code == "too-many-warnings"


def test_strict_parsing_still_refuses_the_first_warning():
    from mbparse.diagnostics import ParseError
    policy = DiagnosticPolicy(strict=True)
    with pytest.raises(ParseError):
        policy.warning("w", "f.urdf", 1)
