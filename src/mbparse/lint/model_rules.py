"""Checks on a loaded model that catch real modelling mistakes.

Each check takes a :class:`ModelContext` and yields findings. They look at
what the model holds after parsing (masses, inertias, limits, the tree,
names, mesh files, magnitudes), so they work the same for every format.
Each element knows where its reader declared it (``source``), which is
where a finding about it points.
"""
from __future__ import annotations

import math
import os
from collections import defaultdict
from typing import Callable, Iterator

from ..geometry.properties import PERCEPTION
from ..geometry.shapes import Box, Capsule, Cylinder, Ellipsoid, Mesh, Sphere
from ..plant import MultibodyPlant
from ..plant.topology import welded_subgraphs
from ..records import ValueRecord
from ..spatial import norm, principal_moments, sub
from .findings import Finding, rule_finding

# Magnitudes beyond which a value probably has the wrong units.
MAX_MASS = 1e4            # kg: more than ten tonnes on a moving body → grams?
MAX_OFFSET = 100.0        # m: a joint or COM that far away → millimetres?
MAX_MOVING_SIZE = 100.0   # m: a moving part that large → millimetres?
MAX_SIZE = 1e4            # m: anything that large
MIN_SIZE = 1e-5           # m: smaller than ten micrometres → metres given as km?
MAX_GYRATION = 10.0       # m: radius of gyration √(I/m) → kg·mm² or g·cm²?
MAX_ANGLE = 4 * math.pi + 1e-9  # rad: a limit beyond two turns → degrees?
ROTATIONAL_DOFS = {"ball_rpy": 3, "quaternion_floating": 3, "rpy_floating": 3, "universal": 2,
                   "revolute": 1, "planar": 1, "screw": 1}
RENDERABLE_MESHES = (".obj", ".gltf", ".glb")


class ModelContext(ValueRecord):
    """What every check needs: the plant, the file checked, and names."""

    _fields = ("plant", "path")

    def __init__(self, plant: MultibodyPlant, path: str) -> None:
        self.plant = plant
        self.path = path

    def instance_name(self, element) -> str:
        return self.plant.get_model_instance_name(element.model_instance)

    def label(self, element) -> str:
        if element.model_instance in (0, 1):
            return element.name
        return self.plant.scoped_name(element)

    def at(self, element) -> dict:
        """file and line where ``element`` was declared (the checked file
        when its reader did not say)."""
        file, line = getattr(element, "source", None) or (None, None)
        if file is None:
            return {"file": self.path}
        return {"file": file, "line": line}

    def at_geometry(self, geometry) -> dict:
        return self.at(geometry.instance)


# ---------------------------------------------------------------- the tree
class _Tree(ValueRecord):
    """The kinematic tree: each body's joint towards the world, and its children."""

    _fields = ("parent_joint", "children")

    def __init__(self, parent_joint: dict[int, object],
                 children: dict[int, list[int]]) -> None:
        self.parent_joint = parent_joint  # body index → joint towards the world
        self.children = children


def _tree(plant: MultibodyPlant) -> _Tree:
    adjacency = defaultdict(list)
    for j in plant.joints():
        adjacency[j.parent_body.index].append(j)
        adjacency[j.child_body.index].append(j)
    parent_joint: dict[int, object] = {}
    children: dict[int, list[int]] = defaultdict(list)
    seen = {0}
    level = [0]
    while level:
        following = []
        for b in level:
            for j in adjacency[b]:
                other = j.child_body.index if j.parent_body.index == b else j.parent_body.index
                if other in seen:
                    continue
                seen.add(other)
                parent_joint[other] = j
                children[b].append(other)
                following.append(other)
        level = following
    return _Tree(parent_joint, children)


def _outboard(tree: _Tree, group: set[int]) -> set[int]:
    """The bodies of ``group`` and every body outboard of it."""
    out, stack = set(group), list(group)
    while stack:
        for c in tree.children.get(stack.pop(), []):
            if c not in out:
                out.add(c)
                stack.append(c)
    return out


