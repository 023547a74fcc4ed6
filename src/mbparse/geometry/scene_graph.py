"""The scene graph: geometries on bodies, their roles, and collision filters."""
from __future__ import annotations

from collections.abc import Iterable

from ..records import ValueRecord
from ..spatial import RigidTransform
from .properties import GeometryProperties, PROXIMITY
from .shapes import Shape

_new = object.__new__


class GeometryInstance(ValueRecord):
    """A shape at a pose in its body's frame, with a name and role properties
    (``{role: properties}``) and the (file, line) it was read from."""

    # one per visual and collision: no __dict__
    __slots__ = ("X_BG", "shape", "name", "properties", "source", "description")
    _fields = ("X_BG", "shape", "name", "properties", "source")

    def __init__(self, X_BG: RigidTransform, shape: Shape, name: str,
                 properties: dict[str, GeometryProperties] | None = None,
                 source: tuple[str | None, int | None] = (None, None)) -> None:
        self.X_BG = X_BG
        self.shape = shape
        self.name = name
        self.properties: dict[str, GeometryProperties] = {} if properties is None else properties
        self.source = source
        self.description: dict | None = None  # mbparse.description

    @property
    def roles(self) -> list[str]:
        return list(self.properties)


class Geometry(ValueRecord):
    """A registered geometry: ``body`` is the plant's body index (0: world).

    A ``deformable`` body's geometry is posed in the world but moves on its
    own, so no body-level filter applies to it."""

    __slots__ = _fields = ("id", "body", "instance", "deformable")

    def __init__(self, id: int, body: int, instance: GeometryInstance,
                 deformable: bool = False) -> None:
        self.id = id
        self.body = body
        self.instance = instance
        self.deformable = deformable

    @property
    def name(self) -> str:
        return self.instance.name

    @property
    def shape(self) -> Shape:
        return self.instance.shape

    @property
    def X_BG(self) -> RigidTransform:
        return self.instance.X_BG

    def has_role(self, role: str) -> bool:
        return role in self.instance.properties

    def properties(self, role: str) -> GeometryProperties | None:
        return self.instance.properties.get(role)


