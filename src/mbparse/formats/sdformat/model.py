"""Adding the models of a loaded SDFormat document to the plant, in Drake's
order: nested models, links, the ``__model__`` frame, joints, mimics,
explicit frames, Drake's extension elements, static welds and collision
filter groups."""
from __future__ import annotations

from ...plant import WeldJoint
from ...spatial import RigidTransform, matvec
from ..common import drake
from . import deformable, drake_elements, values
from .auto_inertia import auto_inertial
from ...diagnostics import ParseError
from ..common.xml import children, first_child
from .lookup import all_named_in, child_index, prefixed_children
from .diagnostic import SdfDiagnostic, check_supported, check_value
from .frames import MODEL_FRAME, ORIGIN, WORLD, FrameGraph, Scope
from .geometry import SdfGeometryReader
from .joints import JointReader, read_number

LINK_TAGS = frozenset({"drake:surface_velocity_axis", "drake:visual", "collision", "gravity",
                       "inertial", "kinematic", "pose", "visual"})
MODEL_TAGS = frozenset({"drake:joint", "drake:linear_bushing_rpy", "drake:linear_spring_damper",
                        "drake:ball_constraint", "drake:distance_constraint",
                        "drake:tendon_constraint", "drake:collision_filter_group", "frame",
                        "include", "joint", "link", "model", "pose", "static"})
WORLD_TAGS = frozenset({"frame", "include", "joint", "model"})
MOMENT_TAGS = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
MISSING = object()  # (an argument not given)