class _OutboardMass:
    """The mass of a welded group and everything outboard of it, from the
    subtree masses of the tree summed once (a chain of N bodies is N welded
    groups: walking each one's outboard bodies would be N^2)."""

    def __init__(self, plant: MultibodyPlant, tree: _Tree):
        self.plant, self.tree = plant, tree
        self.parent = {c: p for p, kids in tree.children.items() for c in kids}
        order = [0]
        for b in order:  # breadth first: every body after its parent
            order.extend(tree.children.get(b, ()))
        subtree: dict[int, float] = {}
        for b in reversed(order):
            subtree[b] = plant.get_body(b).mass + sum(subtree[c] for c in tree.children.get(b, ()))
        self.subtree = subtree

    def of(self, group: set[int]) -> tuple[float, bool]:
        """(total mass of the group and its outboard bodies, whether nothing
        but the group is outboard of it)."""
        tops = [b for b in group if self.parent.get(b) not in group]
        if len(tops) == 1 and tops[0] in self.subtree:
            children = self.tree.children
            alone = all(c in group for b in group for c in children.get(b, ()))
            return self.subtree[tops[0]], alone
        outboard = _outboard(self.tree, group)  # a group the tree does not hold as one subtree
        return sum(self.plant.get_body(i).mass for i in outboard), outboard == group


def _inboard_body(tree: _Tree, group: set[int]) -> int:
    """The body of a welded group whose joint leads out of the group."""
    for b in sorted(group):
        j = tree.parent_joint.get(b)
        if j is not None and j.type_name != "weld":
            return b
    return min(group)


def check_masses(ctx: ModelContext) -> Iterator[Finding]:
    """Moving parts without mass; bodies whose mass hints at wrong units;
    point masses on joints that can turn them about their center."""
    plant = ctx.plant
    tree = _tree(plant)
    poses = plant.calc_body_poses_in_world()
    kinematic = yield from _massless_models(ctx)
    outboard_mass = _OutboardMass(plant, tree)
    for group in welded_subgraphs(plant):
        if 0 in group:
            continue
        b = _inboard_body(tree, group)
        body, joint = plant.get_body(b), tree.parent_joint.get(b)
        total, alone = outboard_mass.of(group)
        if total <= 0 and body.model_instance in kinematic:
            continue
        if total <= 0:
            jname = f" (joint '{ctx.label(joint)}')" if joint is not None else ""
            yield rule_finding("mass-zero-moving",
                               f"body '{ctx.label(body)}' can move{jname}, but it and all it "
                               f"carries have mass {total:g}; the dynamics are singular",
                               **ctx.at(body))
            continue
        if joint is not None and alone:
            yield from _point_mass(ctx, body, joint, group, poses)
    for body in plant.bodies()[1:]:
        m = body.mass
        if m > MAX_MASS:
            yield rule_finding("units-suspicious", f"body '{ctx.label(body)}' has mass {m:g} kg; "
                               "was it given in grams?", **ctx.at(body))


def _massless_models(ctx: ModelContext):
    """One ``mass-none`` finding per model instance none of whose bodies has
    mass: a description for kinematics and drawing, or (one body) a fixed
    object in pybullet's convention, where zero mass means static. Yields
    them and returns those instances, whose moving parts are then not
    reported one by one."""
    bodies = defaultdict(list)
    for body in ctx.plant.bodies()[1:]:
        bodies[body.model_instance].append(body)
    kinematic = set()
    for instance, members in bodies.items():
        if not all(b.mass == 0 for b in members):
            continue
        kinematic.add(instance)
        name = ctx.instance_name(members[0])
        if len(members) == 1:
            message = (f"model '{name}' is one body without mass: pybullet keeps such a body "
                       "fixed, but in Drake it floats and cannot be simulated; weld it to the "
                       "world or give it a mass")
        else:
            message = (f"no body of model '{name}' has mass ({len(members)} bodies): it can "
                       "serve kinematics and drawing, but its dynamics cannot be simulated")
        yield rule_finding("mass-none", message, **ctx.at(members[0]))
    return kinematic


