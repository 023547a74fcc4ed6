"""Converts model files to URDF and asks the URDF readers users have whether
they take each output: urdfdom's ``check_urdf``, yourdfpy's ``validate()``
and pybullet's ``loadURDF`` (each where installed; pybullet in a child
process per file, since it prints from C and can crash), checks that every
mesh the output names is a file beside it, and that mbparse reads the output
back to the same model up to the loss report.

    python tools/urdf_readers_sweep.py DIR_OR_FILES... [--package NAME=DIR]... \
        [--out FOLDER] [--json OUT]

Real robots as pip wheels ship them (unzip a wheel, point at its folders):
example-robot-data (package ``example-robot-data`` and each robot folder),
gym-ignition-models, pybullet's ``pybullet_data``, dm-control's MJCF.
Prints one line per failure and the figures per check.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

from lxml import etree

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.loss import ConvertError
from mbparse.convert.roundtrip import check_conversion
from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from convert_sweep import files_under  # noqa: E402

PYBULLET = ("import sys, pybullet as p\np.connect(p.DIRECT)\np.loadURDF(sys.argv[1])\n"
            "print('LOADED')\n")


def readers_verdicts(out: str) -> dict[str, bool]:
    """Each installed reader's verdict on the URDF file ``out``."""
    verdicts = {}
    if shutil.which("check_urdf"):
        done = subprocess.run(["check_urdf", out], capture_output=True, text=True, timeout=120)
        verdicts["check_urdf"] = done.returncode == 0
    try:
        import yourdfpy
    except ImportError:
        yourdfpy = None
    if yourdfpy is not None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                robot = yourdfpy.URDF.load(out, build_scene_graph=False, load_meshes=False)
            verdicts["yourdfpy"] = bool(robot.validate())
        except Exception:  # noqa: BLE001 - any refusal is the verdict
            verdicts["yourdfpy"] = False
    try:
        import pybullet  # noqa: F401
        done = subprocess.run([sys.executable, "-c", PYBULLET, out], capture_output=True,
                              text=True, timeout=300)
        verdicts["pybullet"] = "LOADED" in done.stdout
    except ImportError:
        pass
    except subprocess.TimeoutExpired:
        verdicts["pybullet"] = False
    root = etree.parse(out).getroot()
    here = os.path.dirname(out)
    verdicts["meshes"] = all(os.path.isfile(os.path.join(here, m.get("filename")))
                             for m in root.iter("mesh"))
    return verdicts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--package", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--out", help="folder for the outputs (a temporary one by default)")
    ap.add_argument("--json", help="write the figures and failures here")
    args = ap.parse_args(argv)
    packages = [tuple(p.split("=", 1)) for p in args.package]
    out_dir = args.out or tempfile.mkdtemp(prefix="urdf_sweep_")
    os.makedirs(out_dir, exist_ok=True)
    figures, failures = collections.Counter(), []
    for i, path in enumerate(files_under(args.paths)):
        out = os.path.join(out_dir, f"{i}_{os.path.splitext(os.path.basename(path))[0]}.urdf")
        options = ConvertFileOptions(load=LoadOptions(time_step=0.0, packages=packages))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = convert_file(path, "urdf", out, options)
        except (ParseError, ConvertError) as e:
            figures["not converted (input refused or empty)"] += 1
            failures.append((path, "input", str(e).splitlines()[0]))
            continue
        with open(out, "w", encoding="utf-8") as f:
            f.write(result.text)
        figures["converted"] += 1
        figures["losses reported"] += len(result.report)
        for reader, ok in readers_verdicts(out).items():
            figures[f"{reader} {'ok' if ok else 'refused'}"] += 1
            if not ok:
                failures.append((path, reader, out))
        verdict, details = check_conversion(path, "urdf", out_dir, packages=packages,
                                            out=out + ".readback.urdf")
        figures[f"read back {verdict}"] += 1
        if verdict not in ("faithful", "lossy-ok"):
            failures.append((path, "read back", "; ".join(details[:2])))
    for path, what, detail in failures:
        print(f"{path}: {what}: {detail}")
    for key in sorted(figures):
        print(f"{key}: {figures[key]}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"figures": figures, "failures": failures}, f, indent=1)
    return 0 if not any(w != "input" for _, w, _ in failures) else 1


if __name__ == "__main__":
    sys.exit(main())
