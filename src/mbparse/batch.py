"""Running one piece of work per file over many files, on several cores.

The commands that take many files (``inspect``, ``check``, ``convert``) hand
:func:`run_batch` a picklable function of one file and get its results back
**in the order of the files**, each as soon as it and every file before it
are done, so a command can stream one output line per file while a 100,000
file dataset keeps every core busy.

A failure stays with its file: an exception the work raises becomes that
file's :class:`Failed` result, and a worker process that dies (a crash, the
out-of-memory killer) fails the files it held, after which the remaining
files run on a fresh pool.

Past one machine, :func:`run_batch` takes any :class:`concurrent.futures.Executor`
instead of its own processes: Dask's ``Client.get_executor()`` runs the files
on a cluster (``inspect``/``check``/``convert --dask ADDRESS``); the results
still come back in the order of the files, and a file whose task fails (its
worker lost more often than the cluster retries it) is that file's
:class:`Failed` result.
"""
from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from .internal_errors import showing_tracebacks
from .memory import collector_paused
from .records import FrozenRecord, _set

if TYPE_CHECKING:
    from concurrent.futures import Executor

# concurrent.futures and multiprocessing are imported when a pool is made:
# a command on one file does not pay for them at start-up.

# Files queued per worker ahead of the one being written out: enough to keep
# the workers busy while results are streamed, without queueing a whole
# dataset at once.
_AHEAD_PER_WORKER = 4
# Items submitted to a caller's executor ahead of the one being yielded
# (its number of workers is not known here).
_AHEAD_IN_EXECUTOR = 64


class Failed(FrozenRecord):
    """The result of a file whose work raised (or whose worker died); immutable."""

    _fields = ("item", "error")

    def __init__(self, item: Any, error: str) -> None:
        _set(self, "item", item)
        _set(self, "error", error)


def default_jobs() -> int:
    """The number of worker processes ``-j`` means when not given: every
    core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def add_jobs_argument(parser) -> None:
    """Adds ``-j/--jobs N`` to an argparse parser."""
    parser.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                        help="files worked on at once, each in its own process (default: "
                             "every core); results still come out in the order of the files")


def _jobs(text: str) -> int:
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"-j wants a whole number of processes, not '{text}'")
    if n < 1:
        raise argparse.ArgumentTypeError(f"-j wants at least 1 process, not {n}")
    return n


def run_batch(work: Callable[[Any], Any], items: Iterable[Any],
              jobs: int | None = None,
              warm_up: Callable[[], None] | None = None,
              executor: "Executor | None" = None,
              ahead: int | None = None, chunk: int = 1) -> Iterator[tuple[Any, Any]]:
    """Yields ``(item, work(item))`` for every item, in the items' order.

    ``work`` runs in ``jobs`` worker processes (default :func:`default_jobs`);
    with one job, or one item, it runs here, with no process started. An
    exception from ``work`` gives that item a :class:`Failed` result instead.
    ``work`` and the items must be picklable when more than one job runs.
    ``warm_up`` runs here before the workers start (imports they would
    otherwise each repeat, see :func:`mbparse.formats.preload`).

    With ``executor`` (any :class:`concurrent.futures.Executor`: a thread or
    process pool, Dask's ``Client.get_executor()``), ``jobs`` and
    ``warm_up`` are not used: the items are submitted to it ``chunk`` at a
    time (one task runs that many: a cluster's cost per task is paid once
    for them), at most ``ahead`` tasks (default 64) beyond the one being
    yielded. An exception from a task's future (a lost worker, a cancelled
    task) runs its items again one task each, and is the :class:`Failed`
    result of the item whose task fails alone. The executor is not shut down.
    """
    if executor is not None:
        yield from _in_executor(work, list(items), executor, ahead or _AHEAD_IN_EXECUTOR,
                                max(1, chunk))
        return
    items = list(items)
    jobs = default_jobs() if jobs is None else jobs
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            yield item, _guarded(work, item)
        return
    if warm_up is not None:
        warm_up()
    yield from _in_pool(work, items, min(jobs, len(items)))


def _guarded(work: Callable[[Any], Any], item: Any) -> Any:
    try:
        # One file's work keeps everything it makes until it ends: the
        # cyclic collector's passes over a large model find nothing (and a
        # 50 MB model is millions of objects to walk); the next allocation
        # after the work collects what it left.
        with collector_paused():
            return work(item)
    except Exception as e:  # kept with its file; the batch goes on
        if showing_tracebacks():
            raise
        return Failed(item, f"{type(e).__name__}: {e}")


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C (SIGINT, sent to the whole process group by
    a terminal) is the parent's to handle; the parent stops the workers."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool) -> None:
    """Ends ``pool``'s workers now (after Ctrl-C), rather than after the
    files they are working on."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _pool(jobs: int):
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=jobs, mp_context=_context(),
                               initializer=_ignore_interrupts)
