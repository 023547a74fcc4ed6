"""``<equality>`` (connect → ball constraint, weld → weld constraint,
joint → coupler constraint) and ``<contact>`` (exclude → collision filter,
pair → checked, collisions stay allowed)."""
from __future__ import annotations

from ..common.suggest import did_you_mean
from ...spatial import RigidTransform, quaternion_to_matrix
from .attrs import Attrs
from .defaults import DefaultClasses
from .document import Document, tag
from .plant_builder import PlantBuilder



class ConstraintReader:
    def __init__(self, doc: Document, defaults: DefaultClasses, builder: PlantBuilder,
                 bodies: dict[str, object]):
        self.doc = doc
        self.defaults = defaults
        self.builder = builder
        self.plant = builder.plant
        self.bodies = bodies  # body name → Body record, 'world' included

    # ------------------------------------------------------------ equality
    def read_equality(self, equality_el) -> None:
        for el in self.doc.kids(equality_el):
            with self.doc.policy.recovering():
                t = tag(el)
                a = self.defaults.attrs(el, kind="equality")
                if self.doc.policy.like_drake and not self._drake_reads(t, a):
                    continue
                if t in ("connect", "weld", "joint") and a.has("active") and \
                        not a.boolean("active", True):
                    self.doc.warning(el, f"<{t}> is inactive (active='false'); constraints cannot "
                                         "start inactive here, so it is ignored",
                                     code="mjcf-unsupported")
                    continue
                if t in ("connect", "weld", "joint") and not self._plant_holds(t, el):
                    continue
                if t == "connect":
                    self._connect(a)
                elif t == "weld":
                    self._weld(a)
                elif t == "joint":
                    self._coupler(a)
                elif el not in self.doc.unknown:  # else the schema check reported it
                    self.doc.warning(el, f"<{t}> equality constraints are not supported; this one "
                                         "is ignored", code="mjcf-unsupported")

    def _drake_reads(self, t: str, a: Attrs) -> bool:
        """Drake's mode: whether Drake 1.51 reads this equality element. It
        ignores <joint> and <weld> (whatever the plant), and a <connect>
        between sites; it adds a <connect> whatever its 'active' says."""
        el = a.el
        if t in ("joint", "weld"):
            self.doc.warning(el, f"The tag '{t}' found as a child of 'equality' is currently "
                                 "unsupported and will be ignored", code="mjcf-unsupported")
            return False
        if t == "connect" and (a.has("site1") or a.has("site2")):
            self.doc.warning(el, "connect node uses the site1 and site2 specification, which is "
                                 "not supported yet. This constraint will be ignored",
                             code="mjcf-unsupported")
            return False
        if t == "connect" and el.get("active") is not None:
            self.doc.warning(el, "The attribute 'active' found in a 'connect' tag is currently "
                                 "unsupported and will be ignored", code="mjcf-unsupported")
            a.values.pop("active", None)
        return True

    def _plant_holds(self, t: str, el) -> bool:
        """Whether the plant can hold the constraint ``<t>`` declares. In
        Drake's mode the plant's own refusal stands (Drake refuses a
        <connect> on a TAMSI plant); otherwise a plant that holds no
        constraints gets the model without it, and a warning says how to
        keep it."""
        if self.doc.policy.like_drake or self.plant.supports_constraints():
            return True
        what = {"connect": "ball", "weld": "weld", "joint": "coupler"}[t]
        self.doc.warning(el, f"<{t}> (a {what} constraint) is left out: this plant (discrete, "
                             "tamsi contact approximation) holds no constraints; to keep it, "
                             "read the model into a plant that does (--contact-approximation sap "
                             "or --time-step 0)", code="constraint-left-out")
        return False

    def _body(self, a: Attrs, attr_name: str, default_world: bool = False):
        name = a.text(attr_name)
        if name is None:
            if default_world:
                return self.bodies["world"]
            a.error(attr_name, f"<{a.el.tag}> needs a '{attr_name}' attribute",
                    code="mjcf-element-missing")
        if name == "world":
            return self.bodies["world"]
        body = self.bodies.get(name)
        if body is None:
            a.error(attr_name, f"<{a.el.tag}> names the body '{name}', which does not exist."
                    + did_you_mean(name, self.bodies), code="mjcf-unknown-body")
        return body

    def _site(self, a: Attrs, attr_name: str):
        name = a.text(attr_name)
        site = self.builder.site_frames.get(name)
        if site is None:
            a.error(attr_name, f"<{a.el.tag}> names the site '{name}', which does not exist."
                    + did_you_mean(name or "", self.builder.site_frames),
                    code="mjcf-unknown-site")
        return site

    def _sites_or_bodies(self, a: Attrs):
        has_body, has_site = a.has("body1"), a.has("site1")
        if has_body and has_site:
            self.doc.error(a.el, f"<{a.el.tag}> must name either bodies or sites, not both",
                           code="mjcf-value-invalid")
        if not has_body and not has_site:
            self.doc.error(a.el, f"<{a.el.tag}> needs 'body1' or 'site1' and 'site2'",
                           code="mjcf-element-missing")
        return has_site

    def _connect(self, a: Attrs) -> None:
        if self._sites_or_bodies(a):
            if not a.has("site2"):
                a.error("site1", "<connect> with 'site1' also needs 'site2'", code="mjcf-conflict")
            _, X_AP, body_A = self._site(a, "site1")
            _, X_BQ, body_B = self._site(a, "site2")
            p_AP, p_BQ = X_AP.p, X_BQ.p
        else:
            body_A = self._body(a, "body1")
            body_B = self._body(a, "body2", default_world=True)
            if not a.has("anchor"):
                a.error("body1", "<connect> with 'body1' needs an 'anchor'", code="mjcf-conflict")
            p_AP = a.numbers("anchor", 3)
            # The anchor is on body1; body2's point is where it sits at the
            # reference configuration.
            p_BQ = (body_B.X_WB.inverse() @ body_A.X_WB).apply(p_AP)
        with self.doc.diag(a.el).located(a.el):
            self.plant.add_ball_constraint(body_A.plant_body, p_AP, body_B.plant_body, p_BQ)

    def _weld(self, a: Attrs) -> None:
        if self._sites_or_bodies(a):
            if not a.has("site2"):
                a.error("site1", "<weld> with 'site1' also needs 'site2'", code="mjcf-conflict")
            _, X_AP, body_A = self._site(a, "site1")
            _, X_BQ, body_B = self._site(a, "site2")
        else:
            body_A = self._body(a, "body1")
            body_B = self._body(a, "body2", default_world=True)
            X_BQ = RigidTransform(p=a.numbers("anchor", 3, (0.0, 0.0, 0.0)))
            relpose = a.numbers("relpose", 7, (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0))
            if any(relpose[3:]):
                X_AB = RigidTransform(quaternion_to_matrix(relpose[3:]), relpose[:3])
            else:
                X_AB = body_A.X_WB.inverse() @ body_B.X_WB
            X_AP = X_AB @ X_BQ
        if a.has("torquescale"):
            self.doc.warning(a.where("torquescale"), "the attribute 'torquescale' of <weld> is "
                                                     "not supported and is ignored",
                             code="mjcf-unsupported")
        with self.doc.diag(a.el).located(a.el):
            self.plant.add_weld_constraint(body_A.plant_body, X_AP, body_B.plant_body, X_BQ)

    def _coupler(self, a: Attrs) -> None:
        plant, instance = self.plant, self.builder.instance
        names = [a.text("joint1"), a.text("joint2")]
        if names[0] is None:
            self.doc.error(a.el, "<joint> equality needs a 'joint1' attribute",
                           code="mjcf-attribute-missing")
        if names[1] is None:
            self.doc.warning(a.el, f"<joint> equality on '{names[0]}' alone (no 'joint2') "
                                   "fixes the joint; that is not supported and it is ignored",
                             code="mjcf-unsupported")
            return
        joints = []
        for attr_name, n in zip(("joint1", "joint2"), names):
            if not plant.has_joint_named(n, instance):
                a.error(attr_name, f"<joint> equality names the joint '{n}', which does not "
                                   "exist." + self.builder.suggest_joint(n),
                        code="mjcf-unknown-joint")
            joints.append(plant.get_joint_by_name(n, instance))
        coef = a.numbers("polycoef", (1, 5), (0.0, 1.0, 0.0, 0.0, 0.0)) + (0.0,) * 5
        if any(coef[2:5]):
            self.doc.warning(a.where("polycoef"), "only the constant and linear terms of "
                                                  "'polycoef' are supported",
                             code="mjcf-unsupported")
        # MuJoCo: y - y0 = c0 + c1 (x - x0), with y0, x0 the joints' references.
        y0, x0 = joints[0].default_positions[0], joints[1].default_positions[0]
        offset = y0 + coef[0] - coef[1] * x0
        with self.doc.diag(a.el).located(a.el):
            plant.add_coupler_constraint(joints[0], joints[1], coef[1], offset)

    # ------------------------------------------------------------ contact
    def read_contact(self, contact_el) -> None:
        for el in self.doc.kids(contact_el):
            with self.doc.policy.recovering():
                t = tag(el)
                if t == "exclude":
                    a = Attrs(el, self.doc, {k: (v, el) for k, v in el.attrib.items()
                                             if isinstance(k, str)})
                    body1, body2 = self._body(a, "body1"), self._body(a, "body2")
                    self.plant.exclude_collisions_between([body1.plant_body], [body2.plant_body])
                elif t == "pair":
                    self._pair(el)
                elif el not in self.doc.unknown:  # else the schema check reported it
                    self.doc.warning(el, f"<{t}> contact elements are not supported; this one is "
                                         "ignored", code="mjcf-unsupported")

    def _pair(self, el) -> None:
        a = self.defaults.attrs(el)
        found = []
        for attr_name in ("geom1", "geom2"):
            name = a.text(attr_name)
            if name is None:
                self.doc.error(el, f"<pair> needs a '{attr_name}' attribute",
                               code="mjcf-element-missing")
            entry = self.builder.geoms_by_name.get(name)
            if entry is None:
                a.error(attr_name, f"<pair> names the geom '{name}', which does not exist."
                        + did_you_mean(name, self.builder.geoms_by_name),
                        code="mjcf-unknown-geom")
            found.append(entry)
        for attr_name in ("condim", "friction"):
            if a.has(attr_name):
                self.doc.warning(a.where(attr_name), f"the attribute '{attr_name}' of <pair> "
                                                     "is not supported and is ignored",
                                 code="mjcf-unsupported")
        (b1, _), (b2, _) = found
        if b1.parent is b2 or b2.parent is b1:
            self.doc.warning(el, f"<pair> between geoms '{a.text('geom1')}' and "
                                 f"'{a.text('geom2')}' joins bodies linked by a joint, whose "
                                 "collisions are filtered out anyway; the pair has no effect",
                             code="mjcf-unsupported")
