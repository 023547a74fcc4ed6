"""A kinematic chain far longer than Python's recursion limit is legal input:
every command reads, checks, draws and converts it, or (MJCF, which nests a
child body inside its parent) refuses it with a clear error naming the file."""
from __future__ import annotations

import pytest

from mbparse.cli import main
from mbparse.convert.writers.mjcf import MAX_BODY_DEPTH
from test_check_large_models import chain

LINKS = 1500  # Python's default recursion limit is 1000


@pytest.fixture(scope="module")
def long_chain(tmp_path_factory):
    path = tmp_path_factory.mktemp("chain") / "chain.urdf"
    path.write_text(chain(LINKS, massless_from=LINKS))
    return path


@pytest.mark.parametrize("args", [
    ["inspect"], ["inspect", "--json"], ["inspect", "--like", "drake"], ["tree"],
    ["check", "--for", "drake,mujoco,gazebo,pybullet,isaac"],
    ["convert", "--to", "urdf"], ["convert", "--to", "sdf"],
    ["convert", "--to", "sdf", "--via-model"]], ids=" ".join)
def test_every_command_takes_a_chain_longer_than_the_recursion_limit(long_chain, tmp_path,
                                                                       capsys, args):
    if args[0] in ("convert", "tree"):
        args = [*args, "-o", str(tmp_path / ("out.dot" if args[0] == "tree" else "out"))]
    assert main([*args, str(long_chain)]) == 0
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err


def test_converted_chain_reads_back_with_every_body(long_chain, tmp_path, capsys):
    for target, suffix in (("urdf", ".urdf"), ("sdf", ".sdf")):
        out = tmp_path / f"out{suffix}"
        assert main(["convert", "--to", target, "-o", str(out), str(long_chain)]) == 0
        capsys.readouterr()
        assert main(["inspect", str(out)]) == 0
        assert f"bodies ({LINKS}):" in capsys.readouterr().out


def test_mjcf_output_deeper_than_mujoco_reads_is_refused_naming_the_file(long_chain, tmp_path,
                                                                        capsys):
    assert main(["convert", "--to", "mjcf", "-o", str(tmp_path / "o.xml"), str(long_chain)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {long_chain}: the model's bodies are nested {LINKS} deep")
    assert "internal error" not in err
    assert not (tmp_path / "o.xml").exists()


def test_mjcf_output_as_deep_as_mujoco_reads_is_written(tmp_path, capsys):
    src = tmp_path / "c.urdf"
    src.write_text(chain(MAX_BODY_DEPTH, massless_from=MAX_BODY_DEPTH))
    out = tmp_path / "c.xml"
    assert main(["convert", "--to", "mjcf", "-o", str(out), str(src)]) == 0
    capsys.readouterr()
    assert main(["inspect", str(out)]) == 0
    assert f"bodies ({MAX_BODY_DEPTH}):" in capsys.readouterr().out
