"""The flags of the commands that work over many files (``inspect``,
``check``, ``convert``) and the run they make of them.

``-j N``: worker processes on this machine. ``--dask ADDRESS``: the files
run on a Dask cluster instead (a scheduler's address, or ``local:N`` for a
cluster of N worker processes started here); needs ``mbparse[dask]``.
``--progress``: a progress bar on standard error. ``--resume OUT.jsonl``:
the JSON lines go to OUT.jsonl, and a run that was stopped starts again
where it stopped: the files OUT.jsonl has a line for are skipped and the
new lines are appended. Results come out in the order of the files in every
case (:func:`mbparse.batch.run_batch`).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Iterable, Iterator, TextIO

from ..batch import add_jobs_argument, run_batch

DASK_INSTALL_HINT = "pip install 'mbparse[dask]' (Dask's distributed scheduler)"
# Tasks submitted to a Dask cluster per worker thread beyond the one being
# written out: enough to keep every worker busy while results stream.
_AHEAD_PER_DASK_THREAD = 4
# Files per Dask task, at most: a task costs the cluster milliseconds of its
# own (scheduling, sending the work and the results), so one file per task
# ran the corpus at a third of one core's rate; 32 files a task, at that
# rate. Fewer when there are few files, so that every worker gets some.
_MOST_FILES_PER_DASK_TASK = 32
# Characters of a file's output written at a time (Batch.write): below the C
# heap's threshold for memory of its own (128 KiB), so each piece's encoding
# reuses the last one's memory.
_WRITE_PIECE = 1 << 16


def add_batch_arguments(p: argparse.ArgumentParser) -> None:
    """Adds ``-j``, ``--dask``, ``--progress`` and ``--resume`` to ``p``."""
    add_jobs_argument(p)
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run the files on a Dask cluster: a scheduler's address "
                        "(tcp://host:8786), or local:N for N worker processes started here; "
                        f"needs {DASK_INSTALL_HINT}")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="a progress bar on standard error; auto shows it for several files "
                        "when standard error is a terminal")
    p.add_argument("--resume", metavar="OUT.jsonl",
                   help="write the JSON lines to OUT.jsonl; when it has lines already (a run "
                        "that was stopped), skip the files they are of and append the rest")


class ProgressBar:
    """A one-line progress bar, redrawn in place on a text stream."""

    def __init__(self, total: int, stream: TextIO, width: int = 30):
        self.total, self.stream, self.width, self.done = total, stream, width, 0

    def show(self, label: str) -> None:
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        label = label if len(label) <= 40 else "…" + label[-39:]
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label:<40}")
        self.stream.flush()

    def step(self, label: str) -> None:
        self.done += 1
        self.show(label)

    def close(self) -> None:
        self.stream.write("\r" + " " * (self.width + 60) + "\r")
        self.stream.flush()


def wants_progress(mode: str, n: int) -> bool:
    """Whether ``--progress MODE`` shows a bar over ``n`` files."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    return n > 1 and sys.stderr.isatty()


class BatchError(Exception):
    """A batch that cannot start (a bad --resume file, no Dask, no scheduler)."""


def files_done(path: str) -> set[str]:
    """The files the JSON lines of ``path`` are of (their ``"file"``); none
    when it does not exist. A last line cut short (the run was killed while
    writing it) is removed, so that its file runs again and the appended
    lines start on a line of their own. Read a line at a time: the lines of
    a million files' summaries need not fit in memory."""
    try:
        f = open(path, "r+b")
    except FileNotFoundError:
        return set()
    except OSError as e:
        raise BatchError(f"--resume: cannot read '{path}': {e.strerror or e}") from None
    done = set()
    with f:
        _drop_cut_line(f)
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            name = _file_of(line)
            if name is None:
                raise BatchError(f"--resume: '{path}' line {number} is not a JSON line of one "
                                 "file's result (an object with \"file\"); give the output of "
                                 "an earlier run of this command, or a new file")
            done.add(name)
    return done


def _drop_cut_line(f) -> None:
    """Truncates ``f`` (binary, read-write) after its last newline."""
    end = f.seek(0, os.SEEK_END)
    position = end
    while position > 0:
        step = min(position, 1 << 16)
        f.seek(position - step)
        block = f.read(step)
        newline = block.rfind(b"\n")
        if newline >= 0:
            position = position - step + newline + 1
            break
        position -= step
    if position < end:
        f.truncate(position)
    f.seek(0)


# A line longer than this is not parsed whole to find its "file" (a large
# model's summary is tens of MB): the key is found where the commands write
# it, first (check, convert) or last (inspect).
_PARSED_WHOLE = 1 << 16