class ModelBuilder:
    """Puts the scopes of one document into the plant."""

    def __init__(self, diag: SdfDiagnostic, graph: FrameGraph, workspace, resolve_uri,
                 first_reusable_instance: int):
        self.diag = diag
        self.graph = graph
        self.ws = workspace
        self.plant = workspace.plant
        self.geometry = SdfGeometryReader(diag, resolve_uri)
        self.joints = JointReader(diag, self.plant, self)
        # Model instances from this index on were made by this parse, so a
        # scope that names one of them reuses it instead of adding another.
        self.first_reusable_instance = first_reusable_instance
        self.bodies: dict[str, object] = {}  # link vertex id -> body
        self.root: Scope | None = None

    def release(self) -> None:
        """Drops the joint reader, which refers back to this builder (see
        SdfReader.release); the builder reads no more."""
        self.joints = None

    def resolve_uri_for(self, el, uri: str) -> str:
        return self.geometry.resolve(el, uri)

    # ------------------------------------------------------------ poses
    def X_W(self, vid: str) -> RigidTransform:
        return self.graph.pose_in(self.root, vid)

    def relative(self, scope: Scope, vid: str, base: str) -> RigidTransform:
        """X_BV resolved as libsdformat resolves it in ``scope`` (whose frame
        is the root of the composition); the world is the root otherwise."""
        return self.graph.relative_in(scope, vid, base, self.root)

    def body_of_vertex(self, vid: str, el=None):
        """The body of the link ``vid`` (or the world); ``el``, the element
        that refers to it, is where a link that was not read is reported
        (only in ``check``'s mode, where reading goes on after the error
        that stopped the link)."""
        if vid == WORLD:
            return self.plant.world_body()
        body = self.bodies.get(vid)
        if body is None:
            self.diag.error(el, f"This refers to link '{vid}', which was not read because of "
                                "an error reported at it.", code="sdf-unknown-reference")
        return body

    def joint_end_body(self, vertex, end: str, kids: dict | None = None):
        """The body (and its vertex) a joint's <parent> or <child> names
        (``kids``: the child index of the joint, when the caller has it)."""
        if kids is None:
            name = (vertex.el.findtext(end) or "").strip()
        else:
            node = kids.get(end)
            name = (node.text or "").strip() if node is not None else ""
        scope = vertex.scope
        if end == "parent" and name == WORLD:
            return self.plant.world_body(), WORLD
        what = "parent frame" if end == "parent" else "child frame"
        vid = self.graph.resolve(scope, name, vertex.el, what)
        body = self.graph.body_of(vid)
        return self.body_of_vertex(body, vertex.el), body

    def joint_pose_in_body(self, vertex, body_vid: str) -> RigidTransform:
        if body_vid == WORLD:
            return self.X_W(vertex.id)
        return self.relative(vertex.scope, vertex.id, body_vid)

    def joint_pose_in_world(self, vertex, is_model_joint: bool) -> RigidTransform:
        return self.X_W(vertex.id)

    def axis_in_joint(self, vertex, expressed_in: str, el, xyz):
        """The axis ``xyz`` (expressed in frame ``expressed_in``) in the joint
        frame, rotated as libsdformat rotates it."""
        graph = self.graph
        vid = graph.resolve(vertex.scope, expressed_in, el, "axis expressed_in")
        scope = vertex.scope
        if graph.contains(scope, vid) and graph.contains(scope, vertex.id):
            return graph.gz_relative(scope, vid, vertex.id).rotate(xyz)
        return matvec((self.X_W(vertex.id).inverse() @ self.X_W(vid)).R, xyz)

    # ------------------------------------------------------------ models
    def add_world(self, world: Scope, parent_model_name: str | None) -> list[int]:
        self.root = world
        if world.el is not None and world.kind == "world" and world.el.tag == "world":
            check_supported(self.diag, world.el, WORLD_TAGS)
        instances: list[int] = []
        recovered = self.diag.policy.recovered
        for scope in world.models:
            try:
                name = self.ws.make_model_name(scope.name, parent_model_name)
                instances += self.add_model(scope, name)
            except ParseError as e:
                if not recovered(e):
                    raise
        if world.el is not None and world.el.tag == "world":
            self.world_elements(world)
        return instances

    def instance_for(self, scope: Scope, name: str) -> int:
        plant = self.plant
        if plant.has_model_instance_named(name):
            index = plant.get_model_instance_by_name(name)
            if index >= self.first_reusable_instance:
                return index
        return self.diag.add_at(scope.el, plant.add_model_instance, name)

    def add_model(self, scope: Scope, name: str) -> list[int]:
        if scope.kind == "custom":
            return []  # Drake does not list instances read by another reader
        diag = self.diag
        plant = self.plant
        el = scope.el
        instance = self.instance_for(scope, name)
        scope.instance = instance
        first = scope.first_children
        if first is None or len(el) != len(scope.kids) or not MODEL_TAGS.issuperset(first):
            check_supported(diag, el, MODEL_TAGS)
        # (otherwise every child has a plain name check_supported accepts:
        # it would find nothing to say)
        prefixed = prefixed_children(el, scope.kids if first is not None else None)
        added = [instance]
        # (try/except ParseError around each element rather than
        # ``with recovering()``: no context object per link, joint, frame)
        recovered = diag.policy.recovered
        for nested in scope.models:
            try:
                added += self.add_model(nested, f"{name}::{nested.name}")
            except ParseError as e:
                if not recovered(e):
                    raise
        X_WM = self.X_W(scope.path)
        for link in scope.links:
            try:
                kids = link.kids if link.kids is not None else child_index(link.el)
                if kids.get("drake:deformable_properties") is not None:
                    deformable.add_deformable_link(self, link, instance)
                else:
                    self.link(link, instance, kids)
            except ParseError as e:
                if not recovered(e):
                    raise
        # The model frame, fixed to the canonical link (unless deformable).
        if scope.canonical is not None and scope.canonical in self.bodies:
            body = self.bodies[scope.canonical]
            X_LM = self.relative(scope.parent, scope.path, scope.canonical)
            diag.add_at(el, plant.add_frame, MODEL_FRAME, body.body_frame, X_LM, instance)
        else:
            diag.add_at(el, plant.add_frame, MODEL_FRAME, plant.world_frame(), X_WM, instance)
        joint_types = self.joints_and_frames(scope, instance)
        drake_elements.add_all(self, scope, instance, prefixed)
        if scope.static:
            if any(t != "fixed" for t in joint_types):
                diag.error(el, "Only fixed joints are permitted in static models.",
                           code="sdf-structure")
            welded = _welded_to_world(plant)
            for link in scope.links:
                body = self.bodies.get(link.id)
                if body is None:
                    continue
                if body.index not in welded:
                    with diag.located(el):
                        plant.add_joint(WeldJoint, f"sdformat_model_static_world_welds_to_"
                                        f"{body.name}", plant.world_body(), None, body, None,
                                        self.X_W(link.id))
                    welded = _welded_to_world(plant)
        if plant.geometry_source_is_registered():
            drake_elements.collision_filter_groups(self, scope, instance, prefixed)
        return added

    def joints_and_frames(self, scope: Scope, instance: int) -> set[str]:
        """Adds the joints of a model, their mimics and then its explicit
        frames; returns the joint types."""
        recovered = self.diag.policy.recovered
        joint_types = set()
        for joint in scope.joints:
            try:
                joint_types.add(self.joints.add(joint, instance, True))
            except ParseError as e:
                if not recovered(e):
                    raise
        self.mimics(scope, instance)
        for frame in scope.frames:
            try:
                self.frame(frame, scope, instance)
            except ParseError as e:
                if not recovered(e):
                    raise
        return joint_types

    def mimics(self, scope: Scope, instance: int) -> None:
        """The ``<drake:mimic>`` of the joints of ``scope`` (once every joint
        exists), then its gearboxes."""
        recovered = self.diag.policy.recovered
        for joint in scope.joints:
            try:
                self.joints.mimic(joint.el, instance, joint.kids)
            except ParseError as e:
                if not recovered(e):
                    raise
        self.joints.couple_gearboxes()

    def world_elements(self, world: Scope) -> None:
        recovered = self.diag.policy.recovered
        for frame in world.frames:
            try:
                self.frame(frame, world, 0)
            except ParseError as e:
                if not recovered(e):
                    raise
        types = set()
        for joint in world.joints:
            try:
                types.add(self.joints.add(joint, 0, False))
            except ParseError as e:
                if not recovered(e):
                    raise
        self.mimics(world, 0)
        if any(t != "fixed" for t in types):
            self.diag.error(world.el, "Only fixed joints are permitted in world joints.",
                            code="sdf-structure")

    # ------------------------------------------------------------ links
    def link(self, vertex, instance: int, kids: dict | None = None) -> None:
        """Adds the body of link ``vertex`` (``kids``: the child index of its
        element, when the caller has it)."""
        diag = self.diag
        plant = self.plant
        el = vertex.el
        kids = check_supported(diag, el, LINK_TAGS, kids)
        check_value(diag, el, "kinematic", "false", kids)
        check_value(diag, el, "gravity", "true", kids)
        M = self.inertia(el, kids.get("inertial"))
        body = diag.add_at(el, plant.add_rigid_body, el.get("name"), instance, M)
        self.bodies[vertex.id] = body
        X_WL = self.X_W(vertex.id)
        plant.set_default_free_body_pose(body, X_WL)
        if plant.geometry_source_is_registered():
            self.link_geometry(el, body, kids)
        sv = kids.get("drake:surface_velocity_axis")
        if sv is not None:
            diag.warning(sv, "<drake:surface_velocity_axis> is read but not kept by mbparse: "
                             "surface velocities are not part of its model.",
                         code="sdf-unsupported")

    def link_geometry(self, el, body, kids: dict) -> None:
        """The visuals and collisions of link ``el`` (``kids``: its child index)."""
        diag = self.diag
        plant = self.plant
        recovered = diag.policy.recovered
        visuals = all_named_in(el, "visual", kids) if "visual" in kids else []
        if "drake:visual" in kids:
            for dv in children(el, "drake:visual"):
                visuals.append(drake_elements.drake_visual_to_visual(diag, dv))
        for visual in visuals:
            try:
                if visual is None:
                    continue
                visual_kids = child_index(visual)
                X_LG = self.X_element(visual, el, visual_kids.get("pose"))
                instance = self.geometry.visual(visual, X_LG, visual_kids)
                if instance is not None:
                    diag.add_at(visual, plant.register_visual_geometry, body, instance)
            except ParseError as e:
                if not recovered(e):
                    raise
        for collision in (all_named_in(el, "collision", kids) if "collision" in kids else ()):
            try:
                collision_kids = child_index(collision)
                X_LG = self.X_element(collision, el, collision_kids.get("pose"))
                instance = self.geometry.collision(collision, X_LG, collision_kids)
                if instance is not None:
                    diag.add_at(collision, plant.register_collision_geometry, body, instance)
            except ParseError as e:
                if not recovered(e):
                    raise

    def X_element(self, el, link_el, pose=MISSING) -> RigidTransform:
        """Pose of a visual or collision in its link (relative_to may name
        another frame of the model); ``pose``: its ``<pose>`` child, when
        the caller has it."""
        if pose is MISSING:
            pose = first_child(el, "pose")
        if pose is None:
            return ORIGIN
        X = self.diag.checked(pose, "pose", lambda: self.diag.pose(pose), ORIGIN)
        relative_to = pose.get("relative_to")
        if not relative_to:
            return X
        scope_vertex = self.graph.vertices[self._link_vid(link_el)]
        target = self.graph.resolve(scope_vertex.scope, relative_to, pose, "relative_to")
        return self.relative(scope_vertex.scope, target, scope_vertex.id) @ X

    def _link_vid(self, link_el) -> str:
        for vid, body in self.bodies.items():
            if self.graph.vertices[vid].el is link_el:
                return vid
        for vid, vertex in self.graph.vertices.items():  # a link not added yet
            if vertex.kind == "link" and vertex.el is link_el:
                return vid
        # (only in check's mode, where reading goes on after the error that
        # kept the link out of the frame graph: a missing or bad name)
        self.diag.error(link_el, "This link was not read because of an error reported at it.",
                        code="sdf-unknown-reference")

    def inertia(self, el, inertial):
        """The spatial inertia of link ``el`` from its ``<inertial>``."""
        diag = self.diag
        mass = 1.0
        moments = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
        X = ORIGIN
        if inertial is not None:
            auto = inertial.get("auto")
            # (no attribute, the default: nothing to read)
            if auto is not None and diag.checked(inertial, "bool",
                                                 lambda: values.parse_bool(auto), False):
                X, mass, moments = auto_inertial(
                    diag, el, inertial, lambda c: self.X_element(c, el),
                    self.resolve_uri_for)
                return drake.spatial_inertia(X, mass, moments,
                                                 lambda m, code: diag.warning(el, m, code=code))
            kids = child_index(inertial)
            mass_el = kids.get("mass")
            if mass_el is not None:
                if (mass_el.text or "").strip():
                    mass = read_number(diag, mass_el, 0.0)
                else:
                    _empty_value(diag, mass_el, "1 kg")
            node = kids.get("inertia")
            if node is not None:
                moment_els = child_index(node)
                for i, key in enumerate(MOMENT_TAGS):
                    child = moment_els.get(key)
                    if child is not None:
                        if (child.text or "").strip():
                            moments[i] = read_number(diag, child, 0.0)
                        else:
                            _empty_value(diag, child, f"{moments[i]:g} kg·m²")
            pose = kids.get("pose")
            if pose is not None:
                try:
                    X = diag.pose(pose)
                except ValueError as e:
                    diag.error(pose, f"Cannot read <pose>: {e}.", code="sdf-value-invalid")
        return drake.spatial_inertia(X, mass, moments,
                                     lambda m, code: diag.warning(el, m, code=code))

    # ------------------------------------------------------------ frames
    def frame(self, vertex, scope: Scope, instance: int) -> None:
        diag = self.diag
        plant = self.plant
        el = vertex.el
        attached = vertex.attached_to
        graph = self.graph
        if not attached:
            base = scope.path or WORLD
            parent = (plant.world_frame() if scope.kind == "world"
                      else plant.get_frame_by_name(MODEL_FRAME, instance))
        else:
            base = graph.resolve(scope, attached, el, "attached_to")
            parent = self.plant_frame_for(scope, instance, attached, base)
        X_PF = self.relative(scope, vertex.id, base)
        # As in Drake, the frame joins the model instance of its parent frame.
        diag.add_at(el, plant.add_frame, el.get("name"), parent, X_PF, None)

    def plant_frame_for(self, scope: Scope, instance: int, name: str, vid: str):
        """Drake's choice of the plant frame a scoped name refers to."""
        plant = self.plant
        prefix = plant.get_model_instance_name(instance) if instance != 0 else ""
        absolute = f"{prefix}::{name}" if prefix else name
        if plant.has_model_instance_named(absolute):
            return plant.get_frame_by_name(MODEL_FRAME, plant.get_model_instance_by_name(absolute))
        owner, _, local = name.rpartition("::")
        target_instance = instance
        if owner:
            owner_name = f"{prefix}::{owner}" if prefix else owner
            target_instance = plant.get_model_instance_by_name(owner_name)
        if local == MODEL_FRAME:
            return plant.get_frame_by_name(MODEL_FRAME, target_instance)
        if plant.has_frame_named(local, target_instance):
            return plant.get_frame_by_name(local, target_instance)
        return self.body_of_vertex(self.graph.body_of(vid)).body_frame


def _welded_to_world(plant) -> set[int]:
    from ...plant.topology import welded_subgraphs
    for group in welded_subgraphs(plant):
        if 0 in group:
            return group
    return {0}


def _empty_value(diag, el, default: str) -> None:
    """An empty ``<mass></mass>`` (or moment of inertia): libsdformat, and so
    Drake, give it the specification's default; said at the element."""
    diag.warning(el, f"<{el.tag}> is empty; it is read as {default}, SDFormat's default (as "
                     "libsdformat and Drake read it); write the value", code="sdf-value-empty")
