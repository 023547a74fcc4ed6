"""Adding the body tree to the plant: bodies with their geometry, joints
(hinge, slide, ball; free bodies float), and sites as frames."""
from __future__ import annotations

import math

from ...description import describe, facts
from ...diagnostics import ParseError
from ...geometry import GeometryInstance, GeometryProperties, Rgba
from ...geometry.properties import (DEFAULT_FRICTION, ILLUSTRATION, PERCEPTION, PROXIMITY,
                                    default_proximity_properties)
from ...plant import (BallRpyJoint, PrismaticJoint, RevoluteJoint, RevoluteSpring, WeldJoint)
from ...spatial import (IDENTITY, RigidTransform, SpatialInertia, axis_angle_to_matrix, matvec,
                        norm, scale)
from ..common.suggest import did_you_mean, too_many
from ..common.xml import MEMO_LIMIT
from .bodies import Body, PlacedJoint
from .compiler import Compiler, finite_pose, frame, z_to_vector
from .document import Document
from .mujoco_refuses import mujoco_refuses

sharing = GeometryProperties.sharing
JOINT_TYPES = ("hinge", "slide", "ball", "free")
PHONG_DIFFUSE = ("phong", "diffuse")
COULOMB_FRICTION = ("material", "coulomb_friction")
JOINT_UNSUPPORTED = ("group", "springdamper", "actuatorfrcrange", "actuatorfrclimited",
                     "actuatorgravcomp", "frictionloss", "user")
_SPRING = frozenset(("stiffness", "springref"))  # without them a joint has no spring
# Joint attributes the plant drops and the description keeps (default mode).
_DESCRIBED = frozenset(("frictionloss", "actuatorfrcrange", "springdamper"))
ZERO3 = (0.0, 0.0, 0.0)
UNIT_Z = (0.0, 0.0, 1.0)
NO_DAMPING = (0.0,)
_NO_TYPE = (None, None)  # a joint's 'type' when not written


