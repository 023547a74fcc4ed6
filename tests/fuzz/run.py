"""Running fuzz inputs: one input loaded under limits, outcomes classified,
campaigns over many inputs (optionally in worker processes).

Outcomes:

- ``ok``: a model loaded and every number in it is meaningful;
- ``error``: a ParseError that names its file (and, for the formats read line
  by line, a line) -- the promised answer to bad input;
- ``unlocated``: a ParseError without a file -- a finding, not a crash;
- ``crash``: any other exception from inside mbparse;
- ``hang``: the per-input time limit ran out: that many seconds of CPU time
  (so that a busy machine does not turn a slow input into a hang), or three
  times that of wall-clock time (a read that blocks);
- ``memory``: the memory guard tripped (MemoryError);
- ``nonsense``: a model loaded with NaN or an infinity where a number must be
  finite (poses, masses, inertias, axes, damping, ...);
- ``skipped``: the fuzzer could not make the input (its mutation ran out of
  memory, say) -- a fault of the harness, counted and shown, never a finding
  about mbparse.
"""
from __future__ import annotations

import hashlib
import math
import os
import random
import shutil
import signal
import tempfile
import traceback
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import mutate as mutators

REPO = Path(__file__).resolve().parents[2]
# The seed files: the shared corpus beside the project (MBPARSE_CORPUS names another).
CORPUS = Path(os.environ.get("MBPARSE_CORPUS") or REPO.parent / "shared" / "corpus")
REGRESSIONS = Path(__file__).resolve().parent / "regressions"

SUFFIX = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "dmd": ".dmd.yaml", "obj": ".obj"}
FORMATS = tuple(SUFFIX)
FINE = ("ok", "error")
BAD = ("crash", "hang", "memory", "nonsense")

class Timeout(BaseException):
    """The per-input time limit ran out (a BaseException: readers' ``except
    Exception`` cannot swallow it)."""


@dataclass
class Outcome:
    category: str
    key: str = ""
    detail: str = ""


def seed_files(fmt: str, corpus: Path = CORPUS) -> list[Path]:
    """The corpus files of a format, sorted (so a campaign is reproducible)."""
    files = sorted(p for p in corpus.rglob("*" + SUFFIX[fmt]) if p.is_file())
    if fmt == "mjcf":
        files = [p for p in files if b"<mujoco" in p.read_bytes()[:4096]]
    elif fmt in ("sdf", "obj"):
        # A mutant costs a read of its whole seed. Below 400 kB a campaign
        # makes several times the inputs per CPU-second (the 17 OBJ meshes
        # above it are 0.4-1.9 MB), and the seeds kept still reach every
        # reading path: the OBJ meshes of 60-390 kB are read in blocks of
        # arrays like the large ones.
        files = [p for p in files if p.stat().st_size < 400_000]
    if not files:
        raise SystemExit(f"no {fmt} seed files under {corpus} (set MBPARSE_CORPUS)")
    return files


def _innermost_mbparse_frame(tb) -> str:
    frames = [f for f in traceback.extract_tb(tb) if "/mbparse/" in f.filename]
    if not frames:
        return "<outside mbparse>"
    f = frames[-1]
    return f"{f.filename.split('/mbparse/')[-1]}:{f.name}"


def non_finite_in_plant(plant, warned: frozenset = frozenset()) -> list[str]:
    """Where a loaded plant holds NaN, or an infinity outside a limit: body
    mass properties and poses (in the world, at the default positions),
    frame poses, joint axes, damping, default positions and limits, geometry
    poses and sizes. A limit whose infinity
    is on the wrong side (a lower limit of +inf), which Drake keeps, is
    nonsense only when no ``limit-infinite`` warning (in ``warned``, the
    codes of the load's warnings) said so."""
    out = []

    def check(where: str, values, allow_inf: bool = False) -> None:
        for v in values:
            if isinstance(v, float) and (math.isnan(v) or (math.isinf(v) and not allow_inf)):
                out.append(f"{where}={v}")
                return

    for body in plant.bodies():
        M = body.default_spatial_inertia
        check(f"/bodies/{body.name}/mass", (M.mass, *M.com, *M.I_cm))
        check(f"/bodies/{body.name}/inertia", M.inertia_about_origin())
    for frame in plant.frames():
        check(f"/frames/{frame.name}/p", (*frame.X_BF.p, *frame.X_BF.R[0], *frame.X_BF.R[1],
                                         *frame.X_BF.R[2]))
    for joint in plant.joints():
        check(f"/joints/{joint.name}/damping", joint.damping)
        check(f"/joints/{joint.name}/default_positions", joint.default_positions)
        for k, v in joint.extra_summary().items():
            check(f"/joints/{joint.name}/{k}", v if isinstance(v, (list, tuple)) else [v])
        for lo, hi, what in ((joint.pos_lower, joint.pos_upper, "pos"),
                             (joint.vel_lower, joint.vel_upper, "vel"),
                             (joint.acc_lower, joint.acc_upper, "acc")):
            check(f"/joints/{joint.name}/{what}_limits", (*lo, *hi), allow_inf=True)
            if ((any(v == math.inf for v in lo) or any(v == -math.inf for v in hi))
                    and "limit-infinite" not in warned):
                out.append(f"/joints/{joint.name}/{what}_limits inverted infinity")
    if plant.is_finalized():
        for body, X in zip(plant.bodies(), plant.calc_body_poses_in_world()):
            check(f"/bodies/{body.name}/X_WB", (*X.p, *X.R[0], *X.R[1], *X.R[2]))
    sg = plant.scene_graph
    for g in sg.geometries() if sg is not None else ():
        X = g.X_BG
        check(f"/geometries/{g.name}/X_BG", (*X.p, *X.R[0], *X.R[1], *X.R[2]))
        summary = g.shape.summary() if g.shape is not None else {}
        check(f"/geometries/{g.name}/shape",
              [v for v in summary.values() if isinstance(v, float)]
              + [x for v in summary.values() if isinstance(v, (list, tuple)) for x in v
                 if isinstance(x, float)])
    return out


