"""mbparse.batch: one piece of work per file, on several processes, results in file order."""
from __future__ import annotations

import os
import time

import pytest

from mbparse.batch import Failed, default_jobs, run_batch


def _square_slowly_first(n: int) -> int:
    time.sleep(0.2 if n == 0 else 0.0)  # the first item finishes last
    return n * n


def _fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is refused")
    return n


def _dies_on_two(n: int) -> int:
    if n == 2:
        os._exit(7)  # a worker that crashes outright
    return n


def test_batch_results_come_in_the_order_of_the_items_with_several_jobs():
    out = list(run_batch(_square_slowly_first, range(6), jobs=2))
    assert out == [(n, n * n) for n in range(6)]


def test_batch_with_one_job_runs_here_and_gives_the_same_results():
    assert list(run_batch(_square_slowly_first, range(4), jobs=1)) == \
        list(run_batch(_square_slowly_first, range(4), jobs=2))


def test_batch_keeps_an_exception_with_its_item_and_goes_on():
    for jobs in (1, 2):
        out = dict(run_batch(_fails_on_three, range(5), jobs=jobs))
        assert isinstance(out[3], Failed) and "three is refused" in out[3].error
        assert [out[n] for n in (0, 1, 2, 4)] == [0, 1, 2, 4]


def test_batch_fails_only_the_item_whose_worker_process_died():
    out = list(run_batch(_dies_on_two, range(8), jobs=2))
    assert [item for item, _ in out] == list(range(8))
    failed = [item for item, result in out if isinstance(result, Failed)]
    assert failed == [2]
    assert "died" in out[2][1].error
    assert [result for item, result in out if item != 2] == [0, 1, 3, 4, 5, 6, 7]


def test_batch_default_jobs_is_at_least_one():
    assert default_jobs() >= 1


def test_batch_jobs_argument_refuses_zero():
    import argparse

    from mbparse.batch import add_jobs_argument
    ap = argparse.ArgumentParser()
    add_jobs_argument(ap)
    assert ap.parse_args(["-j", "3"]).jobs == 3
    assert ap.parse_args([]).jobs is None
    with pytest.raises(SystemExit):
        ap.parse_args(["-j", "0"])
