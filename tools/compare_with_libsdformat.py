#!/usr/bin/env python3
"""Compares `mbparse convert --to sdf` with libsdformat's own URDF converter.

Builds a few lines of C++ (sdf::readFile, then print the root element) against
the installed libsdformat (Debian: apt-get install libsdformat-dev) in a
temporary folder, converts every URDF of the corpus with both, and compares
the results as XML trees: numbers within 1e-9, sibling order ignored.

mbparse is run with the options that reproduce the installed library's
version (ConvertOptions.like_libsdformat_12_3 for libsdformat < 12.7); the
differences between versions are listed in ConvertOptions' documentation.

Run on demand (not part of the tests):
    python tools/compare_with_libsdformat.py [--corpus DIR] [--show N] [FILES...]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from mbparse.convert import ConvertOptions, urdf_to_sdf_tree
from mbparse.convert.sdf_tree import parse_xml_text
from mbparse.convert.xml_compare import differences
from mbparse.diagnostics import DiagnosticPolicy, ParseError

CXX = r"""
#include <iostream>
#include <sdf/sdf.hh>
// Reads a file with libsdformat (converting URDF) and prints the result.
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  sdf::SDFPtr root(new sdf::SDF());
  sdf::init(root);
  sdf::Errors errors;
  const bool ok = sdf::readFile(argv[1], root, errors);
  for (const auto &e : errors) std::cerr << e << std::endl;
  if (!ok || !root->Root()) return 1;
  std::cout << root->Root()->ToString("");
  return 0;
}
"""


def build(tmp: Path) -> tuple[Path, str]:
    """Compiles the reader; returns its path and the library version."""
    pkgs = subprocess.run(["pkg-config", "--list-all"], capture_output=True, text=True).stdout
    names = sorted(line.split()[0] for line in pkgs.splitlines() if line.startswith("sdformat"))
    if not names:
        sys.exit("libsdformat not found by pkg-config (apt-get install libsdformat-dev)")
    pkg = names[-1]
    version = subprocess.run(["pkg-config", "--modversion", pkg], capture_output=True,
                             text=True).stdout.strip()
    src = tmp / "read_sdf.cc"
    src.write_text(CXX)
    exe = tmp / "read_sdf"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", pkg], capture_output=True,
                           text=True, check=True).stdout.split()
    subprocess.run(["g++", "-std=c++17", "-O1", str(src), "-o", str(exe), *flags], check=True)
    return exe, version


def options_for(version: str) -> ConvertOptions:
    parts = tuple(int(p) for p in version.split(".")[:3] if p.isdigit())
    if parts < (12, 7):
        return ConvertOptions.like_libsdformat_12_3()
    if parts < (12, 7, 2):
        return ConvertOptions(legacy_massless_links=True)
    return ConvertOptions()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[1].parent
                                            / "shared" / "corpus"))
    ap.add_argument("--show", type=int, default=3, help="differences shown per file")
    args = ap.parse_args()
    files = [Path(f) for f in args.files] or sorted(Path(args.corpus).rglob("*.urdf"))
    with tempfile.TemporaryDirectory() as tmpdir:
        exe, version = build(Path(tmpdir))
        options = options_for(version)
        print(f"libsdformat {version}; mbparse options: {options}")
        counts = {"agree": 0, "differ": 0, "both refuse": 0, "only libsdformat refuses": 0,
                  "only mbparse refuses": 0}
        for f in files:
            run = subprocess.run([str(exe), str(f)], capture_output=True, text=True, timeout=60)
            theirs = parse_xml_text(run.stdout) if run.returncode == 0 and run.stdout else None
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ours = urdf_to_sdf_tree(f, options, DiagnosticPolicy(emit=False))
                ours_error = None
            except ParseError as e:
                ours, ours_error = None, str(e).splitlines()[0]
            if theirs is None and ours is None:
                status = "both refuse"
            elif theirs is None:
                status = "only libsdformat refuses"
            elif ours is None:
                status = "only mbparse refuses"
            else:
                diffs = differences(ours, theirs, limit=max(args.show, 1))
                status = "differ" if diffs else "agree"
            counts[status] += 1
            print(f"{status:>24}  {f}")
            if status == "differ":
                for d in diffs[:args.show]:
                    print(f"{'':>26}{d}")
            elif status == "only mbparse refuses":
                print(f"{'':>26}{ours_error}")
        converted = counts["agree"] + counts["differ"]
        share = 100.0 * counts["agree"] / converted if converted else 0.0
        print(f"TOTAL {len(files)} files; both convert {converted}: agree {counts['agree']} "
              f"({share:.1f}%), differ {counts['differ']}; both refuse {counts['both refuse']}; "
              f"only libsdformat refuses {counts['only libsdformat refuses']}; "
              f"only mbparse refuses {counts['only mbparse refuses']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