def classify_load(path: str) -> Outcome:
    """Loads ``path`` as every command does and classifies what happened. An
    input refused with an error is loaded again as ``mbparse check`` loads
    it (every error collected, reading going on after each): the readers
    then meet what the first error stopped them before."""
    from mbparse.diagnostics import ParseError
    from mbparse.loading import LoadOptions, load
    collecting = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                loaded = load(path)
            except ParseError as first:
                collecting = True
                try:
                    load(path, LoadOptions(collect_errors=True))
                except ParseError:
                    pass
                raise first
            warned = frozenset(d.code for d in loaded.warnings)
            bad = non_finite_in_plant(loaded.plant, warned)
    except Timeout:
        return Outcome("hang", "hang")
    except ParseError as e:
        d = e.diagnostic
        if not d.file:
            return Outcome("unlocated", d.message[:80], str(d)[:500])
        if len(d.message) > 2000:
            return Outcome("crash", "ParseError message longer than 2000 characters",
                           d.message[:300])
        return Outcome("error")
    except MemoryError:
        return Outcome("memory", "MemoryError")
    except RecursionError as e:
        return Outcome("crash", f"RecursionError @ {_innermost_mbparse_frame(e.__traceback__)}",
                       traceback.format_exc()[-3000:])
    except Exception as e:  # noqa: BLE001 -- classifying is the point
        mode = " (collecting errors, as check)" if collecting else ""
        return Outcome("crash", f"{type(e).__name__} @ {_innermost_mbparse_frame(e.__traceback__)}"
                                f"{mode}", traceback.format_exc()[-3000:])
    if bad:
        return Outcome("nonsense", "non-finite " + bad[0].split("[")[0].rsplit("/", 1)[-1],
                       ", ".join(bad[:5]))
    return Outcome("ok")


WALL_FACTOR = 3.0


def run_with_limit(fn, seconds: float):
    """fn() limited to ``seconds`` of CPU time (SIGPROF) and to
    ``WALL_FACTOR`` times that of wall-clock time (SIGALRM, for a read that
    blocks); main thread only, no limit elsewhere."""
    import threading
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        return fn()

    def on_timer(signum, frame):
        raise Timeout()
    old_prof = signal.signal(signal.SIGPROF, on_timer)
    old_alarm = signal.signal(signal.SIGALRM, on_timer)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        return fn()
    except Timeout:
        return Outcome("hang", "hang")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_alarm)


# Inputs are written to memory-backed storage where there is some.
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Workdir:
    """A scratch folder per seed file holding links to the seed's neighbours,
    so that a mutated file still finds its meshes, includes and package.xml.
    Worker processes share one (each writes its own input file); the one
    who made it removes it with :meth:`remove`."""

    def __init__(self, root: str | None = None):
        self.root = Path(root or tempfile.mkdtemp(prefix="mbparse-fuzz-", dir=SCRATCH))
        self._made: dict[Path, Path] = {}

    def remove(self) -> None:
        """Deletes the folder (the links in it, never what they point to)."""
        shutil.rmtree(self.root, ignore_errors=True)

    def folder_for(self, seed: Path | None) -> Path:
        if seed is None:
            d = self.root / "plain"
            d.mkdir(exist_ok=True)
            return d
        src = seed.parent
        if src not in self._made:
            d = self.root / hashlib.sha1(str(src).encode()).hexdigest()[:12]
            d.mkdir(exist_ok=True)
            for entry in src.iterdir():
                link = d / entry.name
                if not link.exists() and not link.is_symlink():
                    try:
                        link.symlink_to(entry)
                    except FileExistsError:  # another worker made it first
                        pass
            self._made[src] = d
        return self._made[src]

    def write(self, fmt: str, data: bytes, seed: Path | None) -> str:
        path = self.folder_for(seed) / f"zz_fuzz_input_{os.getpid()}{SUFFIX[fmt]}"
        path.write_bytes(data)
        return str(path)