class PlantBuilder:
    """Adds ``Body`` records to the plant of one model instance."""

    def __init__(self, doc: Document, compiler: Compiler, plant, instance: int):
        self.doc = doc
        self.compiler = compiler
        self.plant = plant
        self.instance = instance
        self.armature: dict[int, float] = {}  # joint index → armature
        self.armature_el: dict[int, object] = {}  # joint index → where it was written
        self.site_frames: dict[str, tuple[object, RigidTransform, Body]] = {}
        self.geoms_by_name: dict[str, tuple[Body, object]] = {}
        self._site_count = 0
        self._world: Body | None = None
        self._names: set[str] | None = None  # see _body_names
        # A geom's color → the phong values of its visual roles, one dict per
        # color that every geom of that color reads (GeometryProperties.sharing:
        # a set copies it before its first change), not two sets of values per geom.
        self._phong: dict[tuple, dict] = {}
        # A joint's attribute texts (outside <frame>s) → what _joint_frames gave
        self._joints_read: dict[tuple, tuple] = {}
        # Values made of the very same objects, keyed by the objects' ids: each
        # entry holds its objects, so while it is kept no other object has
        # their ids (two live objects never share one).
        # ids of a body's (mass, com, inertia) → them and their spatial inertia
        self._inertias: dict[tuple, tuple] = {}
        # ids of two transforms → them and their product (see _composed)
        self._composed_poses: dict[tuple, tuple] = {}

    def suggest_joint(self, name: str) -> str:
        """" Did you mean 'x'?" for a joint of this model one edit or two
        from ``name`` (the empty string when none is that close). The joints
        the file declares count even when one could not be added."""
        if too_many(self.plant.num_joints()):
            return ""
        declared = {el.get("name") for el in self.doc.root.iter("joint") if el.get("name")}
        added = {j.name for j in self.plant.joints()
                 if j.model_instance == self.instance and not j.is_ephemeral}
        return did_you_mean(name, declared | added)

    # ------------------------------------------------------------ bodies
    def add_world(self, world: Body, with_sites: bool = True) -> None:
        """Adds every body below ``world``, then the sites' frames (unless
        the tree has none: ``with_sites``): MuJoCo keeps sites and bodies in
        separate name spaces, so a body keeps its name even when a site
        above it was written first with the same name."""
        world.plant_body = self.plant.world_body()
        self._geometry(world)
        self._world = world
        self._names = None
        for child in world.children:
            try:
                self.add_body(child)
            except ParseError as e:
                self.doc.recover(e)
        if not with_sites:
            return
        pending = [world]
        while pending:
            body = pending.pop()
            if body.plant_body is None:
                continue  # its reading failed (and was reported)
            if body.sites:
                try:
                    self._sites(body)
                except ParseError as e:
                    self.doc.recover(e)
            if body.children:
                pending += reversed(body.children)

    @property
    def _body_names(self) -> set[str]:
        """The names of every body of the tree, the world's included (made
        when first needed: only a site, or a body of several joints, asks)."""
        names = self._names
        if names is None:
            names = self._names = set()
            pending = [self._world]
            while pending:
                body = pending.pop()
                names.add(body.name)
                pending.extend(body.children)
        return names

    def add_body(self, body: Body) -> None:
        doc = self.doc
        el = body.el
        body.plant_body = doc.diag(el).add_at(el, self.plant.add_rigid_body, body.name,
                                              self.instance, self._spatial_inertia(body))
        if body.geoms:
            try:
                self._geometry(body)
            except ParseError as e:
                doc.recover(e)
        try:
            self._joints(body)
        except ParseError as e:
            doc.recover(e)
        # Nothing reads a joint's record once it is built: its attributes
        # (most of what the records hold) go now, not with the whole tree.
        body.joints = []
        for child in body.children:
            try:
                self.add_body(child)
            except ParseError as e:
                doc.recover(e)

    def _spatial_inertia(self, body: Body) -> SpatialInertia:
        """The body's spatial inertia. Bodies whose mass, center of mass and
        inertia are the very same objects (the tree reader keeps one geom's
        and one ``<inertial>``'s by their values) share one: an immutable
        value, which the plant then checks once, not once per body."""
        mass, com, inertia = body.mass, body.com, body.inertia
        key = (id(mass), id(com), id(inertia))
        known = self._inertias.get(key)
        if known is not None:  # (same ids, same objects: see __init__)
            return known[3]
        M = SpatialInertia(mass, com, inertia)
        if len(self._inertias) < MEMO_LIMIT:
            self._inertias[key] = (mass, com, inertia, M)
        return M

    def _geometry(self, body: Body) -> None:
        plant = self.plant
        by_name = self.geoms_by_name
        for g in body.geoms:
            if g.name not in by_name:
                by_name[g.name] = (body, g)
        if not plant.geometry_source_is_registered():
            return
        doc = self.doc
        for g in body.geoms:
            el = g.el
            source = (doc.diag(el).file, el.sourceline)
            if g.visual:
                phong = self._phong.get(g.rgba)
                if phong is None:
                    phong = self._phong[g.rgba] = {PHONG_DIFFUSE: Rgba(*g.rgba)}
                plant.register_visual_geometry(body.plant_body, GeometryInstance(
                    g.X_BG, g.shape, g.name,
                    {ILLUSTRATION: sharing(phong), PERCEPTION: sharing(phong)}, source))
            if g.collision:
                friction = g.friction
                proximity = default_proximity_properties() if friction is DEFAULT_FRICTION \
                    else GeometryProperties({COULOMB_FRICTION: friction})
                plant.register_collision_geometry(body.plant_body, GeometryInstance(
                    g.X_BG, g.shape, g.name, {PROXIMITY: proximity}, source))

    def _sites(self, body: Body) -> None:
        plant = self.plant
        for site in body.sites:
            a = site.attrs
            if a.has("fromto"):
                f = a.numbers("fromto", 6)
                d = tuple(e - s for s, e in zip(f[:3], f[3:]))
                if norm(d) < 1e-14:
                    a.error("fromto", "the two points of the site's 'fromto' coincide",
                            code="mjcf-value-invalid")
                X = RigidTransform(z_to_vector(d), tuple((s + e) / 2 for s, e in
                                                          zip(f[:3], f[3:])))
            else:
                X = frame(a, self.compiler)
            X_BS = finite_pose(self.doc, site.el, site.X_BF @ X)
            name = a.text("name")
            if name is None:
                name = f"site{self._site_count}"
            self._site_count += 1
            self.site_frames[name] = (site.el, X_BS, body)
            frame_name = name
            while (plant.has_frame_named(frame_name, self.instance)
                   or frame_name in self._body_names):
                frame_name += "_site"
            if frame_name != name:
                # MuJoCo keeps sites and bodies in separate name spaces; frames share one.
                self.doc.warning(site.el, f"the site '{name}' has the name of another frame of "
                                          f"the model; its frame is named '{frame_name}'",
                                 code="mjcf-site-renamed")
            with self.doc.diag(site.el).located(site.el):
                plant.add_frame(frame_name, body.plant_body.body_frame, X_BS, self.instance)

    # ------------------------------------------------------------ joints
    def _dummy_name(self, body: Body, name: str) -> str:
        """The name of a massless body between two joints of ``body``: Drake's
        (the body's name and a number), unless a body of the model has it —
        Drake then refuses the file; the default mode adds underscores."""
        if self.doc.policy.like_drake or not (name in self._body_names or
                                              self.plant.has_body_named(name, self.instance)):
            return name
        free = name
        while free in self._body_names or self.plant.has_body_named(free, self.instance):
            free += "_"
        self.doc.diag(body.el).drake_refuses(
            body.el, f"the massless body Drake adds between the joints of body '{body.name}' "
                     f"is named '{name}', the name of another body of the model",
            f"mbparse names it '{free}'", code="mjcf-conflict")
        return free

    def _joints(self, body: Body) -> None:
        joints = body.joints
        parent = body.parent.plant_body
        if len(joints) == 1 and (joints[0].key in self._joints_read or  # (not a free one)
                                 joints[0].attrs.values.get("type", _NO_TYPE)[0] != "free"):
            # (most bodies) one joint: from the parent to the body, placed where it is
            self._joint(joints[0], parent, body.plant_body, body.X_PB)
            return
        doc = self.doc
        plant = self.plant
        free = [j for j in joints if j.attrs.text("type") == "free"]
        if free:
            j = free[0]
            if len(body.joints) > 1:
                doc.error(j.el, f"body '{body.name}' has a free joint and other joints; a free "
                                "joint must be the body's only joint", code="mjcf-value-invalid")
            if body.parent.parent is not None:
                # Drake gives the body its pose in the world and no joint to
                # its parent: it floats free of it once the plant is finalized.
                mujoco_refuses(doc, j.el, f"body '{body.name}' has a free joint but is not a "
                               "child of the world body", "free joint can only be used on top "
                               "level", "mbparse reads it as Drake does: the body floats free "
                               "of its parent, starting at its pose in the world")
            self._check_attributes(j)
            if j.attrs.scalar("damping", 0.0):
                doc.warning(j.el, f"damping on the free joint of body '{body.name}' is not "
                                  "supported and is ignored", code="mjcf-unsupported")
            if not doc.policy.like_drake and j.attrs.scalar("armature", 0.0):
                doc.warning(j.attrs.where("armature"), f"the armature of the free joint of "
                                                       f"body '{body.name}' is not supported "
                                                       "and is ignored", code="mjcf-unsupported")
            plant.set_default_free_body_pose(body.plant_body, body.X_WB)
            name = j.attrs.text("name")
            if name and not doc.policy.like_drake:  # the plant has no free joint to name
                model = plant.model_instance(self.instance)
                named = facts(model).get("free_joints")
                if named is None:
                    named = {}
                    describe(model, "free_joints", named)
                named[body.plant_body.name] = name
            return
        if not body.joints:
            with doc.diag(body.el).located(body.el):
                plant.add_joint(WeldJoint, f"{parent.name}_welds_to_{body.name}", parent, None,
                                body.plant_body, None, body.X_PB)
            return
        chain = []
        for name in body.dummy_names:
            name = self._dummy_name(body, name)
            with doc.diag(body.el).located(body.el):
                chain.append(plant.add_rigid_body(name, self.instance, SpatialInertia.zero()))
        chain.append(body.plant_body)
        previous = parent
        # MuJoCo: every joint's axis is in the body's frame, so the body's pose
        # goes first and the massless bodies sit where the body is. Drake puts
        # it on the last joint: the others act in the parent's frame, and the
        # massless bodies sit where the parent is.
        placed_at = len(body.joints) - 1 if doc.policy.like_drake else 0
        for k, (placed, child) in enumerate(zip(body.joints, chain)):
            X_P = body.X_PB if k == placed_at else RigidTransform()
            self._joint(placed, previous, child, X_P)
            previous = child

    def _check_attributes(self, j: PlacedJoint) -> None:
        j.attrs.warn_unsupported(JOINT_UNSUPPORTED, "joint")  # a <freejoint>'s too

    def _limits(self, j: PlacedJoint, kind: str) -> tuple[float, float] | None:
        a = j.attrs
        limited = a.choice("limited", ("true", "false", "auto"), "auto")
        has_range = a.has("range")
        if limited == "auto":
            if not self.compiler.autolimits and has_range:
                a.error("range", "the joint has a 'range' but no 'limited', and the compiler's "
                                 "autolimits is off", code="mjcf-conflict")
            limited = "true" if has_range else "false"
        if limited == "false":
            return None
        lo, hi = a.numbers("range", 2, (0.0, 0.0))
        if kind == "ball":
            # A ball joint's range is a cone: [0, largest angle]; [0, 0] is allowed.
            if lo != 0:
                a.error("range" if has_range else "limited",
                        f"the range [{lo}, {hi}] of a ball joint must start at 0",
                        code="mjcf-value-invalid")
        elif not lo < hi:
            a.error("range" if has_range else "limited",
                    f"the joint range [{lo}, {hi}] is empty: its lower end must be below its "
                    "upper end", code="limit-inverted")
        return lo, hi

    def _joint(self, j: PlacedJoint, parent, child, X_P: RigidTransform) -> None:
        doc = self.doc
        name = j.name or f"{parent.name}-{child.name}"
        # A joint written as one read before (its class and attributes, its
        # name aside), outside any <frame>, gets that one's kind, axis,
        # limits and frames: they depend on nothing else (see _joint_frames).
        key = j.key
        known = self._joints_read.get(key) if key is not None else None
        if known is None:
            policy = doc.policy
            said = len(policy.warnings_seen)
            values = j.attrs.values
            # (plain: none of the attributes read after the joint is added)
            known = (*self._joint_frames(j, name), _SPRING.isdisjoint(values)
                     and _DESCRIBED.isdisjoint(values) and "armature" not in values)
            if key is not None and len(policy.warnings_seen) == said \
                    and len(self._joints_read) < MEMO_LIMIT:
                self._joints_read[key] = known
        kind, X_CJ, X_CM, axis, damping, limits, ref, plain = known
        negative_damping = None
        if damping < 0 and not doc.policy.like_drake:
            negative_damping, damping = damping, 0.0
            a = j.attrs
            doc.warning(a.where("damping"), f"joint '{name}' has damping {damping_text(a)}, "
                        "which MuJoCo takes (the joint gains energy as it moves) [Drake refuses "
                        "this: damping must be non-negative; mbparse gives the joint damping 0 "
                        "and keeps the value for conversions]", code="joint-damping-negative")
        X_PJ = self._composed(X_P, X_CJ)
        joint = doc.diag(j.el).add_at(j.el, self._add_typed_joint, kind, name, parent, X_PJ,
                                      child, X_CM, X_CJ, axis, damping, limits, ref, j)
        if negative_damping is not None:
            describe(joint, "damping", [negative_damping])
        if not plain:
            self._joint_extras(j, joint, kind)

    def _joint_extras(self, j: PlacedJoint, joint, kind: str) -> None:
        """What a joint's spring, description and armature attributes add
        once it is in the plant."""
        a = j.attrs
        values = a.values
        if not _SPRING.isdisjoint(values):
            self._spring(j, joint, kind)
        if not _DESCRIBED.isdisjoint(values) and not self.doc.policy.like_drake:
            self._describe(j, joint)
        if "armature" in values:
            armature = a.scalar("armature", 0.0)
            if armature:
                self.armature[joint.index] = armature
                self.armature_el[joint.index] = a.where("armature")

    def _add_typed_joint(self, kind: str, name: str, parent, X_PJ: RigidTransform, child,
                         X_CM: RigidTransform, X_CJ: RigidTransform, axis, damping,
                         limits, ref: float, j: PlacedJoint):
        """The plant's joint for a hinge, slide or ball, with its limits and
        default position (called through ``add_at``: the plant's refusals
        become errors at the joint)."""
        if kind == "hinge":
            joint = self.plant.add_joint(RevoluteJoint, name, parent, X_PJ, child, X_CM,
                                         axis, -math.inf, math.inf, damping)
            if limits is not None:
                joint.set_position_limits([limits[0]], [limits[1]])
            if ref != 0.0 or math.copysign(1.0, ref) < 0:  # else it stays at [0.0]
                joint.set_default_positions([ref])
        elif kind == "slide":
            joint = self.plant.add_joint(PrismaticJoint, name, parent, X_PJ, child, X_CM,
                                         axis, -math.inf, math.inf, damping)
            if limits is not None:
                joint.set_position_limits([limits[0]], [limits[1]])
            joint.set_default_positions([ref])
        else:
            joint = self.plant.add_joint(BallRpyJoint, name, parent, X_PJ, child, X_CJ,
                                         damping)
            if limits is not None:
                self.doc.warning(j.attrs.where("range"), f"joint '{name}': the cone limit of a ball "
                                                   "joint is not supported and is ignored",
                                 code="mjcf-unsupported")
        return joint

    def _composed(self, X_P: RigidTransform, X_CJ: RigidTransform) -> RigidTransform:
        """``X_P @ X_CJ``, made once for each pair of the very same
        transforms (a body's pose and its joint's frame are kept by their
        texts, so a model's repeated bodies and joints ask again)."""
        key = (id(X_P), id(X_CJ))
        known = self._composed_poses.get(key)
        if known is not None:
            return known[2]
        X = X_P @ X_CJ
        if len(self._composed_poses) < MEMO_LIMIT:
            self._composed_poses[key] = (X_P, X_CJ, X)
        return X

    def _joint_frames(self, j: PlacedJoint, name: str) -> tuple:
        """What a joint's attributes give, before it is added: (kind, X_CJ,
        X_CM, axis, linear damping, position limits in radians or metres or
        None, default position). A function of the joint's attribute texts
        and of the pose of the <frame> elements around it (the compiler's
        settings are read by then); every value is checked here, in the
        order the reading always had."""
        a, c = j.attrs, self.compiler
        values = a.values
        v = values.get("type")
        kind = "hinge" if v is None else v[0] if v[0] in JOINT_TYPES else \
            a.choice("type", JOINT_TYPES, "hinge")
        X_BF = j.X_BF
        if "pos" not in values:
            pos = X_BF.p if X_BF is IDENTITY else X_BF.apply(ZERO3)
        elif X_BF is IDENTITY:  # what apply() gives: each number + 0.0
            p = a.numbers("pos", 3)
            pos = (p[0] + 0.0, p[1] + 0.0, p[2] + 0.0)
        else:
            pos = X_BF.apply(a.numbers("pos", 3))
        axis = a.numbers("axis", 3) if "axis" in values else UNIT_Z
        length = norm(axis)
        if length < 1e-14:
            a.error("axis", f"joint '{name}' has a zero axis", code="axis-zero")
        k = 1.0 / length
        axis = matvec(X_BF.R, (k * axis[0], k * axis[1], k * axis[2]))
        if "damping" in values:
            damping = a.numbers("damping", (1, 3))
            if len(damping) > 1 and any(damping[1:]):
                self.doc.warning(a.where("damping"), f"joint '{name}': only the linear damping "
                                                     "coefficient is supported; the others are "
                                                     "ignored", code="mjcf-unsupported")
        else:
            damping = NO_DAMPING
        limits = self._limits(j, kind) if "limited" in values or "range" in values else None
        if not values.keys().isdisjoint(JOINT_UNSUPPORTED):
            self._check_attributes(j)
        X_CJ = RigidTransform(p=pos)
        ref = a.scalar("ref", 0.0) if "ref" in values else 0.0
        X_CM = None
        if kind == "hinge":
            ref = c.angle(ref)
            # X_CJ·(the rotation by ref): X_CJ has no rotation, so that is
            # the rotation at X_CJ's point (each number + 0.0, as @ adds).
            X_CM = RigidTransform(axis_angle_to_matrix(axis, ref),
                                  (pos[0] + 0.0, pos[1] + 0.0, pos[2] + 0.0))
            if limits is not None:
                limits = (c.angle(limits[0]), c.angle(limits[1]))
        elif kind == "slide":
            X_CM = X_CJ @ RigidTransform(p=scale(ref, axis))
        return kind, X_CJ, X_CM, axis, damping[0], limits, ref

    def _describe(self, j: PlacedJoint, joint) -> None:
        """Records the joint's dry friction (``frictionloss``), the clamp
        on its actuators' force (``actuatorfrcrange``) and its
        ``springdamper``, which the plant does not hold, in its description
        (mbparse.description) for the writers: a symmetric range as
        ``effort``, another as ``effort_range``."""
        a = j.attrs
        if a.has("springdamper"):
            timeconst, dampratio = a.numbers("springdamper", 2)
            if timeconst > 0 and dampratio > 0:  # else MuJoCo ignores it
                describe(joint, "spring_damper", [timeconst, dampratio])
        friction = a.scalar("frictionloss", 0.0)
        if friction:
            describe(joint, "friction", [friction] * joint.nv)
        if a.has("actuatorfrcrange") and a.choice(
                "actuatorfrclimited", ("true", "false", "auto"), "auto") != "false":
            lo, hi = a.numbers("actuatorfrcrange", 2)
            if not lo < hi:  # MuJoCo leaves the force unclamped
                return
            if lo == -hi:
                describe(joint, "effort", [hi] * joint.nv)
            else:
                describe(joint, "effort_range", [[lo, hi]] * joint.nv)

    def warn_unused_armature(self) -> None:
        """Armature becomes an actuator's rotor inertia; without an actuator
        on its joint it has nowhere to go in the plant, and is kept in the
        joint's description (default mode) for the writers."""
        if not self.armature_el:  # (most models) no armature at all
            return
        actuated = {a.joint.index for a in self.plant.actuators()}
        for index, el in self.armature_el.items():
            if index not in actuated:
                joint = self.plant.get_joint(index)
                if not self.doc.policy.like_drake:
                    describe(joint, "armature", [self.armature[index]] * joint.nv)
                self.doc.warning(el, f"the armature of joint '{self.plant.get_joint(index).name}' "
                                     "is ignored: it is kept as the rotor inertia of an "
                                     "actuator, and no actuator drives this joint",
                                 code="mjcf-unsupported")

    def _spring(self, j: PlacedJoint, joint, kind: str) -> None:
        a = j.attrs
        if self.doc.policy.like_drake:
            # Drake 1.51 makes no spring of a joint's stiffness.
            for name in ("stiffness", "springref"):
                if a.has(name):
                    self.doc.warning(a.where(name), f"The attribute '{name}' found in a 'joint' "
                                                    "tag is currently unsupported and will be "
                                                    "ignored", code="mjcf-unsupported")
            return
        stiffness = a.numbers("stiffness", (1, 3), (0.0,))
        if any(stiffness[1:]):
            self.doc.warning(a.where("stiffness"), f"joint '{joint.name}': only the linear "
                                                   "stiffness is supported",
                             code="mjcf-unsupported")
        if stiffness[0] == 0:
            if a.has("springref"):
                a.scalar("springref")
            return
        if kind != "hinge":
            self.doc.warning(a.where("stiffness"), f"joint '{joint.name}': a spring on a "
                                                   f"{kind} joint is not supported and is "
                                                   "ignored", code="mjcf-unsupported")
            if kind == "slide":  # kept for the writers (mbparse.description)
                describe(joint, "spring_stiffness", [stiffness[0]])
                describe(joint, "spring_reference", [a.scalar("springref", 0.0)])
            return
        if stiffness[0] < 0:
            a.error("stiffness", f"joint '{joint.name}' has a negative stiffness",
                    code="value-out-of-range")
        nominal = self.compiler.angle(a.scalar("springref", 0.0))
        self.plant.add_force_element(RevoluteSpring(joint, nominal, stiffness[0]))


def damping_text(a) -> str:
    """A joint's 'damping' as written (its first number, the linear one)."""
    text = a.text("damping") or ""
    return text.split()[0] if text.split() else text
