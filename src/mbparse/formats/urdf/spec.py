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
from ..common.xml import qname as qname_of

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


def check_attributes(diag: XmlDiagnostic, root) -> None:
    """Reports every attribute of a listed element, and every child of a
    listed parent, that the specification does not give it: a warning naming
    the one probably meant, or a note when nothing known is close."""
    stack = [root]
    while stack:
        el = stack.pop()
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in FOREIGN:
                continue
            kids = CHILDREN.get(qname_of(el))
            if kids is not None and tag not in kids and ":" not in tag and "{" not in tag:
                meant = closest(tag, kids)
                if meant is not None:
                    diag.warning(child, f"<{tag}> is not a child of <{qname_of(el)}>; it is "
                                        f"ignored. Did you mean <{meant}>?",
                                 code="urdf-unknown-element")
                else:
                    diag.warning(child, f"<{tag}> is not a child of <{qname_of(el)}> in URDF; it "
                                        "is ignored", code="urdf-unsupported")
            known = ATTRIBUTES.get(tag)
            if known is not None:
                for key in child.attrib:
                    if key in known or ":" in key or "{" in key:
                        continue
                    meant = closest(key, known)
                    if meant is not None:
                        diag.warning(child, f"<{tag}> has no attribute '{key}'; it is ignored. "
                                            f"Did you mean '{meant}'?",
                                     code="urdf-unknown-attribute")
                    else:
                        diag.warning(child, f"<{tag}> has no attribute '{key}' in URDF; it is "
                                            "ignored", code="urdf-unsupported")
            stack.append(child)