def _file_of(line: bytes) -> str | None:
    """The ``"file"`` of one JSON line (an object), or None."""
    import json
    if len(line) <= _PARSED_WHOLE:
        try:
            record = json.loads(line)
        except ValueError:
            return None
        name = record.get("file") if isinstance(record, dict) else None
        return name if isinstance(name, str) else None
    from json.decoder import scanstring
    text = line.decode("utf-8", errors="replace").rstrip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    # (a '"' inside a JSON string is escaped: '"file": "' there is the key)
    for at in (text.find('"file": "') if text.startswith('{"file": "') else -1,
               text.rfind(', "file": "')):
        if at < 0:
            continue
        start = text.index('"file": "', at) + len('"file": "')
        try:
            name, after = scanstring(text, start)
        except ValueError:
            return None
        if at == 1 or after == len(text) - 1:  # (the first key, or the last)
            return name
    return None


def dask_client(address: str):
    """A Dask client of the scheduler at ``address``, or of a cluster of N
    worker processes started here for ``local:N``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BatchError(f"--dask needs Dask: {DASK_INSTALL_HINT}") from None
    if address.startswith("local:"):
        try:
            workers = int(address[len("local:"):])
        except ValueError:
            workers = 0
        if workers < 1:
            raise BatchError(f"--dask local:N wants a number of workers, not '{address}'")
        import logging
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        return Client(cluster)
    try:
        return Client(address, timeout=30)
    except (OSError, TimeoutError, ValueError) as e:
        raise BatchError(f"--dask: no Dask scheduler at '{address}': {e}") from None


def dask_batching(client, files: int) -> tuple[int, int]:
    """(tasks ahead, files per task) for ``files`` files on ``client``'s
    cluster (:func:`mbparse.batch.run_batch`'s ``ahead`` and ``chunk``)."""
    threads = sum(client.nthreads().values()) or 1
    ahead = threads * _AHEAD_PER_DASK_THREAD
    return ahead, max(1, min(_MOST_FILES_PER_DASK_TASK, files // ahead))


class Batch:
    """One command's run over many files: which still run (``items``), where
    their lines go (:meth:`write`), the executor and the progress bar.

    ``key`` gives an item's file (the ``"file"`` of its JSON line)."""

    def __init__(self, args: argparse.Namespace, items: Iterable[Any],
                 key: Callable[[Any], str] = str, out: TextIO | None = None) -> None:
        self.args = args
        items = list(items)
        self.skipped = 0
        self.out = out if out is not None else sys.stdout
        self._own_out = False
        self._client = None
        self.bar: ProgressBar | None = None
        resume = getattr(args, "resume", None)
        if resume:
            done = files_done(resume)
            kept = [item for item in items if key(item) not in done]
            self.skipped = len(items) - len(kept)
            items = kept
            folder = os.path.dirname(os.path.abspath(resume))
            os.makedirs(folder, exist_ok=True)
            self.out = open(resume, "a", encoding="utf-8")
            self._own_out = True
        self.items = items
        address = getattr(args, "dask", None)
        if address and items:
            try:
                self._client = dask_client(address)
            except BatchError:
                self.close()
                raise
        self.bar = (ProgressBar(len(items), sys.stderr)
                    if wants_progress(getattr(args, "progress", "never"), len(items)) else None)

    def results(self, work: Callable[[Any], Any],
                warm_up: Callable[[], None] | None = None) -> Iterator[tuple[Any, Any]]:
        """``(item, result)`` of every item still to run, in their order
        (see :func:`mbparse.batch.run_batch`); the bar steps after each."""
        executor, ahead, chunk = None, None, 1
        if self._client is not None:
            executor = self._client.get_executor(pure=False)
            ahead, chunk = dask_batching(self._client, len(self.items))
        for item, result in run_batch(work, self.items, self.args.jobs, warm_up,
                                      executor=executor, ahead=ahead, chunk=chunk):
            yield item, result
            if self.bar:
                self.bar.step(str(item[0] if isinstance(item, tuple) else item))

    def write(self, text: str) -> None:
        """Writes one file's output and flushes it (a stopped run keeps it).
        A large model's text (inspect --json of a 50 MB model is 120 MB) is
        written in pieces: each is encoded into memory the C heap reuses,
        where the whole text would be encoded into as much new memory."""
        write = self.out.write
        if len(text) <= _WRITE_PIECE:
            write(text)
        else:
            for start in range(0, len(text), _WRITE_PIECE):
                write(text[start:start + _WRITE_PIECE])
        self.out.flush()

    def close(self) -> None:
        if self.bar:
            self.bar.close()
            self.bar = None
        if self._own_out:
            self.out.close()
            self._own_out = False
        if self._client is not None:
            cluster = self._client.cluster
            self._client.close()
            if cluster is not None:
                cluster.close()
            self._client = None
