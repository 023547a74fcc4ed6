"""OpenUSD stages (``.usd``, ``.usda``, ``.usdc``, ``.usdz``) as a model, read
through the UsdPhysics scene description OpenUSD itself parses.

Pixar's ``usd-core`` opens the stage (composition, references, payloads,
binary crate and USDZ archives); ``UsdPhysics.LoadUsdPhysicsFromRange`` (named
``UsdPhysicsLoadStageFromPrimRange`` in newer releases) gives its rigid
bodies, joints, collision shapes and physics materials as the schema defines
them; ``UsdPhysics.RigidBodyAPI.ComputeMassProperties`` applies the schema's
rules for a body's mass (given, or from density and collision volume). This
package turns them into the plant:

* the stage's ``metersPerUnit`` and ``kilogramsPerUnit`` are applied, and a
  Y-up stage is turned to Z-up (a +90° turn about x);
* each rigid body is a body named after its prim (its ``displayName`` when it
  has one), at its world pose; a body that no joint holds floats there;
* revolute, prismatic, spherical and fixed joints and D6 joints (generic
  joints whose ``PhysicsLimitAPI`` locks all but the degrees of freedom of a
  revolute, prismatic, universal, planar, ball or free joint) become the
  plant's joints, limits from degrees to radians, a drive's damping as the
  joint's damping and its ``maxForce`` as an actuator's effort limit; the
  joints' default positions are read from the bodies' poses;
* collision shapes (``PhysicsCollisionAPI``) and the visible geometry under
  each body (``Cube``, ``Sphere``, ``Cylinder``, ``Capsule``, ``Plane``,
  ``Mesh``) become geometry, with ``displayColor`` or a bound
  ``UsdPreviewSurface``'s diffuse colour and the bound physics material's
  friction (see :mod:`.geometry`).

What the plant cannot hold (a cone, a distance joint, a D6 joint of another
combination, a drive's stiffness) is a warning that names the prim's path,
never a traceback. Without ``usd-core`` a USD file is refused in one line
that says what to install.
"""
from __future__ import annotations

import os

from ...workspace import DataSource, Workspace

INSTALL_HINT = "pip install 'mbparse[usd]'"


def add_all_models(source: DataSource, parent_model_name: str | None,
                   workspace: Workspace) -> list[int]:
    """Adds the model a USD stage holds (and one instance per articulation
    when it holds several); returns the instance indices."""
    reader = _reader(source, workspace)
    reader.read("", parent_model_name)
    return reader.instances


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace: Workspace) -> int | None:
    """Adds the stage's bodies, joints and geometry as one model instance
    named ``model_name`` (else the default prim's name, else the file's)."""
    return _reader(source, workspace).read(model_name, parent_model_name)


def _reader(source: DataSource, workspace: Workspace):
    diagnostic = workspace.diagnostic
    try:
        from pxr import Usd  # noqa: F401
    except ImportError as e:
        diagnostic.error(f"reading USD needs Pixar's OpenUSD (usd-core), which cannot be "
                         f"imported ({e}); install it: {INSTALL_HINT}", source.name(),
                         code="usd-not-installed")
    from .stage import open_stage
    from .model import UsdModelReader
    return UsdModelReader(open_stage(source, diagnostic), source, workspace)


def stem(source: DataSource) -> str:
    """The file's name without folder and extension."""
    name = source.name()
    return os.path.splitext(os.path.basename(name))[0] or "usd"