def _in_executor(work, items: list, executor, ahead: int,
                 chunk: int) -> Iterator[tuple[Any, Any]]:
    pending: deque = deque()  # (items, the future of their results)
    next_index = 0
    try:
        while next_index < len(items) or pending:
            while next_index < len(items) and len(pending) < ahead:
                some = items[next_index:next_index + chunk]
                pending.append((some, executor.submit(_guarded_each, work, some)))
                next_index += len(some)
            some, future = pending.popleft()
            try:
                results = future.result()
            except Exception as e:  # the task, not the work, failed (the work's own are kept)
                if showing_tracebacks():
                    raise
                if len(some) == 1:
                    results = [Failed(some[0], f"the task working on this file failed "
                                               f"({type(e).__name__}: {e})")]
                else:  # each on its own again: only the one that fails the task fails
                    results = [result for _, result in _in_executor(work, some, executor,
                                                                    ahead, 1)]
            yield from zip(some, results)
    finally:
        for _, future in pending:  # (a consumer that stopped early: the rest is not run)
            future.cancel()


def _guarded_each(work: Callable[[Any], Any], items: list) -> list:
    """:func:`_guarded` of each item (one task of several files)."""
    return [_guarded(work, item) for item in items]


def _context():
    import multiprocessing
    # fork starts a worker without importing mbparse again (the parent has);
    # where there is no fork, the platform's default is used.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _in_pool(work, items: list, jobs: int) -> Iterator[tuple[Any, Any]]:
    from concurrent.futures.process import BrokenProcessPool
    suspects: list = []
    while items:
        pool = _pool(jobs)
        pending: deque = deque()  # (item, its future)
        next_index = 0
        interrupted = False
        try:
            while next_index < len(items) or pending:
                while next_index < len(items) and len(pending) < jobs * _AHEAD_PER_WORKER:
                    item = items[next_index]
                    pending.append((item, pool.submit(_guarded, work, item)))
                    next_index += 1
                item, future = pending[0]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    # Some file in flight killed its worker; which one is
                    # not known, so each of them runs again on its own.
                    suspects = [queued for queued, _ in pending]
                    break
                pending.popleft()
                yield item, result
        except (KeyboardInterrupt, GeneratorExit):
            interrupted = True
            _stop(pool)
            raise
        finally:
            pool.shutdown(wait=not (suspects or interrupted), cancel_futures=True)
        rest = items[next_index:]
        for item in suspects:
            yield item, _alone(work, item)
        suspects = []
        items = rest


def _alone(work, item) -> Any:
    """``work(item)`` in a process of its own: the file that kills its
    worker is the only one to fail."""
    from concurrent.futures.process import BrokenProcessPool
    with _pool(1) as pool:
        try:
            return pool.submit(_guarded, work, item).result()
        except KeyboardInterrupt:
            _stop(pool)
            raise
        except BrokenProcessPool:
            return Failed(item, "the worker process working on this file died (a crash, or "
                                "killed for lack of memory)")