def _point_mass(ctx: ModelContext, body, joint, group: set[int], poses) -> Iterator[Finding]:
    plant = ctx.plant
    turns = ROTATIONAL_DOFS.get(joint.type_name, 0)
    if turns == 0:
        return
    members = [plant.get_body(i) for i in group]
    if any(any(v != 0 for v in m.default_spatial_inertia.I_cm) for m in members if m.mass > 0):
        return
    coms = [poses[m.index].apply(m.default_spatial_inertia.com) for m in members if m.mass > 0]
    if any(norm(sub(c, coms[0])) > 1e-12 for c in coms[1:]):
        return
    if turns == 1:
        axis = getattr(joint, "axis", (0.0, 0.0, 1.0))
        X_WJ = poses[joint.child_body.index] @ joint.frame_on_child.X_BF
        r = sub(coms[0], X_WJ.p)
        a = X_WJ.R
        w = tuple(sum(a[i][k] * axis[k] for k in range(3)) for i in range(3))
        along = sum(r[i] * w[i] for i in range(3))
        off_axis = norm(tuple(r[i] - along * w[i] for i in range(3)))
        if off_axis > 1e-9:
            return
    yield rule_finding("inertia-zero",
                       f"body '{ctx.label(body)}' is a point mass that joint '{ctx.label(joint)}' "
                       "turns about its own center; its rotational inertia there is zero",
                       **ctx.at(body))


def check_inertias(ctx: ModelContext) -> Iterator[Finding]:
    """Inertias that are not physical, or that suggest the wrong units."""
    for body in ctx.plant.bodies()[1:]:
        M = body.default_spatial_inertia
        problem = M.problem()
        if problem is not None:
            code, why = problem
            yield rule_finding(code, f"body '{ctx.label(body)}': {why}",
                               **ctx.at(body))
            continue
        if M.mass > 0:
            largest = max(principal_moments(M.I_cm))
            gyration = math.sqrt(max(largest, 0.0) / M.mass)
            if gyration > MAX_GYRATION:
                yield rule_finding(
                    "units-suspicious",
                    f"body '{ctx.label(body)}' has inertia {largest:g} kg·m² for mass "
                    f"{M.mass:g} kg (radius of gyration {gyration:g} m); was it given in "
                    "kg·mm² or g·cm²?", **ctx.at(body))
        if norm(M.com) > MAX_OFFSET:
            yield rule_finding("units-suspicious", f"body '{ctx.label(body)}' has its center of "
                               f"mass {norm(M.com):g} m from its origin; millimetres?",
                               **ctx.at(body))


def check_joints(ctx: ModelContext) -> Iterator[Finding]:
    """Inverted or empty limits, limits in degrees, far-away joint frames."""
    for joint in ctx.plant.joints():
        if joint.is_ephemeral or joint.type_name == "weld":
            continue
        label = ctx.label(joint)
        for i, (lo, up) in enumerate(zip(joint.pos_lower, joint.pos_upper)):
            which = f" (coordinate {i})" if joint.nq > 1 else ""
            if lo == math.inf or up == -math.inf:
                continue  # the reader warned of it (limit-infinite), where it was written
            if lo > up:
                yield rule_finding("limit-inverted", f"joint '{label}'{which}: lower limit "
                                   f"{lo:g} is above upper limit {up:g}",
                                   **ctx.at(joint))
            elif lo == up:
                yield rule_finding("limit-empty", f"joint '{label}'{which}: lower and "
                                   f"upper limits are both {lo:g}; it cannot move",
                                   **ctx.at(joint))
        if joint.type_name in ("revolute", "universal", "ball_rpy"):
            # Degrees are written as whole numbers (90, 180, 360); a large
            # fractional limit (±174.533 rad) is a deliberate "no limit".
            big = [v for v in (*joint.pos_lower, *joint.pos_upper)
                   if math.isfinite(v) and MAX_ANGLE < abs(v) <= 360 and v == round(v)]
            if big:
                yield rule_finding("units-suspicious", f"joint '{label}' has an angle limit of "
                                   f"{big[0]:g} rad (over two turns); was it given in degrees?",
                                   **ctx.at(joint))
        for frame in (joint.frame_on_parent, joint.frame_on_child):
            d = norm(frame.X_BF.p)
            if d > MAX_OFFSET:
                yield rule_finding("units-suspicious", f"joint '{label}' sits {d:g} m from the "
                                   f"origin of body '{ctx.label(frame.body)}'; millimetres?",
                                   **ctx.at(joint))
                break


