"""Inertias as libsdformat judges them.

libsdformat refuses a link whose inertia ignition math's ``MassMatrix3``
finds invalid ("A link named X has invalid inertia"), with a tolerance of ten
machine epsilons of the trace; Drake and mbparse take inertias that miss it
by rounding noise (iCub's moments of -5.4e-20, a zero principal moment that
libsdformat's closed-form solution rounds below zero). The SDFormat writer
writes such an inertia the least way changed that libsdformat takes, and
reports it.
"""
from __future__ import annotations

import math
import sys

from ..loss import APPROXIMATED, LossReport
from .walk import where


def libsdformat_takes(moments: tuple) -> bool:
    """Whether libsdformat takes an inertia (ixx iyy izz ixy ixz iyz): ignition
    math's MassMatrix3::IsValid with its default tolerance of 10, on the
    principal moments as its closed-form cubic solution computes them (the
    rounding of that solution decides borderline inertias: a valid inertia
    with a zero principal moment can come out a little negative)."""
    ixx, iyy, izz, ixy, ixz, iyz = moments
    eps = 10 * sys.float_info.epsilon * 0.5 * abs(ixx + iyy + izz)
    det = (ixx * (iyy * izz - iyz * iyz) - ixy * (ixy * izz - iyz * ixz)
           + ixz * (ixy * iyz - iyy * ixz))
    if not (ixx + eps >= 0 and ixx * iyy - ixy ** 2 + eps >= 0 and det + eps >= 0):
        return False
    p = sorted(_principal_moments(moments))
    eps = 10 * sys.float_info.epsilon * 0.5 * abs(sum(p))
    return (all(v + eps >= 0 for v in p) and p[0] + p[1] + eps >= p[2]
            and p[1] + p[2] + eps >= p[0] and p[2] + p[0] + eps >= p[1])


def _principal_moments(moments: tuple) -> tuple:
    """MassMatrix3::PrincipalMoments, step for step."""
    ixx, iyy, izz, ixy, ixz, iyz = moments
    tol = 1e-6 * max(ixx, iyy, izz)
    if all(abs(v) <= abs(tol) for v in (ixy, ixz, iyz)):
        return (ixx, iyy, izz)
    b = ixx + iyy + izz
    c = ixx * iyy - ixy ** 2 + ixx * izz - ixz ** 2 + iyy * izz - iyz ** 2
    d = (ixx * iyz ** 2 + iyy * ixz ** 2 + izz * ixy ** 2 - ixx * iyy * izz
         - 2 * ixy * ixz * iyz)
    p = b ** 2 - 3 * c
    if p < tol ** 2:
        return (b / 3.0,) * 3
    q = 2 * b ** 3 - 9 * b * c - 27 * d
    delta = math.acos(min(1.0, max(-1.0, 0.5 * q / p ** 1.5)))
    root = 2 * math.sqrt(p)
    return ((b + root * math.cos(delta / 3.0)) / 3.0,
            (b + root * math.cos((delta + 2 * math.pi) / 3.0)) / 3.0,
            (b + root * math.cos((delta - 2 * math.pi) / 3.0)) / 3.0)


def moments_libsdformat_takes(moments: tuple, body, report: LossReport) -> tuple:
    """The inertia moments (ixx iyy izz ixy ixz iyz) of ``body`` to write:
    as they are when libsdformat takes them; else with the entries that are
    rounding noise written 0, or else the diagonal raised by the least step
    (at most 1e-8 of the largest moment), each reported in ``report``; as
    they are when neither makes them valid (not rounding: the model's own)."""
    if libsdformat_takes(moments):
        return moments
    scale = max(abs(v) for v in moments)
    noise = max(1e-12, 1e-9 * scale)
    cleaned = tuple(0.0 if abs(v) <= noise else v for v in moments)
    names = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
    if libsdformat_takes(cleaned):
        changed = [f"{n} {v:g}" for n, v, c in zip(names, moments, cleaned) if v != c]
        report.add(APPROXIMATED, f"body '{body.name}'",
                   f"its inertia {', '.join(changed)} written as 0: libsdformat refuses the "
                   "inertia as given (rounding noise)", where(body))
        return cleaned
    # A principal moment at zero that libsdformat's solution rounds
    # below it: the diagonal is raised by the least step (at most 1e-8
    # of the largest moment, below what a reader can tell apart).
    for exponent in range(-14, -7):
        step = scale * 10.0 ** exponent
        raised = tuple(v + step for v in moments[:3]) + tuple(moments[3:])
        if libsdformat_takes(raised):
            report.add(APPROXIMATED, f"body '{body.name}'",
                       f"its inertia's diagonal is raised by {step:.3g}: libsdformat refuses "
                       "it as given (a principal moment at zero that its solution rounds "
                       "below zero)", where(body))
            return raised
    return moments  # not rounding: written as the model has it


__all__ = ["libsdformat_takes", "moments_libsdformat_takes"]
