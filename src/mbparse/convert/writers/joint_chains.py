"""Bodies with several joints, as MJCF writes them.

An MJCF body may hold several joints; Drake's plant (and so mbparse's
reader) holds one joint per body, and puts a massless body between each two
joints of one MJCF body, named after it (``NAME0``, ``NAME1``...). MuJoCo
refuses such a body moving alone, so the MJCF writer finds these chains and
writes their joints back into one body (:func:`joint_chain`); MuJoCo reads
the same joints in the same order, and the MJCF reader makes the same
massless bodies of them again.
"""
from __future__ import annotations

from .walk import BodyNode


def constrained_bodies(plant) -> set[int]:
    """The bodies a constraint names (they keep their own MJCF body)."""
    return {getattr(c, k).index for c in plant.constraints() for k in ("body_A", "body_B")
            if hasattr(c, k)}


def joint_chain(node: BodyNode, constrained: set[int] = frozenset()) -> list[BodyNode]:
    """The nodes written as one MJCF body with several joints: the massless
    bodies a reader of MJCF adds between the joints of one body (named
    after it, ``NAME0``, ``NAME1``..., as Drake and mbparse name them, with
    the underscores mbparse adds where another body has that name), each
    with no geometry, frame or constraint, and one child that sits where it
    does at the joints' default positions (MJCF's ``ref``), every joint a
    hinge or slide, followed by that body; just
    ``[node]`` for any other body. MuJoCo reads the joints back in the same
    order, and the MJCF reader makes the same massless bodies of them."""
    chain = [node]
    n = node
    while _between_joints(n, constrained):
        n = n.children[0]
        chain.append(n)
    last = chain[-1]
    if len(chain) == 1 or not _chain_joint(last) or any(
            c.body.name.rstrip("_") != f"{last.body.name}{k}" or
            c.body.model_instance != last.body.model_instance
            for k, c in enumerate(chain[:-1])):
        return [node]
    return chain


def merged_bodies(walk) -> set[str]:
    """The names of the massless bodies between joints that the MJCF
    writer leaves out (see joint_chain): MuJoCo has no such bodies."""
    constrained = constrained_bodies(walk.plant)
    out = set()
    for node in walk.preorder():
        chain = joint_chain(node, constrained)
        out.update(n.body.name for n in chain[:-1])
    return out


def _chain_joint(n: BodyNode) -> bool:
    """A hinge or slide, declared from the parent."""
    h = n.hinge
    return h is not None and not h.reversed and h.joint.type_name in ("revolute", "prismatic")


def _between_joints(n: BodyNode, constrained) -> bool:
    if not (_chain_joint(n) and len(n.children) == 1 and not n.geometries and not n.frames
            and n.body.index not in constrained):
        return False
    M = n.body.default_spatial_inertia
    if M.mass != 0 or any(M.I_cm):
        return False
    child = n.children[0]
    if not _chain_joint(child):
        return False
    X = child.X_PB(at_default=True)
    return max(abs(v) for v in X.p) < 1e-12 and all(
        abs(X.R[r][c] - (r == c)) < 1e-12 for r in range(3) for c in range(3))