def check_connectivity(ctx: ModelContext) -> Iterator[Finding]:
    """Bodies of a model left unattached to the rest of it."""
    plant = ctx.plant
    user_jointed = set()
    for j in plant.joints():
        if not j.is_ephemeral:
            user_jointed.update((j.parent_body.index, j.child_body.index))
    bases = defaultdict(list)
    for j in plant.joints():
        if j.is_ephemeral and j.type_name != "weld":
            bases[j.child_body.model_instance].append(j.child_body)
    for instance, roots in bases.items():
        articulated = any(b.model_instance == instance for b in plant.bodies()
                          if b.index in user_jointed)
        if not articulated:
            continue
        for body in roots:
            # A body given a free joint or a free pose (MJCF <freejoint/>, a
            # directive's default_free_body_pose) is meant to float.
            if body.index not in user_jointed and body.default_free_body_pose is None:
                yield rule_finding("body-disconnected", f"body '{ctx.label(body)}' has no joint; "
                                   f"it is not attached to the rest of model "
                                   f"'{plant.get_model_instance_name(instance)}' and will "
                                   "fall freely", **ctx.at(body))


def check_geometry(ctx: ModelContext) -> Iterator[Finding]:
    """Duplicate geometry names, missing or unreadable meshes, odd sizes."""
    sg = ctx.plant.scene_graph
    if sg is None:
        return
    moving = set()
    for group in welded_subgraphs(ctx.plant):
        # A group without mass does not move on its own (pybullet's static
        # objects); its size is judged as a fixed object's.
        if 0 not in group and any(ctx.plant.get_body(b).mass > 0 for b in group):
            moving.update(group)
    seen: dict[tuple[int, str, str], object] = {}
    for g in sg.geometries():
        for role in g.instance.roles:
            key = (g.body, role, g.name)
            if key in seen:
                yield rule_finding("duplicate-name", f"two {role} geometries on body "
                                   f"'{ctx.label(ctx.plant.get_body(g.body))}' are named "
                                   f"'{g.name}'", **ctx.at_geometry(g))
            seen[key] = g
        shape = g.shape
        if isinstance(shape, Mesh):
            if not os.path.exists(shape.filename):
                yield rule_finding("mesh-missing", f"mesh '{shape.filename}' of geometry "
                                   f"'{g.name}' does not exist", **ctx.at_geometry(g))
            elif g.has_role(PERCEPTION) and shape.extension() not in RENDERABLE_MESHES:
                yield rule_finding("mesh-not-rendered", f"mesh '{os.path.basename(shape.filename)}'"
                                   f" of geometry '{g.name}' is a '{shape.extension()}' file, "
                                   "which cameras do not render (they read .obj and .gltf)",
                                   **ctx.at_geometry(g))
            continue
        sizes = _dimensions(shape)
        if not sizes:
            continue
        limit = MAX_MOVING_SIZE if g.body in moving else MAX_SIZE
        if max(sizes) > limit:
            yield rule_finding("units-suspicious", f"geometry '{g.name}' is {max(sizes):g} m "
                               "across; millimetres?", **ctx.at_geometry(g))
        elif 0 < min(sizes) < MIN_SIZE:
            yield rule_finding("units-suspicious", f"geometry '{g.name}' is only "
                               f"{min(sizes):g} m in one dimension", **ctx.at_geometry(g))


def _dimensions(shape) -> list[float]:
    if isinstance(shape, Box):
        return list(shape.size())
    if isinstance(shape, Sphere):
        return []  # tiny spheres are the usual way to make contact points
    if isinstance(shape, (Cylinder, Capsule)):
        return [2 * shape.radius, shape.length]
    if isinstance(shape, Ellipsoid):
        return [2 * shape.a, 2 * shape.b, 2 * shape.c]
    return []


CHECKS: tuple[Callable[[ModelContext], Iterator[Finding]], ...] = (
    check_masses, check_inertias, check_joints, check_connectivity, check_geometry)


def check_model(ctx: ModelContext) -> list[Finding]:
    """Every model check's findings, in check order."""
    out: list[Finding] = []
    for check in CHECKS:
        out.extend(check(ctx))
    return out
