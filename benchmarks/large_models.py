"""Large synthetic model files in every format mbparse reads, for the
benchmarks of what each command costs on a huge model (bench_commands.py).

Every body has an inertial, a box visual and a sphere collision with a pose;
every joint is revolute with an axis and limits. Shapes:

- ``chain``: each body hangs from the one before. A format that nests bodies
  (MJCF) cannot hold one chain of 80,000 (the XML depth limit is 500), so
  there it is many chains of :data:`DEEP` bodies side by side;
- ``tree``: a binary tree (MJCF: binary trees of at most :data:`DEEP` levels
  side by side, which a binary tree of 80,000 bodies is anyway);
- ``flat``: bodies with no joint at all (each a free body);
- ``deep`` (SDFormat, MJCF): models (SDFormat) or bodies (MJCF) nested
  :data:`DEEP` levels, near the depth limit, repeated to the size asked.

Each writer takes a size in megabytes and returns the number of bodies.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_memory import write_urdf  # noqa: E402

# Nesting a little under the XML depth limit (500 elements) once the
# elements inside the innermost body are counted.
DEEP = 450


def _parent(i: int, shape: str) -> int | None:
    if shape == "flat" or i == 0:
        return None
    return i - 1 if shape == "chain" else (i - 1) // 2


def _count(megabytes: float, per_body: int) -> int:
    return max(2, int(megabytes * 1e6 / per_body))


# ------------------------------------------------------------------ SDFormat
def _sdf_link(i: int) -> str:
    return (f'<link name="l{i}"><pose>0 0 {0.1 * (i % 7):g} 0 0 0</pose>'
            '<inertial><pose>0 0 0.05 0 0 0</pose><mass>1</mass><inertia><ixx>0.1</ixx>'
            '<iyy>0.1</iyy><izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>'
            f'</inertial><visual name="v"><pose>0 0 0.05 0 0 0</pose><geometry><box>'
            '<size>0.1 0.1 0.1</size></box></geometry></visual><collision name="c">'
            '<geometry><sphere><radius>0.05</radius></sphere></geometry></collision>'
            '</link>\n')


def _sdf_joint(i: int, parent: int) -> str:
    return (f'<joint name="j{i}" type="revolute"><parent>l{parent}</parent>'
            f'<child>l{i}</child><axis><xyz>0 0 1</xyz><limit><lower>-1</lower>'
            '<upper>1</upper><effort>10</effort><velocity>1</velocity></limit></axis>'
            '</joint>\n')


def write_sdf(path: str, megabytes: float, shape: str) -> int:
    if shape == "deep":
        return _write_sdf_deep(path, megabytes)
    n = _count(megabytes, len(_sdf_link(10_000)) + len(_sdf_joint(10_000, 5000)))
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<sdf version="1.9"><model name="big">\n')
        for i in range(n):
            f.write(_sdf_link(i))
        for i in range(n):
            parent = _parent(i, shape)
            if parent is not None:
                f.write(_sdf_joint(i, parent))
        f.write("</model></sdf>\n")
    return n


def _write_sdf_deep(path: str, megabytes: float) -> int:
    """Models nested DEEP levels, each with one link jointed to the link of
    the model around it; as many such towers as the size asks."""
    joint = ('<joint name="j" type="revolute"><parent>l0</parent><child>m{d}::l0</child>'
             '<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>'
             '</joint>\n')
    per_level = len(_sdf_link(0)) + len(joint) + 30
    towers = max(1, _count(megabytes, per_level) // DEEP)
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<sdf version="1.9"><model name="big">\n')
        for t in range(towers):
            f.write(f'<model name="t{t}">')
            for d in range(DEEP):
                f.write(_sdf_link(0))
                if d + 1 < DEEP:
                    f.write(joint.format(d=d + 1) + f'<model name="m{d + 1}">')
            f.write("</model>" * DEEP + "\n")
        f.write("</model></sdf>\n")
    return towers * DEEP


# ---------------------------------------------------------------------- MJCF
def _mjcf_body(i: int, free: bool) -> str:
    """A body's opening tag and contents, without its closing tag."""
    joint = ('<freejoint/>' if free else
             f'<joint name="j{i}" type="hinge" axis="0 0 1" range="-1 1"/>')
    return (f'<body name="b{i}" pos="0 0 0.1">{joint}<inertial pos="0 0 0.05" mass="1" '
            f'diaginertia="0.1 0.1 0.1"/><geom name="v{i}" type="box" size="0.05 0.05 0.05" '
            f'pos="0 0 0.05" contype="0" conaffinity="0" group="1"/><geom name="c{i}" '
            'type="sphere" size="0.05"/>')


