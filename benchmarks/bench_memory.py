#!/usr/bin/env python3
"""Peak memory and time of loading large synthetic URDF files.

Writes URDF files of about the sizes asked (``--sizes-mb``, default 1 and
7), or of the numbers of links asked (``--links 10000,80000``), each link
with an inertial, a box visual with an origin and a sphere
collision, each joint revolute with an origin, axis and limits; shaped as a
chain or as a binary tree, written compact (one line) or indented (every
element on its line, as editors and xacro write them). For each file it runs,
each in a fresh process:

- ``library``: ``Parser(plant, scene_graph).add_models(file)`` and
  ``plant.finalize()``, with the size limits lifted;
- ``inspect --json``: the whole command, ``--no-size-limits``, its JSON
  written to /dev/null;

and prints the peak resident set size (the child's ``ru_maxrss``), that
peak over the file's size, the CPU time (user + system, which a busy
machine moves less than the wall time) and the wall time. The 82,918-link
chain of issue 30 is ``--sizes-mb 50 --shapes chain --layouts indented``. Memory should be in
proportion to the model (the same multiple of the file size at every
size) and time linear in the size. Nothing here is a test; the machine's
load moves the times.

Usage:
  python benchmarks/bench_memory.py [--sizes-mb 1,7 | --links 10000,20000]
      [--shapes chain,tree] [--layouts compact,indented] [--modes library,inspect]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

LIBRARY = """
import sys
from mbparse import MultibodyPlant, Parser, SceneGraph
from mbparse.limits import SizeLimits
plant = MultibodyPlant(0.001)
parser = Parser(plant, SceneGraph())
parser.set_size_limits(SizeLimits.none())
parser.add_models(sys.argv[1])
plant.finalize()
"""
# Runs its arguments as a child and prints the child's peak RSS in kB and
# its CPU time (user + system) in seconds.
MEASURE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def link_text(i: int, nl: str) -> str:
    return (f'<link name="l{i}">{nl}<inertial>{nl}<origin xyz="0 0 0.05" rpy="0 0 0"/>{nl}'
            f'<mass value="1"/>{nl}<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" '
            f'iyz="0"/>{nl}</inertial>{nl}<visual>{nl}<origin xyz="0 0 0.05" rpy="0 0 0"/>{nl}'
            f'<geometry>{nl}<box size="0.1 0.1 0.1"/>{nl}</geometry>{nl}</visual>{nl}'
            f'<collision>{nl}<geometry>{nl}<sphere radius="0.05"/>{nl}</geometry>{nl}'
            f'</collision>{nl}</link>{nl}')


def joint_text(i: int, parent: int, nl: str) -> str:
    return (f'<joint name="j{i}" type="revolute">{nl}<parent link="l{parent}"/>{nl}'
            f'<child link="l{i}"/>{nl}<origin xyz="0 0 0.1" rpy="0 0 0"/>{nl}'
            f'<axis xyz="0 0 1"/>{nl}<limit lower="-1" upper="1" effort="10" '
            f'velocity="1"/>{nl}</joint>{nl}')


def write_urdf(path: str, megabytes: float, shape: str, layout: str) -> int:
    """Writes the file; returns its number of links."""
    nl = "\n  " if layout == "indented" else ""
    per_link = len(link_text(10_000, nl)) + len(joint_text(10_000, 5000, nl))
    n = max(2, int(megabytes * 1e6 / per_link))
    with open(path, "w") as f:
        f.write(f'<?xml version="1.0"?>\n<robot name="big">{nl}')
        for i in range(n):
            f.write(link_text(i, nl))
        for i in range(1, n):
            f.write(joint_text(i, i - 1 if shape == "chain" else (i - 1) // 2, nl))
        f.write("</robot>\n")
    return n


def peak_kb(command: list[str]) -> tuple[int, float, float]:
    """The peak RSS (kB) of ``command`` run as a fresh process, its CPU time
    and its wall time."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True,
                         text=True, check=True).stdout
    kb, cpu = out.split()[-2:]
    return int(kb), float(cpu), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes-mb", default="1,7")
    ap.add_argument("--links", default="",
                    help="numbers of links instead of sizes (e.g. 10000,20000,40000,80000)")
    ap.add_argument("--shapes", default="chain,tree")
    ap.add_argument("--layouts", default="compact,indented")
    ap.add_argument("--modes", default="library,inspect")
    args = ap.parse_args()
    modes = {"library": [sys.executable, "-c", LIBRARY],
             "inspect": [sys.executable, "-m", "mbparse.cli", "inspect", "--json",
                         "--no-size-limits"]}
    print(f"{'file':<28} {'links':>7} {'MB':>6} {'mode':<8} {'peak MB':>8} {'x size':>7} "
          f"{'cpu s':>7} {'wall s':>7}")
    sizes = ([("links", int(n)) for n in args.links.split(",")] if args.links
             else [("MB", float(s)) for s in args.sizes_mb.split(",")])
    with tempfile.TemporaryDirectory() as folder:
        for unit, size in sizes:
            for shape in args.shapes.split(","):
                for layout in args.layouts.split(","):
                    label = f"{shape}_{layout}_{size:g}{unit}.urdf"
                    path = os.path.join(folder, label)
                    if unit == "links":  # (the size that makes that many links)
                        nl = "\n  " if layout == "indented" else ""
                        per_link = (len(link_text(10_000, nl))
                                    + len(joint_text(10_000, 5000, nl)))
                        links = write_urdf(path, (size + 0.5) * per_link / 1e6, shape, layout)
                    else:
                        links = write_urdf(path, size, shape, layout)
                    mb = os.path.getsize(path) / 2**20
                    for mode in args.modes.split(","):
                        kb, cpu, wall = peak_kb([*modes[mode], path])
                        print(f"{label:<28} {links:>7} {mb:6.1f} {mode:<8} {kb / 1024:8.0f} "
                              f"{kb / 1024 / mb:7.1f} {cpu:7.1f} {wall:7.1f}", flush=True)
                    os.remove(path)


if __name__ == "__main__":
    main()
