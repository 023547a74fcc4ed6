"""Every command turns a failure into one line with the location and exit
status 1 (2 for a wrong command line); a traceback only with --debug."""
from __future__ import annotations

import pytest

from mbparse import cli

BAD = '<mujoco model="m"><worldbody><body name="b" euler="inf 0 0"><geom size="1"/></body>' \
      '</worldbody></mujoco>'


@pytest.mark.parametrize("command", [["inspect"], ["check"], ["tree"]])
def test_a_bad_file_gives_one_located_line_and_status_1(write, capsys, command):
    path = str(write("m.xml", BAD))
    status = cli.main(command + [path])
    out, err = capsys.readouterr()
    assert status == 1
    assert "Traceback" not in out + err
    assert f"{path}:1" in out + err


def test_convert_of_a_bad_urdf_gives_one_line(write, capsys):
    path = str(write("m.urdf", '<robot name="r"><link name="a"></robot>'))
    status = cli.main(["convert", "--to", "sdf", path])
    out, err = capsys.readouterr()
    assert status == 1 and "Traceback" not in err and f"{path}:1" in err


def test_an_internal_failure_is_one_line_without_debug(write, capsys, monkeypatch):
    import mbparse.commands.tree as tree

    def broken(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(tree, "to_dot", broken)
    path = str(write("m.urdf", '<robot name="r"><link name="a"/></robot>'))
    assert cli.main(["tree", path]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" in err and path in err
    assert len(err.strip().splitlines()) == 1


def test_debug_shows_the_traceback_of_an_internal_failure(write, monkeypatch):
    import mbparse.commands.tree as tree

    def broken(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(tree, "to_dot", broken)
    path = str(write("m.urdf", '<robot name="r"><link name="a"/></robot>'))
    with pytest.raises(KeyError):
        cli.main(["tree", "--debug", path])
    with pytest.raises(KeyError):
        cli.main(["--debug", "tree", path])


@pytest.mark.parametrize("command", [["inspect"], ["inspect", "--json"], ["check"],
                                     ["convert", "--to", "mjcf"]])
def test_debug_shows_the_traceback_of_a_reader_failure_in_every_command(write, capsys,
                                                                        monkeypatch, command):
    """A failure inside a reader is caught by the batch runner and check's
    runner, not by the command line: --debug reaches them too (it used to
    print the one line with or without it)."""
    import mbparse.formats.urdf as urdf

    def broken(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(urdf, "add_model", broken)
    path = str(write("m.urdf", '<robot name="r"><link name="a"/></robot>'))
    assert cli.main(command + [path]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "KeyError" in out + err
    with pytest.raises(KeyError):
        cli.main(command + ["--debug", path])
    assert cli.main(command + [path]) == 1  # --debug lasts one command


def test_a_wrong_command_line_is_status_2(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["inspect", "--no-such-flag"])
    assert info.value.code == 2
