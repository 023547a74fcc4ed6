"""What the three writers share: names across model instances, geometry
roles and colours, the collision filters to write, and the loss entries for
model elements a target has no room for."""
from __future__ import annotations

from lxml import etree

from ...geometry import CoulombFriction, Geometry, Mesh, Rgba
from ...description import facts
from ...geometry.properties import ILLUSTRATION, PERCEPTION, PROXIMITY
from ...plant.elements import Frame, RigidBody
from ...spatial import RigidTransform, matrix_to_rpy
from ..loss import APPROXIMATED, DROPPED, RENAMED, LossReport
from .meshes import MeshPlacer
from .numbers import num, nums
from .walk import BodyNode, ModelWalk, where

# Half the side of the box a half space becomes in a target that has no plane
# for it (URDF; MJCF on a body that can move): the box's top face is the plane.
HALF_SPACE_BOX = 500.0

# Visual properties every target holds (a diffuse colour); others are reported.
KEPT_VISUAL = {("phong", "diffuse"), ("renderer", "accepting"), ("label", "id")}


class Writer:
    """One target format. Subclasses implement :meth:`build` (an lxml root)."""

    target = ""
    # Whether a joint's effort limit with no actuator gets one, in a target
    # whose actuators are its own elements (MJCF's <motor>); write() sets it.
    actuators_from_effort = True

    def __init__(self, walk: ModelWalk, meshes: MeshPlacer, report: LossReport):
        self.walk = walk
        self.plant = walk.plant
        self.meshes = meshes
        self.report = report
        self._renamed_reported: set[int] = set()

    # -- text ---------------------------------------------------------------
    def write(self) -> str:
        root = self.build()
        # Indented as it is serialized (etree.indent would first add a
        # whitespace node per element to the tree: a third more memory).
        return etree.tostring(root, encoding="unicode", pretty_print=True)

    def build(self) -> etree._Element:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- names --------------------------------------------------------------
    def name(self, element) -> str:
        """A body's, joint's, frame's or actuator's name in a one-model target:
        its own when the model has one instance, else prefixed by its
        instance (``INSTANCE__name``), reported once per instance."""
        if element is None:
            return "world"
        if isinstance(element, RigidBody) and element.index == 0:
            return "world"
        if isinstance(element, Frame) and element.is_body_frame:
            return self.name(element.body)
        mi = element.model_instance
        if self.walk.single_instance() or mi == 0:
            return element.name
        prefix = self.walk.instance_name(mi).replace("::", "__")
        if mi not in self._renamed_reported:
            self._renamed_reported.add(mi)
            self.report.add(RENAMED, f"model instance '{self.walk.instance_name(mi)}'",
                            f"a {self.target} file holds one model; the names of this "
                            f"instance's elements are prefixed with "
                            f"'{prefix}__'")
        return f"{prefix}__{element.name}"

    @staticmethod
    def geometry_name(g: Geometry) -> str:
        return g.name.rsplit("::", 1)[-1]

    # -- geometry -----------------------------------------------------------
    @staticmethod
    def is_collision(g: Geometry) -> bool:
        return g.has_role(PROXIMITY)

    @staticmethod
    def is_visual(g: Geometry) -> bool:
        return g.has_role(ILLUSTRATION) or g.has_role(PERCEPTION)

    def rgba(self, g: Geometry) -> Rgba | None:
        """The diffuse colour of a visual, reporting the visual properties the
        targets do not hold."""
        color = None
        for role in (ILLUSTRATION, PERCEPTION):
            props = g.properties(role)
            if props is None:
                continue
            for key, value in props.items():
                if key == ("phong", "diffuse") and isinstance(value, Rgba):
                    color = color or value
                elif key not in KEPT_VISUAL:
                    self.report.add(DROPPED, geometry_label(g),
                                    f"the {role} property {key[0]}/{key[1]}",
                                    g.instance.source)
        return color

    @staticmethod
    def friction(g: Geometry) -> CoulombFriction | None:
        props = g.properties(PROXIMITY)
        return props.get_property("material", "coulomb_friction") if props else None

    def mesh_uri(self, filename: str) -> str:
        return self.meshes.uri(filename)

    def mesh_as_obj(self, g: Geometry, s: Mesh, why: str) -> str | None:
        """The URI of an OBJ of the triangles of a mesh file the target cannot
        read (``why`` says so), written into the copy-meshes folder or else
        the folder of meshes beside the output, reported as approximated
        (materials and textures stay behind); None, reported as dropped, when
        the file cannot be read or written."""
        from ...geometry.meshes import MeshError
        try:
            uri = self.meshes.as_obj(s.filename)
        except (MeshError, OSError) as e:
            self.report.add(DROPPED, geometry_label(g),
                            f"{why}, and '{s.filename}' cannot be converted to OBJ: {e}",
                            g.instance.source)
            return None
        self.report.add(APPROXIMATED, geometry_label(g),
                        f"{why}: '{s.filename}' is written as the OBJ '{uri}' (its triangles; "
                        "materials and textures are not carried)", g.instance.source)
        return uri

    # -- collision filters --------------------------------------------------
    def filtered_pairs(self) -> list[tuple[BodyNode, BodyNode]]:
        """Excluded body pairs that the target's own defaults (parent and
        child bodies) do not already exclude, between bodies with collision
        geometry."""
        sg = self.plant.scene_graph
        if sg is None:
            return []
        nodes = self.walk.nodes
        colliding = {i for i, n in nodes.items() if any(self.is_collision(g) for g in n.geometries)}
        out = []
        for a, b in sorted(sg.excluded_pairs()):
            if a not in colliding or b not in colliding:
                continue
            na, nb = nodes[a], nodes[b]
            if na.parent is nb or nb.parent is na:
                continue
            out.append((na, nb))
        return out

    # -- what the source said beside the plant (mbparse.description) ---------
    def report_facts(self, element, label: str, written: tuple[str, ...] | set[str],
                     source=None) -> None:
        """Reports each fact the reader recorded on ``element`` that this
        target does not write (``written``: the keys it wrote), so that nothing
        the source said is lost in silence."""
        for key, value in facts(element).items():
            if key not in written:
                self.report.add(DROPPED, label, f"{key.replace('_', ' ')} {value}: "
                                f"{self.target} output has no place for it",
                                source if source is not None else where(element))

    # -- elements no target here writes -------------------------------------
    def report_unwritten(self, kinds: dict[type, str]) -> None:
        """Reports sensors and the force elements and constraints the writer
        does not handle; ``kinds`` maps the handled classes to a word."""
        for element in self.plant.force_elements() + self.plant.constraints():
            if type(element) in kinds:
                continue
            self.report.add(DROPPED, element_label(element),
                            f"{self.target} output has no {type(element).__name__}",
                            where(element))
        for sensor in self.plant.sensors():
            self.report.add(DROPPED, f"sensor '{sensor.name}'",
                            f"the {sensor.type} sensor is not written to {self.target}",
                            where(sensor))