def write_mjcf(path: str, megabytes: float, shape: str) -> int:
    """``chain`` and ``deep`` are chains of DEEP nested bodies side by side;
    ``tree`` binary trees of 1023 bodies side by side; ``flat`` free bodies."""
    n = _count(megabytes, len(_mjcf_body(10_000, False)) + 8)
    with open(path, "w") as f:
        f.write('<mujoco model="big">\n<compiler angle="radian"/>\n<worldbody>\n')
        if shape == "flat":
            for i in range(n):
                f.write(_mjcf_body(i, True) + "</body>\n")
        elif shape in ("chain", "deep"):
            n = max(1, n // DEEP) * DEEP
            for start in range(0, n, DEEP):
                f.write("".join(_mjcf_body(i, False) for i in range(start, start + DEEP)))
                f.write("</body>" * DEEP + "\n")
        else:
            size = 1023  # a full binary tree of 10 levels
            n = max(1, n // size) * size
            for start in range(0, n, size):
                _write_mjcf_tree(f, start, 0, size)
        f.write("</worldbody>\n</mujoco>\n")
    return n


def _write_mjcf_tree(f, start: int, k: int, size: int) -> None:
    f.write(_mjcf_body(start + k, False))
    for child in (2 * k + 1, 2 * k + 2):
        if child < size:
            _write_mjcf_tree(f, start, child, size)
    f.write("</body>\n")


# -------------------------------------------------- Drake model directives
# A parse reads at most 2,048 files (mbparse's limit on includes), so a large
# set of directives adds fewer, larger models.
DMD_MODELS = 2000


def _dmd_model(i: int, parent: int | None, urdf: str) -> str:
    text = (f"- add_model:\n    name: m{i}\n    file: file://{urdf}\n"
            f"- add_frame:\n    name: m{i}::f\n    X_PF:\n      base_frame: m{i}::l0\n"
            "      translation: [0, 0, 0.1]\n      rotation: !Rpy { deg: [0, 0, 90] }\n")
    if parent is not None:
        text += f"- add_weld:\n    parent: m{parent}::f\n    child: m{i}::l0\n"
    return text


def _dmd_frame(i: int) -> str:
    base = "m0::l0" if i == 0 else f"m0::f{i - 1}"
    return (f"- add_frame:\n    name: m0::f{i}\n    X_PF:\n      base_frame: {base}\n"
            "      translation: [0, 0, 0.1]\n      rotation: !Rpy { deg: [0, 0, 90] }\n")


def write_dmd(path: str, megabytes: float, shape: str) -> int:
    """``chain``, ``tree``, ``flat``: DMD_MODELS models of one URDF (written
    next to ``path``) that holds the URDF's share of the size (its ``shape``
    inside), a frame on each model, welded to the frame of its parent
    model in the chain or tree (none: ``flat``). ``frames``: one such
    model and a chain of frames (``add_frame``) the size of the file."""
    urdf = os.path.join(os.path.dirname(os.path.abspath(path)),
                        os.path.basename(path).split(".")[0] + "_part.urdf")
    if shape == "frames":
        links = write_urdf(urdf, 0.01, "chain", "indented")
        n = _count(megabytes, len(_dmd_frame(10_000)))
        with open(path, "w") as f:
            f.write("directives:\n" + _dmd_model(0, None, urdf))
            for i in range(n):
                f.write(_dmd_frame(i))
        return links
    links = write_urdf(urdf, megabytes / DMD_MODELS, "chain" if shape == "chain" else "tree",
                       "indented")
    with open(path, "w") as f:
        f.write("directives:\n")
        for i in range(DMD_MODELS):
            f.write(_dmd_model(i, _parent(i, shape), urdf))
    return links * DMD_MODELS


def write_model(path: str, fmt: str, megabytes: float, shape: str) -> int:
    """Writes a file of format ``fmt`` (urdf, sdf, mjcf, dmd); its number of bodies."""
    if fmt == "urdf":
        return write_urdf(path, megabytes, shape, "indented")
    return {"sdf": write_sdf, "mjcf": write_mjcf, "dmd": write_dmd}[fmt](path, megabytes, shape)


SUFFIX = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "dmd": ".dmd.yaml"}