class SceneGraph:
    """Geometries registered by a plant, with body-level collision filters.

    Filters are kept between bodies (frames): geometries on one body never
    collide, and ``exclude_between`` / ``exclude_within`` add body pairs.
    """

    def __init__(self) -> None:
        self._geometries: list[Geometry] = []
        # Filtered body pairs: explicit pairs (exclude_between), and groups
        # whose members filter each other (exclude_within), kept as groups so
        # that a group of n bodies costs n, not n²/2 pairs.
        self._excluded: set[tuple[int, int]] = set()
        self._groups_of: dict[int, set[int]] = {}
        self._num_groups = 0

    # -- registration
    def __repr__(self) -> str:
        return f"SceneGraph({self.num_geometries()} geometries)"

    def register_geometry(self, body: int, instance: GeometryInstance,
                          deformable: bool = False) -> Geometry:
        """Adds a geometry on plant body ``body``; returns it with its new id."""
        # Made without __init__ (one per visual and collision): calling the
        # class costs more than the four fields it sets (600 instructions).
        g = _new(Geometry)
        g.id = len(self._geometries)
        g.body = body
        g.instance = instance
        g.deformable = deformable
        self._geometries.append(g)
        return g

    def geometries(self) -> list[Geometry]:
        """Every registered geometry, in registration order."""
        return self._geometries

    def num_geometries(self) -> int:
        """How many geometries are registered."""
        return len(self._geometries)

    def geometries_on_body(self, body: int) -> list[Geometry]:
        """The geometries attached to plant body ``body``."""
        return [g for g in self._geometries if g.body == body]

    # -- collision filters
    def exclude_between(self, bodies_a: Iterable[int], bodies_b: Iterable[int]) -> None:
        """No collisions between any body of ``bodies_a`` and any of ``bodies_b``."""
        bodies_b = list(bodies_b)
        for a in bodies_a:
            for b in bodies_b:
                if a != b:
                    self._excluded.add((a, b) if a < b else (b, a))

    def exclude_pairs(self, pairs: Iterable[tuple[int, int]]) -> None:
        """No collisions between the two bodies of each pair (as
        ``exclude_between([a], [b])`` for each, in one call)."""
        excluded = self._excluded
        for a, b in pairs:
            if a != b:
                excluded.add((a, b) if a < b else (b, a))

    def exclude_within(self, bodies: Iterable[int]) -> None:
        """No collisions between any two bodies of the set."""
        bodies = set(bodies)
        if len(bodies) < 2:
            return
        group = self._num_groups
        self._num_groups += 1
        for b in bodies:
            self._groups_of.setdefault(b, set()).add(group)

    def excluded_pairs(self) -> set[tuple[int, int]]:
        """Every excluded body pair (lower index first); the pairs of a group
        are listed out here, so this costs the square of a group's size."""
        pairs = set(self._excluded)
        members: dict[int, list[int]] = {}
        for body, groups in self._groups_of.items():
            for group in groups:
                members.setdefault(group, []).append(body)
        for bodies in members.values():
            bodies.sort()
            pairs.update((a, b) for i, a in enumerate(bodies) for b in bodies[i + 1:])
        return pairs

    def is_excluded(self, body_a: int, body_b: int) -> bool:
        """Whether collisions between the two bodies are filtered out."""
        if body_a == body_b:
            return True
        if ((body_a, body_b) if body_a < body_b else (body_b, body_a)) in self._excluded:
            return True
        ga, gb = self._groups_of.get(body_a), self._groups_of.get(body_b)
        return bool(ga and gb and not ga.isdisjoint(gb))

    def _collision_key(self, g: Geometry):
        """What filters apply to: a body index, or the geometry itself for
        a deformable one."""
        return ("deformable", g.id) if g.deformable else g.body

    def _pair_filtered(self, a, b) -> bool:
        if a == b:
            return True
        if isinstance(a, tuple) or isinstance(b, tuple):
            return False
        return self.is_excluded(a, b)

    def collision_candidates(self) -> list[tuple[Geometry, Geometry]]:
        """Pairs of proximity geometries on different bodies left unfiltered."""
        prox = [g for g in self._geometries if g.has_role(PROXIMITY)]
        out = []
        for i, g in enumerate(prox):
            for h in prox[i + 1:]:
                if not self._pair_filtered(self._collision_key(g), self._collision_key(h)):
                    out.append((g, h))
        return out

    def num_collision_candidates(self) -> int:
        """How many pairs of proximity geometries are left unfiltered.

        Counted without visiting every pair of bodies: all pairs, less those
        of bodies sharing a filter group (bodies grouped by the set of groups
        they belong to), less the explicit pairs no group already covers.
        """
        counts: dict = {}
        for g in self._geometries:
            if g.has_role(PROXIMITY):
                key = self._collision_key(g)
                counts[key] = counts.get(key, 0) + 1
        total = _pairs_weight(counts.values())
        # Bodies with the same groups form one class; two classes filter each
        # other when their group sets meet.
        classes: dict[frozenset, list[int]] = {}
        for key, c in counts.items():
            groups = self._groups_of.get(key) if not isinstance(key, tuple) else None
            if groups:
                classes.setdefault(frozenset(groups), []).append(c)
        signatures = list(classes)
        weights = [sum(classes[s]) for s in signatures]
        for i, sig in enumerate(signatures):
            total -= _pairs_weight(classes[sig])
            for j in range(i + 1, len(signatures)):
                if not sig.isdisjoint(signatures[j]):
                    total -= weights[i] * weights[j]
        for a, b in self._excluded:
            if a in counts and b in counts:
                ga, gb = self._groups_of.get(a), self._groups_of.get(b)
                if not (ga and gb and not ga.isdisjoint(gb)):
                    total -= counts[a] * counts[b]
        return total


def _pairs_weight(counts) -> int:
    """Σ c_a·c_b over the unordered pairs a ≠ b of ``counts``."""
    counts = list(counts)
    s = sum(counts)
    return (s * s - sum(c * c for c in counts)) // 2
