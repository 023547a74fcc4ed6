#!/usr/bin/env python3
"""CPU time and peak memory of every command on huge models, the load apart
from what each command does after it.

Writes large synthetic files (see large_models.py: URDF, SDFormat, MJCF and
model directives; chains, trees, free bodies, nesting near the depth limit)
and, for each, in a fresh process per file and load:

- loads it as ``inspect`` and ``tree`` do (finalized), then, each in a
  forked child that starts from the loaded model: ``inspect`` (the text
  outline), ``inspect --json``, ``tree`` (the DOT text);
- loads it as ``check`` does (every error collected, SAP plant), then
  ``check``'s model rules and text report;
- loads it as ``convert`` does (continuous, not finalized), then writes it
  as URDF, SDFormat and MJCF; a URDF also goes through libsdformat's URDF to
  SDFormat conversion (``convert --to sdf``'s default), timed whole, load
  included, since that conversion reads the file itself.

Each row: the CPU seconds of the load and of the command's own part, and the
peak resident memory of the command (the larger of the load's peak and the
forked child's, which starts from the loaded model), and after the output,
how far the command's own part raised the resident memory. The viewer
(``mbparse view``) has no non-interactive output and is not measured.

Usage:
  python benchmarks/bench_commands.py [--sizes-mb 8] [--formats urdf,sdf,mjcf,dmd]
      [--shapes chain,tree,flat,deep,frames] [--stages inspect,json,tree,check,convert]
      [--folder DIR] [--keep]
CPU times are the process's own (``time.process_time``), which the load of
other programs on the machine moves far less than wall time.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from large_models import SUFFIX, write_model  # noqa: E402

SHAPES = {"urdf": ("chain", "tree"), "sdf": ("chain", "tree", "flat", "deep"),
          "mjcf": ("chain", "tree", "flat"), "dmd": ("chain", "tree", "flat", "frames")}

# Run in a fresh process: argv = file, stages. Prints one line per stage:
# "stage load_cpu stage_cpu peak_kb" (load rows: stage_cpu is the load's).
CHILD = r'''
import io, os, resource, sys, time
path, stages = sys.argv[1], sys.argv[2].split(",")

def peak_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

def forked(name, load_cpu, work):
    """Runs work() in a child forked from the loaded process."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            t0, start = time.process_time(), rss_kb()
            note = work() or ""
            line = (f"{name} {load_cpu:.2f} {time.process_time() - t0:.2f} "
                    f"{max(load_peak, peak_kb())} +{(peak_kb() - start) // 1024}MB,{note}\n")
        except BaseException as e:
            line = f"{name} {load_cpu:.2f} - - failed: {type(e).__name__}: {str(e)[:150]}\n"
        os.write(w, line.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        text = f.read()
    os.waitpid(pid, 0)
    sys.stdout.write(text)
    sys.stdout.flush()

load_peak = 0

def load_row(name, t0):
    global load_peak
    cpu = time.process_time() - t0
    load_peak = peak_kb()
    print(f"{name} - {cpu:.2f} {peak_kb()}", flush=True)
    return cpu

def as_loaded():
    from mbparse.loading import LoadOptions, load
    from mbparse.summary import summary_json
    from mbparse.commands.inspect import outline_text
    from mbparse.tree import to_dot
    t0 = time.process_time()
    loaded = load(path, LoadOptions())
    cpu = load_row("load", t0)
    def outline():
        return f"{len(outline_text(loaded, path)) / 1e6:.1f}MB"
    def as_json():
        text = summary_json(loaded.plant, loaded.parser, loaded.instances, {"file": path})
        return f"{len(text) / 1e6:.1f}MB"
    def dot():
        return f"{len(to_dot(loaded.plant, os.path.basename(path))) / 1e6:.1f}MB"
    for name, work in (("inspect", outline), ("json", as_json), ("tree", dot)):
        if name in stages:
            forked(name, cpu, work)

def as_checked():
    from mbparse.lint.runner import CHECK_OPTIONS, lint_reading, read_for_check
    from mbparse.lint.config import settings_from
    from mbparse.lint.report import as_text
    t0 = time.process_time()
    reading = read_for_check(path, CHECK_OPTIONS)
    cpu = load_row("load-check", t0)
    def check():
        found = lint_reading(path, reading, CHECK_OPTIONS)
        text = as_text(settings_from(None).chosen(found), [path])
        return f"{len(found)}findings"
    forked("check", cpu, check)

def as_converted():
    from mbparse.convert.files import ConvertFileOptions, convert_file
    from mbparse.convert.writers import write
    from mbparse.loading import load
    options = ConvertFileOptions()
    t0 = time.process_time()
    loaded = load(path, options.load, finalize=False)
    cpu = load_row("load-convert", t0)
    for target in ("urdf", "sdf", "mjcf"):
        def convert(target=target):
            text, report = write(loaded.plant, loaded.scene_graph, target, os.getcwd(),
                                 None, loaded.parser.package_map(), False, source=path)
            return f"{len(text) / 1e6:.1f}MB,{len(report.losses)}losses"
        forked(f"to-{target}", cpu, convert)
    if path.endswith(".urdf"):
        def urdf_to_sdf():
            return f"{len(convert_file(path, 'sdf', None, options).text) / 1e6:.1f}MB"
        forked("urdf->sdf(whole)", 0.0, urdf_to_sdf)

which = sys.argv[3]
{"loaded": as_loaded, "check": as_checked, "convert": as_converted}[which]()
'''


def run_child(path: str, stages: list[str], which: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", CHILD, path, ",".join(stages), which],
                         capture_output=True, text=True, check=False)
    lines = out.stdout.splitlines()
    if out.returncode != 0:
        lines.append(f"{which} - - - failed: {out.stderr.strip().splitlines()[-1:]}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes-mb", default="8")
    ap.add_argument("--formats", default="urdf,sdf,mjcf,dmd")
    ap.add_argument("--shapes", default="chain,tree,flat,deep,frames",
                    help="shapes to write, where the format has them")
    ap.add_argument("--stages", default="inspect,json,tree,check,convert")
    ap.add_argument("--folder", help="write the files here (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the files written")
    args = ap.parse_args()
    stages = args.stages.split(",")
    folder = args.folder or tempfile.mkdtemp(prefix="mbparse_bench_")
    os.makedirs(folder, exist_ok=True)
    print(f"{'file':<24} {'bodies':>7} {'MB':>5} {'stage':<17} {'load s':>7} {'cmd s':>7} "
          f"{'peak MB':>8}  output", flush=True)
    for size in (float(s) for s in args.sizes_mb.split(",")):
        for fmt in args.formats.split(","):
            for shape in (s for s in args.shapes.split(",") if s in SHAPES[fmt]):
                path = os.path.join(folder, f"{fmt}_{shape}_{size:g}MB{SUFFIX[fmt]}")
                bodies = write_model(path, fmt, size, shape)
                mb = os.path.getsize(path) / 2**20
                label = os.path.basename(path)
                groups = [("loaded", [s for s in ("inspect", "json", "tree") if s in stages])]
                groups += [(s, [s]) for s in ("check", "convert") if s in stages]
                for which, wanted in groups:
                    if not wanted:
                        continue
                    for line in run_child(path, wanted, which):
                        name, load_cpu, cpu, kb, *note = line.split(" ", 4)
                        peak = f"{int(kb) / 1024:8.0f}" if kb.isdigit() else f"{kb:>8}"
                        print(f"{label:<24} {bodies:>7} {mb:5.1f} {name:<17} {load_cpu:>7} "
                              f"{cpu:>7} {peak}  {' '.join(note)}", flush=True)
                if not args.keep:
                    for leftover in (path, path.split(".")[0] + "_part.urdf"):
                        if os.path.exists(leftover):
                            os.remove(leftover)
    if not args.keep and not args.folder:
        os.rmdir(folder)


if __name__ == "__main__":
    main()
