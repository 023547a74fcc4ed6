"""The attributes the URDF specification (and Drake's URDF extensions) give
the elements whose values are numbers or names a typo would silently lose:
``<limit lowr="-1">`` leaves the lower limit at -inf without a word. An
attribute not listed for its element is reported with the closest known
name. Only a likely typo (a known name within an edit or two) is a warning;
any other extra attribute (vendors add their own: ``<limit current=..>``,
``<dynamics K=..>``) is a note. The loader stays as lenient as Drake, which
ignores both.

Elements not listed (robot, link, joint, visual, collision, and everything
inside ``<gazebo>`` or ``<transmission>``, which other tools define) are not
checked here; the reader reports the children it does not know itself.
"""
from __future__ import annotations

from ..common.suggest import closest
from ..common.xml import XmlDiagnostic

ATTRIBUTES: dict[str, frozenset[str]] = {tag: frozenset(names.split()) for tag, names in {
    "origin": "xyz rpy",
    "axis": "xyz",
    "parent": "link",
    "child": "link",
    "limit": "lower upper effort velocity drake:acceleration",
    "dynamics": "damping friction",
    "mimic": "joint multiplier offset",
    "calibration": "rising falling reference_position",
    "safety_controller": "soft_lower_limit soft_upper_limit k_position k_velocity",
    "mass": "value",
    "inertia": "ixx ixy ixz iyy iyz izz",
    "box": "size",
    "cylinder": "radius length",
    "sphere": "radius",
    "capsule": "radius length",
    "mesh": "filename scale",
    "color": "rgba",
    "texture": "filename",
}.items()}
# The children the specification gives these elements (namespaced ones,
# such as Drake's drake:*, are read or reported by the reader itself).
CHILDREN: dict[str, frozenset[str]] = {tag: frozenset(names.split()) for tag, names in {
    "joint": "origin parent child axis calibration dynamics limit mimic safety_controller",
    "inertial": "origin mass inertia",
    "visual": "origin geometry material",
    "collision": "origin geometry verbose",
    "geometry": "box cylinder sphere capsule mesh",
}.items()}
# Elements whose insides belong to other tools, or to extensions that check
# their own children (iDynTree's <sensor>, the older <loop_joint> and
# <force_element>).
FOREIGN = frozenset({"gazebo", "transmission", "sensor", "loop_joint", "force_element"})


# Every element either check looks at, found by lxml's own tag filter (an
# element is checked for its attributes or for its children, never both).
assert not set(ATTRIBUTES) & set(CHILDREN)
_WATCHED = tuple(sorted(set(ATTRIBUTES) | set(CHILDREN)))


def check_attributes(diag: XmlDiagnostic, root) -> None:
    """Reports every attribute of a listed element, and every child of a
    listed parent, that the specification does not give it: a warning naming
    the one probably meant, or a note when nothing known is close. Nothing
    inside a foreign element is looked at (asked only of an element found
    wanting: most files have nothing to report)."""
    attributes, children = ATTRIBUTES, CHILDREN
    for el in root.iter(*_WATCHED):
        tag = el.tag
        known = attributes.get(tag)
        if known is not None:
            keys = el.keys()
            if known.issuperset(keys):
                continue
            for key in keys:
                if key not in known and ":" not in key and "{" not in key:
                    break
            else:
                continue  # (only prefixed attributes, which are not checked)
            if not _in_foreign(el):
                _unknown_attributes(diag, el, tag, known)
            continue
        kids = children[tag]
        for child in el:
            name = child.tag
            if name in kids:
                continue
            if name.__class__ is not str or name in FOREIGN or ":" in name or "{" in name:
                continue
            if _in_foreign(el):
                break
            meant = closest(name, kids)
            if meant is not None:
                diag.warning(child, f"<{name}> is not a child of <{tag}>; it is "
                                    f"ignored. Did you mean <{meant}>?",
                             code="urdf-unknown-element")
            else:
                diag.warning(child, f"<{name}> is not a child of <{tag}> in URDF; it "
                                    "is ignored", code="urdf-unsupported")


def _in_foreign(el) -> bool:
    """Whether ``el`` is inside a foreign element."""
    for _ in el.iterancestors(*FOREIGN):
        return True
    return False


def _unknown_attributes(diag: XmlDiagnostic, el, tag: str, known: frozenset[str]) -> None:
    for key in el.attrib:
        if key in known or ":" in key or "{" in key:
            continue
        meant = closest(key, known)
        if meant is not None:
            diag.warning(el, f"<{tag}> has no attribute '{key}'; it is ignored. "
                             f"Did you mean '{meant}'?", code="urdf-unknown-attribute")
        else:
            diag.warning(el, f"<{tag}> has no attribute '{key}' in URDF; it is ignored",
                         code="urdf-unsupported")
