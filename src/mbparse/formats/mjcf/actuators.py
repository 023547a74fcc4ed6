"""``<actuator>``: motor, position, velocity and general actuators on joints,
with their effort limits, gear and (from the joint's armature) rotor
inertia."""
from __future__ import annotations

import math

from ...diagnostics import ParseError
from .attrs import Attrs
from .compiler import Compiler
from .defaults import DefaultClasses
from .document import Document, tag
from .plant_builder import PlantBuilder

SUPPORTED = ("motor", "position", "velocity", "general")
TRANSMISSIONS = ("tendon", "site", "jointinparent", "cranksite", "slidersite", "refsite",
                 "body")
UNSUPPORTED = ("group", "lengthrange", "cranklength", "user", "dyntype", "dynprm",
               "actdim", "actrange", "actlimited", "actearly", "delay", "nsample", "interp")


class ActuatorReader:
    def __init__(self, doc: Document, defaults: DefaultClasses, compiler: Compiler,
                 builder: PlantBuilder):
        self.doc = doc
        self.defaults = defaults
        self.compiler = compiler
        self.builder = builder

    def read(self, actuator_el) -> None:
        doc = self.doc
        for el in doc.kids(actuator_el):
            try:
                t = tag(el)
                if t in ("general", "velocity") and doc.policy.like_drake:
                    doc.warning(el, f"The tag '{t}' found as a child of 'actuator' is "
                                    "currently unsupported and will be ignored",
                                code="mjcf-unsupported")
                elif t in SUPPORTED:
                    self._actuator(el, t)
                elif el not in doc.unknown:  # else the schema check reported it
                    doc.warning(el, f"<{t}> actuators are not supported; this one is ignored",
                                code="mjcf-unsupported")
            except ParseError as e:
                doc.recover(e)

    def _range(self, a: Attrs, name: str, limited_name: str) -> tuple[float, float] | None:
        limited = a.choice(limited_name, ("true", "false", "auto"), "auto")
        if limited == "auto":
            if not self.compiler.autolimits and a.has(name):
                a.error(name, f"'{name}' is given without '{limited_name}' while the "
                              "compiler's autolimits is off", code="mjcf-conflict")
            limited = "true" if a.has(name) else "false"
        if limited == "false":
            return None
        lo, hi = a.numbers(name, 2, (0.0, 0.0))
        if not lo < hi:
            a.error(name, f"the {name} [{lo}, {hi}] is empty: its lower end must be below its "
                          "upper end", code="limit-inverted")
        return lo, hi

    def _symmetric(self, a: Attrs, rng, what: str, label: str) -> float:
        limit = max(rng[1], -rng[0])
        if -rng[0] != rng[1]:
            self.doc.warning(a.where(what), f"actuator '{label}': the {what} [{rng[0]}, "
                                            f"{rng[1]}] is not symmetric; the effort limit is "
                                            f"{limit}", code="mjcf-unsupported")
        return limit

    def _actuator(self, el, kind: str) -> None:
        doc, plant = self.doc, self.builder.plant
        a = self.defaults.attrs(el)
        label = a.text("name") or f"motor{plant.num_actuators()}"
        joint_name = a.text("joint")
        if joint_name is None:
            used = [t for t in TRANSMISSIONS if a.has(t)]
            doc.warning(el, f"actuator '{label}' acts through "
                            f"{used[0] if used else 'no transmission'}; only joint "
                            "actuators are supported, so it is ignored", code="mjcf-unsupported")
            return
        joint = plant.find_joint(joint_name, self.builder.instance)
        if joint is None:
            doc.error(el, f"actuator '{label}' names the joint '{joint_name}', which does not "
                          "exist (or is a free joint)."
                          + self.builder.suggest_joint(joint_name),
                      code="mjcf-unknown-joint")
        a.warn_unsupported(UNSUPPORTED)
        gain, gains = self._gains(a, kind, label)
        effort = math.inf
        ctrl = self._range(a, "ctrlrange", "ctrllimited")
        force = self._range(a, "forcerange", "forcelimited")
        if ctrl is not None and (gains is None or doc.policy.like_drake):
            # A motor's control is its force (times the gain). Drake 1.51 reads
            # a position servo's control range as a force range too.
            effort = abs(gain) * self._symmetric(a, ctrl, "ctrlrange", label)
        if force is not None:
            effort = min(effort, self._symmetric(a, force, "forcerange", label))
        gear = a.numbers("gear", (1, 6), (1.0,))
        if any(gear[1:]):
            doc.warning(a.where("gear"), f"actuator '{label}': a joint transmission uses only "
                                         "the first gear value", code="mjcf-unsupported")
        with doc.diag(el).located(el):
            actuator = plant.add_joint_actuator(label, joint, effort)
            actuator.gear_ratio = gear[0]
            armature = self.builder.armature.get(joint.index)
            if armature:
                actuator.rotor_inertia = armature / (gear[0] * gear[0])
            if gains is not None:
                plant.set_controller_gains(actuator, *gains)

    def _gains(self, a: Attrs, kind: str, label: str):
        """(motor gain, PD gains or None) of an actuator."""
        doc = self.doc
        if kind == "motor":
            return 1.0, None
        if kind == "position":
            kp = a.scalar("kp", 1.0)
            kv = a.scalar("kv", a.scalar("kd", 0.0) if a.has("kd") else 0.0)
            for name in ("dampratio", "timeconst", "inheritrange"):
                if a.has(name):
                    doc.warning(a.where(name), f"the attribute '{name}' of <position> is not "
                                               "supported and is ignored", code="mjcf-unsupported")
            if doc.policy.like_drake:
                # Drake 1.51 gives a position servo no derivative gain.
                if kv:
                    doc.warning(a.where("kv" if a.has("kv") else "kd"),
                                f"actuator '{label}': Drake ignores the derivative gain of a "
                                "position actuator", code="mjcf-unsupported")
                kv = 0.0
            return 1.0, (kp, kv)
        if kind == "velocity":
            doc.warning(a.el, f"actuator '{label}': a velocity servo's gain kv is not "
                              "supported; the actuator is added without it",
                        code="mjcf-unsupported")
            return 1.0, None
        gaintype = a.choice("gaintype", ("fixed", "affine", "muscle", "user"), "fixed")
        biastype = a.choice("biastype", ("none", "affine", "muscle", "user"), "none")
        gainprm = a.number_list("gainprm") or (1.0,)
        biasprm = (a.number_list("biasprm") or ()) + (0.0, 0.0, 0.0)
        if gaintype == "fixed" and biastype == "none":
            if gainprm[0] != 1:
                doc.warning(a.where("gainprm"), f"actuator '{label}': a control gain of "
                                                f"{gainprm[0]} is not supported; only its "
                                                "effect on the effort limit is kept",
                            code="mjcf-unsupported")
            return gainprm[0], None
        if (gaintype == "fixed" and biastype == "affine" and biasprm[0] == 0
                and biasprm[1] == -gainprm[0] and gainprm[0] > 0 and biasprm[2] <= 0):
            return 1.0, (gainprm[0], -biasprm[2])
        doc.warning(a.el, f"actuator '{label}': gaintype '{gaintype}' with biastype "
                          f"'{biastype}' is not supported; it is added as a plain motor",
                    code="mjcf-unsupported")
        return 1.0, None

