"""Property: a corpus URDF and its SDFormat conversion, each read by mbparse,
give the same bodies, masses and world poses, once lumping is accounted for
(a lumped link's mass belongs to the link it was lumped into)."""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from mbparse.formats import format_of

pytest.importorskip("mbparse.formats.sdformat")

from mbparse.loading import LoadOptions, ancestor_package_xmls, load  # noqa: E402
from mbparse.convert import urdf_to_sdf_tree  # noqa: E402
from mbparse.convert.urdf_model import UrdfModelReader  # noqa: E402
from mbparse.diagnostics import DiagnosticPolicy, ParseError  # noqa: E402
from mbparse.formats.common.xml import XmlDiagnostic, load_xml  # noqa: E402
from mbparse.workspace import DataSource  # noqa: E402

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
URDFS = sorted(CORPUS.rglob("*.urdf"))


def _load(path: Path, packages_of: Path | None = None):
    """Loads a file; the packages found above ``packages_of`` are added (a
    converted copy lives in a temporary folder)."""
    options = LoadOptions(like="drake")  # the skips below name what Drake refuses
    for xml in ancestor_package_xmls(str(packages_of or path)):
        m = re.search(r"<name>\s*([^<\s]+)\s*</name>", Path(xml).read_text())
        if m:
            options.packages.append((m.group(1), str(Path(xml).parent)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(str(path), options)


def _convert(path: Path, out: Path) -> tuple[dict[str, str | None], bool]:
    """Writes the conversion (mesh paths made absolute); returns each URDF link's
    parent link and whether anything was converted."""
    policy = DiagnosticPolicy(emit=False)
    try:
        sdf = urdf_to_sdf_tree(path, policy=policy)
        robot = load_xml(DataSource(filename=str(path)), XmlDiagnostic(policy, str(path)))
        model = UrdfModelReader(policy, str(path)).read(robot)
    except ParseError:
        return {}, False
    for node in sdf.iter():
        if node.name == "mesh":
            uri = node.first("uri")
            if uri is not None and "://" not in uri.text:
                uri.text = str((path.parent / uri.text).resolve())
    if sdf.first("model").first("link") is None:
        return {}, False  # a massless root link takes every link with it
    out.write_text(sdf.to_string())
    parents = {name: (link.parent.name if link.parent else None)
               for name, link in model.links.items()}
    return parents, True


# What libsdformat's converter writes (and so this one) but Drake's SDFormat
# semantics refuse: these are not conversion mistakes.
DRAKE_REFUSES_CONVERTED = {
    "dynamic friction": "the <gazebo> friction has mu2 > mu1, which Drake refuses",
    "closes a loop": "a <gazebo> blob adds a joint that closes a kinematic loop",
    "<provide_feedback>, child of <ode>": "provideFeedback writes ode/provide_feedback, "
                                          "which is not in the SDFormat specification",
    "ignition::corrected_offsets": "a lumped plugin gets <ignition::corrected_offsets>, "
                                   "an element name lxml cannot read",
}


def test_the_sdformat_reader_is_registered():
    assert format_of("x.sdf") == "sdformat"


@pytest.mark.parametrize("path", URDFS, ids=[str(p.relative_to(CORPUS)) for p in URDFS])
def test_converted_sdformat_reads_as_the_same_bodies_masses_and_poses(path, tmp_path):
    out = tmp_path / (path.stem + ".sdf")
    parents, converted = _convert(path, out)
    if not converted:
        pytest.skip("the converter refuses this URDF or keeps no link of it")
    try:
        a = _load(path)
    except ParseError:
        pytest.skip("Drake refuses this URDF")
    try:
        b = _load(out, packages_of=path)
    except ParseError as e:
        for known, why in DRAKE_REFUSES_CONVERTED.items():
            if known in str(e):
                pytest.skip(why)
        raise
    poses_a = a.plant.calc_body_poses_in_world()
    poses_b = b.plant.calc_body_poses_in_world()
    bodies_b = {body.name: body for body in b.plant.bodies()[1:]}
    mass_into: dict[str, float] = {name: 0.0 for name in bodies_b}
    for body in a.plant.bodies()[1:]:
        name = body.name
        while name is not None and name not in bodies_b:
            name = parents.get(name)
        if name is not None:
            mass_into[name] += body.mass
        if body.name in bodies_b:
            X_a = poses_a[body.index]
            X_b = poses_b[bodies_b[body.name].index]
            assert X_a.p == pytest.approx(X_b.p, abs=1e-9), body.name
            for ra, rb in zip(X_a.R, X_b.R):
                assert ra == pytest.approx(rb, abs=1e-9), body.name
    for name, body in bodies_b.items():
        assert body.mass == pytest.approx(mass_into[name], rel=1e-9, abs=1e-12), name
