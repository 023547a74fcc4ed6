"""What MuJoCo's compiler refuses in a file that Drake's MJCF parser reads.

MJCF is MuJoCo's format, but Drake reads some files MuJoCo refuses (a sphere
or a plane without a size, an ``<inertial>`` without ``pos``, a free joint
on a body that is not a child of the world). mbparse reads these as Drake
does, in both modes (the model is Drake's), and says at the element that
MuJoCo refuses the file and why, in MuJoCo's own words; ``mbparse check
--for mujoco`` reports each as an error.

``MUJOCO_VERSION`` is the MuJoCo these refusals were measured with; every
message that names MuJoCo's version names this one.
"""
from __future__ import annotations

#: The MuJoCo release the refusals below (and the messages naming a MuJoCo
#: version) were measured with.
MUJOCO_VERSION = "4.0.0"
CODE = "mjcf-mujoco-refuses"

# How many leading numbers of 'size' MuJoCo requires to be positive, per geom
# type (its mjGEOMINFO); a plane needs its third number positive instead.
POSITIVE_SIZES = {"sphere": 1, "capsule": 2, "cylinder": 2, "ellipsoid": 3, "box": 3}


def size_refusal(kind: str, size: tuple) -> str | None:
    """MuJoCo's reason for refusing a geom of type ``kind`` and ``size``
    (fewer numbers than the type uses count as MuJoCo's default, 0), or None."""
    if kind == "plane":
        return None if len(size) >= 3 and size[2] > 0 else "plane size(3) must be positive"
    n = POSITIVE_SIZES.get(kind)
    if n is None:
        return None
    for i in range(n):
        if i >= len(size) or not size[i] > 0:
            return f"size {i} must be positive in geom"
    return None


def mujoco_refuses(doc, el, what: str, reason: str, done: str) -> None:
    """A warning at ``el``: ``what`` the file says, that MuJoCo refuses it
    for ``reason`` (MuJoCo's own message), and what mbparse does (``done``)."""
    doc.warning(el, f"{what}: MuJoCo {MUJOCO_VERSION} refuses this (\"{reason}\"); {done}",
                code=CODE)


__all__ = ["MUJOCO_VERSION", "CODE", "size_refusal", "mujoco_refuses"]
