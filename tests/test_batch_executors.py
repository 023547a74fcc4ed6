"""Batches beyond one machine: run_batch on any concurrent.futures executor
(Dask's Client.get_executor() among them), ``--dask ADDRESS``, ``--progress``
and ``--resume OUT.jsonl`` on inspect, check and convert."""
from __future__ import annotations

import json
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from mbparse.batch import Failed, run_batch
from mbparse.cli import main

URDF = ("<robot name='{name}'><link name='a'><inertial><mass value='1'/><inertia ixx='1' "
        "iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>\n")


def _slow_square(n: int) -> int:
    time.sleep(0.002 * ((7 * n) % 5))  # (finishing out of order)
    if n == 3:
        raise ValueError("three")
    return n * n


def test_run_batch_on_an_executor_keeps_the_order_and_each_failure_with_its_item():
    with ThreadPoolExecutor(4) as pool:
        results = list(run_batch(_slow_square, range(10), executor=pool, ahead=3))
    assert [item for item, _ in results] == list(range(10))
    assert [r for _, r in results if not isinstance(r, Failed)] == [
        n * n for n in range(10) if n != 3]
    assert results[3][1] == Failed(3, "ValueError: three")


class _LosingExecutor:
    """An executor whose task holding item 2 fails as a lost worker's does."""

    def __init__(self):
        self.submitted = []

    def submit(self, fn, *args):
        self.submitted.append(args[1])
        future: Future = Future()
        if 2 in args[1]:
            future.set_exception(RuntimeError("worker lost"))
        else:
            future.set_result(fn(*args))
        return future


def test_a_task_that_fails_in_the_executor_is_its_items_failed_result():
    results = dict(run_batch(lambda n: -n, range(4), executor=_LosingExecutor()))
    assert results == {0: 0, 1: -1, 3: -3,
                       2: Failed(2, "the task working on this file failed (RuntimeError: "
                                    "worker lost)")}


def test_run_batch_submits_at_most_ahead_items_beyond_the_one_it_yields():
    executor = _LosingExecutor()
    it = run_batch(lambda n: n, range(100), executor=executor, ahead=5)
    next(it)
    assert executor.submitted == [[0], [1], [2], [3], [4]]
    it.close()


# ---------------------------------------------------------------- the commands
def _files(write, n=4, broken=None):
    return [str(write(f"m{i}.urdf", "<robot name='x'><link" if i == broken
                      else URDF.format(name=f"r{i}"))) for i in range(n)]