def classify_bytes(fmt: str, data: bytes, workdir: Workdir, seed: Path | None = None,
                   time_limit: float = 10.0) -> Outcome:
    path = workdir.write(fmt, data, seed)
    return run_with_limit(lambda: classify_load(path), time_limit)


_SEED_BYTES: dict[Path, bytes] = {}


def make_input(fmt: str, seed: int, index: int, seeds: list[Path]) -> tuple[bytes, Path]:
    """Input number ``index`` of the campaign ``seed`` (deterministic)."""
    rng = random.Random(f"{fmt}:{seed}:{index}")
    source = seeds[rng.randrange(len(seeds))]
    data = _SEED_BYTES.get(source)
    if data is None:  # each seed file is read once per process
        data = _SEED_BYTES[source] = source.read_bytes()
    return mutators.mutate(fmt, rng, data), source


@dataclass
class Report:
    fmt: str
    inputs: int = 0
    counts: Counter = field(default_factory=Counter)
    # key -> (count, first index, detail)
    findings: dict[str, list] = field(default_factory=dict)

    def add(self, index: int, outcome: Outcome) -> None:
        self.inputs += 1
        self.counts[outcome.category] += 1
        if outcome.category not in FINE:
            key = f"{outcome.category}: {outcome.key}"
            if key in self.findings:
                self.findings[key][0] += 1
            else:
                self.findings[key] = [1, index, outcome.detail]

    def bad(self) -> int:
        return sum(self.counts[c] for c in BAD)

    def text(self) -> str:
        lines = [f"{self.fmt}: {self.inputs} inputs, " + ", ".join(
            f"{c} {self.counts[c]}" for c in ("ok", "error", "unlocated") + BAD
            + (("skipped",) if self.counts["skipped"] else ()))]
        for key, (n, index, detail) in sorted(self.findings.items(), key=lambda kv: -kv[1][0]):
            lines.append(f"  {n:7d}  {key}  (first: input {index})")
        return "\n".join(lines)


_WORKER: dict = {}


def _worker_init(fmt: str, seed: int, memory_mb: int, time_limit: float,
                 seeds: list[Path], root: str) -> None:
    if memory_mb > 0:
        import resource
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _WORKER.update(fmt=fmt, seed=seed, seeds=seeds, workdir=Workdir(root),
                   time_limit=time_limit)


def _worker_chunk(bounds: tuple[int, int]) -> list[tuple[int, Outcome]]:
    w = _WORKER
    out = []
    for index in range(*bounds):
        try:
            data, source = make_input(w["fmt"], w["seed"], index, w["seeds"])
        except (Exception, MemoryError, RecursionError) as e:  # noqa: BLE001
            out.append((index, Outcome("skipped", f"making the input: {type(e).__name__}")))
            continue
        out.append((index, classify_bytes(w["fmt"], data, w["workdir"], source,
                                          w["time_limit"])))
    return out


def campaign(fmt: str, seed: int, inputs: int, jobs: int = 0, time_limit: float = 10.0,
             memory_mb: int = 0, start: int = 0, progress=None,
             max_seconds: float = 0.0) -> Report:
    """Runs inputs ``start``..``start+inputs`` of campaign ``seed``; ``jobs=0``
    runs them in this process (no memory guard), otherwise in worker processes
    each limited to ``memory_mb`` of address space. With ``max_seconds``, the
    campaign stops after the chunk of inputs that passes that much time (the
    report counts the inputs run)."""
    import time
    deadline = time.monotonic() + max_seconds if max_seconds > 0 else None
    report = Report(fmt)
    chunks = [(i, min(i + 200, start + inputs)) for i in range(start, start + inputs, 200)]
    # Found here, not in the workers: a worker whose start fails is restarted
    # by the pool without end.
    seeds = seed_files(fmt)
    workdir = Workdir()
    args = (fmt, seed, memory_mb, time_limit, seeds, str(workdir.root))
    if jobs <= 0:
        _worker_init(*args[:2], 0, *args[3:])
        results = map(_worker_chunk, chunks)
        pool = None
    else:
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        pool = ctx.Pool(jobs, initializer=_worker_init, initargs=args, maxtasksperchild=50)
        results = pool.imap_unordered(_worker_chunk, chunks)
    try:
        for chunk in results:
            for index, outcome in chunk:
                report.add(index, outcome)
            if progress is not None:
                progress(report)
            if deadline is not None and time.monotonic() > deadline:
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        workdir.remove()
    return report
