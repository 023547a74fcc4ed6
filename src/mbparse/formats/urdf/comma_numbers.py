"""URDF numbers separated by commas (``xyz="0.07, 0, -0.69"``).

The URDF specification separates the numbers of a vector by spaces.
urdfdom (ROS), yourdfpy, MuJoCo and Drake refuse a comma after a number;
pybullet and iDynTree read each space-separated word with ``atof``-like
conversions that stop at the comma, so they read ``0.07, 0, -0.69`` as
(0.07, 0, -0.69) -- pybullet ships such a file (``bicycle/bike.urdf``).

The default mode reads such a vector as pybullet does, with a located
warning (it breaks ROS tools); Drake's mode refuses it as Drake does. Only
that one form is read: every space-separated word a whole number, some
followed by a single comma, exactly as many numbers as the attribute takes.
Anything else (``1,2,3`` without spaces, a word that is no number, too few
numbers) stays the error it was. A vector holding a xacro substitution
(``$(optenv NAME 0 0 1)``, ``${...}``) left in a plain URDF is an error that
says so.
"""
from __future__ import annotations

import re

from ...numbers import all_finite, non_finite_code, quote, shown
from ..common.xml import XmlDiagnostic, qname

CODE = "urdf-number-commas"

_XACRO_SUBSTITUTION = re.compile(r"\$\((?:optenv|env|arg|find|eval)\b|\$\{")
_NUMBER_AND_COMMA = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?),?")


def comma_separated_numbers(text: str) -> list[float] | None:
    """The numbers of ``text`` when its space-separated words are whole
    numbers, at least one followed by a comma; otherwise None."""
    words = text.split()
    if not any(w.endswith(",") for w in words):
        return None
    values = []
    for word in words:
        m = _NUMBER_AND_COMMA.fullmatch(word)
        if m is None:
            return None
        values.append(float(m.group(1)))
    return values


class UrdfXmlDiagnostic(XmlDiagnostic):
    """The URDF reader's diagnostics: as for every XML format, plus the
    reading of comma-separated vectors described above."""

    def unreadable_vector(self, el, name: str, text: str, n: int) -> tuple | None:
        substitution = _XACRO_SUBSTITUTION.search(text)
        if substitution is not None:
            # pybullet's husky.urdf: xyz="$(optenv HUSKY_IMU_XYZ 0.19 0 0.149)"
            self.error(el, f"attribute '{name}' of <{qname(el)}> should be {n} numbers, not "
                           f"'{quote(text)}': '{substitution.group(0)}' is a xacro "
                           "substitution, which only xacro expands; name the file .urdf.xacro "
                           "(mbparse then expands it) or expand it with xacro",
                       code="xml-value-invalid")
        values = comma_separated_numbers(text)
        if values is None or len(values) != n:
            return None
        where = f"attribute '{name}' of <{qname(el)}>"
        if not all_finite(values):
            self.error(el, f"{where}: '{quote(text)}' holds a number that is not finite",
                       code=non_finite_code(values))
        if self.policy.like_drake:
            self.error(el, f"{where} should be {n} numbers separated by spaces, not "
                           f"'{quote(text)}' (commas are not separators in URDF)", code=CODE)
        self.warning(el, f"{where} separates its numbers by commas ('{quote(text)}'); mbparse "
                         f"reads {shown(values)} as pybullet and iDynTree do, but urdfdom (ROS), "
                         "yourdfpy, MuJoCo and Drake refuse it: separate the numbers by spaces",
                     code=CODE)
        return tuple(values)