def _lines(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def test_inspect_resume_skips_the_files_written_and_appends_the_rest(write, tmp_path, capsys):
    files = _files(write)
    full = tmp_path / "full.jsonl"
    assert main(["inspect", "--json", "--resume", str(full), *files]) == 0
    whole = full.read_text()
    assert [line["file"] for line in _lines(full)] == files
    # A run stopped after two files, in the middle of writing the third's line:
    out = tmp_path / "out.jsonl"
    lines = whole.splitlines(keepends=True)
    out.write_text(lines[0] + lines[1] + lines[2][:40])
    assert main(["inspect", "--json", "--resume", str(out), "--progress", "always", *files]) == 0
    assert out.read_text() == whole
    assert "2/2" in capsys.readouterr().err  # (only the two files left)
    assert main(["inspect", "--json", "--resume", str(out), *files]) == 0  # nothing left
    assert out.read_text() == whole


def test_resume_from_a_file_that_is_not_json_lines_is_one_line_and_status_2(write, tmp_path,
                                                                            capsys):
    out = write("notes.jsonl", "hello\n")
    assert main(["inspect", "--json", "--resume", str(out), *_files(write)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "line 1 is not a JSON line" in err
    assert out.read_text() == "hello\n"


def test_inspect_resume_needs_json(write, tmp_path, capsys):
    assert main(["inspect", "--resume", str(tmp_path / "o.jsonl"), *_files(write)]) == 2
    assert "--json" in capsys.readouterr().err


def test_check_resume_appends_jsonl_and_skips_files_done(write, tmp_path):
    files = _files(write, broken=1)
    out = tmp_path / "check.jsonl"
    assert main(["check", "--no-config", "--resume", str(out), *files[:2]]) == 1
    assert main(["check", "--no-config", "--resume", str(out), *files]) == 0  # (the new two)
    lines = _lines(out)
    assert [line["file"] for line in lines] == files
    assert lines[1]["counts"]["error"] >= 1


def test_convert_resume_appends_report_lines(write, tmp_path):
    files = _files(write, n=3)
    out, folder = tmp_path / "convert.jsonl", tmp_path / "converted"
    assert main(["convert", files[0], "--to", "mjcf", "-o", str(folder), "--resume", str(out)]) == 0
    assert main(["convert", *files, "--to", "mjcf", "-o", str(folder), "--resume", str(out)]) == 0
    lines = _lines(out)
    assert [line["file"] for line in lines] == files
    assert all((folder / f"m{i}.xml").is_file() for i in range(3))


def test_dask_without_dask_installed_says_what_to_install_in_one_line(write, monkeypatch,
                                                                      capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # (import fails)
    for argv in (["inspect", "--json"], ["check", "--no-config"],
                 ["convert", "--to", "mjcf", "-o", "out"]):
        assert main([*argv, "--dask", "local:2", *_files(write)]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "pip install 'mbparse[dask]'" in err


# ---------------------------------------------------------------- Dask
@pytest.fixture(scope="module")
def dask_cluster():
    """A Dask cluster of two worker threads in this process (quick to start)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    yield cluster
    cluster.close()


def test_run_batch_on_dasks_executor_gives_what_one_process_gives(dask_cluster, write):
    from distributed import Client

    from mbparse.commands.inspect import inspect_one
    from mbparse.loading import LoadOptions
    import functools
    files = _files(write, n=6, broken=2)
    work = functools.partial(inspect_one, options=LoadOptions(), as_json=True)
    with Client(dask_cluster) as client:
        on_dask = list(run_batch(work, files, executor=client.get_executor(), ahead=4))
    assert on_dask == list(run_batch(work, files, jobs=1))
    assert on_dask[2][1][0] == 1 and "error" in on_dask[2][1][1]


def test_inspect_check_and_convert_run_on_a_dask_scheduler(dask_cluster, write, tmp_path,
                                                           capsys):
    address = dask_cluster.scheduler_address
    files = _files(write, n=5, broken=3)
    assert main(["inspect", "--json", "--dask", address, *files]) == 1
    on_dask = capsys.readouterr().out
    assert main(["inspect", "--json", "-j", "1", *files]) == 1
    assert capsys.readouterr().out == on_dask
    assert main(["check", "--no-config", "--format", "jsonl", "--dask", address, *files]) == 1
    assert [json.loads(line)["file"] for line in capsys.readouterr().out.splitlines()] == files
    out = tmp_path / "c.jsonl"
    assert main(["convert", *files, "--to", "sdf", "--via-model", "-o", str(tmp_path / "o"),
                 "--dask", address, "--resume", str(out)]) == 1
    assert [line["status"] for line in _lines(out)] == ["ok", "ok", "ok", "error", "ok"]


def test_the_size_limits_reach_dask_workers(dask_cluster, write, capsys):
    """Each worker thread runs a file's work under the command's limits."""
    files = _files(write, n=2)
    assert main(["inspect", "--json", "--max-bodies", "0", "--max-elements", "3",
                 "--dask", dask_cluster.scheduler_address, *files]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2 and all("--max-elements" in line["error"] for line in lines)


def test_items_run_several_to_a_task_and_a_failed_task_runs_its_items_one_each():
    executor = _LosingExecutor()
    results = list(run_batch(lambda n: -n, range(7), executor=executor, ahead=2, chunk=3))
    assert [item for item, _ in results] == list(range(7))
    assert "(RuntimeError: worker lost)" in dict(results)[2].error
    assert [r for i, r in results if i != 2] == [0, -1, -3, -4, -5, -6]
    # (tasks: [0 1 2] failed, then [0] [1] [2] alone, then [3 4 5] and [6])
    assert executor.submitted == [[0, 1, 2], [3, 4, 5], [0], [1], [2], [6]]


def test_resume_finds_the_file_of_lines_too_long_to_parse_whole(tmp_path):
    """A large model's summary line is tens of MB: its "file" (inspect's
    last key, check's and convert's first) is found without parsing it."""
    from mbparse.commands.batching import files_done
    big = '{"schema": "mbsummary/1", "bodies": {' + ", ".join(
        f'"b{i}": {{"file": "not this"}}' for i in range(5000)) + '}, "file": "a \\"b\\".urdf"}'
    out = tmp_path / "o.jsonl"
    out.write_text(big + "\n" + '{"file": "c.urdf", "findings": [' + ", ".join(
        ['{"message": "x"}'] * 10000) + "]}\n" + '{"file": "d.urdf"}\n' + big[:1000])
    assert files_done(str(out)) == {'a "b".urdf', "c.urdf", "d.urdf"}
    assert out.read_text().endswith('{"file": "d.urdf"}\n')  # (the cut line is gone)
    out.write_text('{"x": 1, ' + '"y": 2, ' * 20000 + '"z": 3}\n')
    from mbparse.commands.batching import BatchError
    with pytest.raises(BatchError, match="line 1"):
        files_done(str(out))