def curve_segments(joint) -> list[tuple[str, float, float]]:
    """A curvilinear joint's path as Drake's files give it: ("line", length,
    0) and ("arc", radius, signed angle) segments, in order."""
    out = []
    for i, rate in enumerate(joint.turning_rates):
        length = joint.breaks[i + 1] - joint.breaks[i]
        if rate == 0:
            out.append(("line", length, 0.0))
        else:
            out.append(("arc", 1.0 / abs(rate), rate * length))
    return out


def geometry_label(g: Geometry) -> str:
    """How a loss names a geometry: its name and roles (a visual and a
    collision geometry may share a name)."""
    roles = ", ".join(sorted(g.instance.properties)) or "no role"
    return f"geometry '{g.name}' ({roles})"


def element_label(element) -> str:
    """How a loss names a force element or constraint: by its name, else by
    the joint or the bodies it acts on."""
    kind = getattr(element, "type", type(element).__name__)
    name = getattr(element, "name", None)
    if name:
        return f"{kind} '{name}'"
    joint = getattr(element, "joint", None)
    if joint is not None:
        return f"{kind} on joint '{joint.name}'"
    bodies = [getattr(element, k).name for k in ("body_A", "body_B") if hasattr(element, k)]
    return f"{kind} between " + " and ".join(f"'{b}'" for b in bodies) if bodies else kind


def unique_name(name: str, taken: set[str], searched: dict[str, int]) -> str:
    """``name``, else the first of ``name_1``, ``name_2``... not in ``taken``;
    added to ``taken``. ``searched`` (kept with ``taken``, which only grows)
    remembers where each name's search ended, so that a name given to every
    geometry of a large model costs a step per copy, not a step per earlier copy."""
    k = searched.get(name, 0)
    candidate = f"{name}_{k}" if k else name
    while candidate in taken:
        k += 1
        candidate = f"{name}_{k}"
    searched[name] = k
    taken.add(candidate)
    return candidate


def sub(parent: etree._Element, tag: str, attrib: dict | None = None,
        text: str | None = None) -> etree._Element:
    el = etree.SubElement(parent, tag, attrib or {})
    if text is not None:
        el.text = text
    return el


def xyz_rpy(X: RigidTransform, what: str) -> dict[str, str]:
    """URDF's ``origin`` attributes for a pose."""
    return {"xyz": nums(X.p, what), "rpy": nums(matrix_to_rpy(X.R), what)}


def pose_text(X: RigidTransform, what: str) -> str:
    """SDFormat's ``x y z roll pitch yaw``."""
    return nums(tuple(X.p) + tuple(matrix_to_rpy(X.R)), what)


__all__ = ["Writer", "sub", "unique_name", "xyz_rpy", "pose_text", "num", "nums"]
