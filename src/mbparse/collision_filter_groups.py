"""Collision filter groups: named sets of bodies and the pairs of groups
whose members must not collide. Groups are gathered during a parse and
resolved at its end, as Drake's parser does."""
from __future__ import annotations

from collections.abc import Callable

from .records import ValueRecord

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from .plant import MultibodyPlant


class CollisionFilterGroups(ValueRecord):
    """Groups ``{scoped group: {scoped body, ...}}`` and exclusion pairs."""

    _fields = ("_groups", "_pairs")

    def __init__(self, _groups: dict[str, set[str]] | None = None,
                 _pairs: set[tuple[str, str]] | None = None) -> None:
        self._groups: dict[str, set[str]] = {} if _groups is None else _groups
        self._pairs: set[tuple[str, str]] = set() if _pairs is None else _pairs

    def add_group(self, name: str, members: set[str]) -> None:
        self._groups[name] = set(members)

    def add_exclusion_pair(self, a: str, b: str) -> None:
        self._pairs.add((a, b) if a <= b else (b, a))

    def groups(self) -> dict[str, set[str]]:
        return {k: set(v) for k, v in self._groups.items()}

    def exclusion_pairs(self) -> set[tuple[str, str]]:
        return set(self._pairs)

    def empty(self) -> bool:
        return not self._groups and not self._pairs

    def merge(self, other: "CollisionFilterGroups") -> None:
        for k, v in other._groups.items():
            self._groups[k] = set(v)
        self._pairs |= other._pairs


def _scoped(namespace: str | None, name: str) -> str:
    return f"{namespace}::{name}" if namespace else name


def _split(scoped: str) -> tuple[str, str]:
    ns, sep, element = scoped.rpartition("::")
    return (ns, element) if sep else ("", scoped)


class _Group(ValueRecord):
    """One collision filter group: its members and the groups it ignores."""

    _fields = ("body_names", "bodies")

    def __init__(self, body_names: set[str], bodies: set[int]) -> None:
        self.body_names = body_names
        self.bodies = bodies


class CollisionFilterGroupResolver:
    """Collects groups and pairs during one parse; ``resolve`` applies them."""

    def __init__(self, plant: "MultibodyPlant"):
        self.plant = plant
        self.minimum_model_instance = plant.num_model_instances()
        self._groups: dict[str, _Group] = {}
        self._insertions: dict[str, set[str]] = {}
        self._pairs: list[tuple[str, str, Callable[[str], None]]] = []
        self._group_errors: dict[str, Callable[[str], None]] = {}

    def _qualify(self, name: str, model_instance: int | None) -> str:
        if model_instance is None:
            return name
        return _scoped(self.plant.get_model_instance_name(model_instance), name)

    def add_group(self, error: Callable[[str], None], group_name: str, body_names: set[str],
                  member_groups: set[str], model_instance: int | None) -> None:
        """Adds a group; ``error(message)`` reports a problem at its element."""
        full = self._qualify(group_name, model_instance)
        if "::" in group_name:
            error(f"group name '{full}' cannot be a scoped name")
            return
        if full in self._groups:
            error(f"group '{full}' has already been defined")
            return
        if not body_names and not member_groups:
            error(f"group '{full}' has no members")
            return
        names, bodies = set(), set()
        for body_name in sorted(body_names):
            scoped = self._qualify(body_name, model_instance)
            ns, element = _split(scoped)
            body = None
            if self.plant.has_model_instance_named(ns):
                mi = self.plant.get_model_instance_by_name(ns)
                if mi < self.minimum_model_instance:
                    error(f"body name '{scoped}' refers to a model outside the current parse")
                    continue
                if self.plant.has_body_named(element, mi):
                    body = self.plant.get_body_by_name(element, mi)
            if body is None:
                error(f"body with name '{scoped}' not found")
                continue
            names.add(scoped)
            bodies.add(body.index)
        self._groups[full] = _Group(names, bodies)
        self._group_errors[full] = error
        for member in member_groups:
            self._insertions.setdefault(self._qualify(member, model_instance), set()).add(full)

    def add_pair(self, error: Callable[[str], None], group_a: str, group_b: str,
                 model_instance: int | None) -> None:
        self._pairs.append((self._qualify(group_a, model_instance),
                            self._qualify(group_b, model_instance), error))

    def collected_nothing(self) -> bool:
        """Whether no group or pair was added in this parse (most files):
        then :meth:`resolve` would apply nothing and return no groups."""
        return not (self._groups or self._insertions or self._pairs)

    def resolve(self, error: Callable[[str], None]) -> CollisionFilterGroups:
        """Applies member groups and exclusion pairs; returns what was seen."""
        for name in sorted(self._insertions):
            if name not in self._groups:
                error(f"collision filter group with name '{name}' not found")
        graph = {k: v for k, v in self._insertions.items() if k in self._groups}
        # Propagate members along "member group" edges until nothing changes;
        # the result equals Drake's strongly-connected-components pass.
        changed = True
        while changed:
            changed = False
            for source, destinations in graph.items():
                src = self._groups[source]
                for dest in destinations:
                    d = self._groups[dest]
                    if not (src.bodies <= d.bodies and src.body_names <= d.body_names):
                        d.bodies |= src.bodies
                        d.body_names |= src.body_names
                        changed = True
        result = CollisionFilterGroups()
        sg = self.plant.scene_graph
        seen_pairs = set()
        for a, b, pair_error in self._pairs:
            missing = [n for n in (a, b) if n not in self._groups]
            if missing:
                pair_error(f"collision filter group with name '{missing[0]}' not found")
                continue
            if sg is not None:
                if a == b:
                    sg.exclude_within(self._groups[a].bodies)
                else:
                    sg.exclude_between(self._groups[a].bodies, self._groups[b].bodies)
            seen_pairs.add((a, b) if a <= b else (b, a))
        for name, group in self._groups.items():
            result.add_group(name, group.body_names)
        for a, b in seen_pairs:
            result.add_exclusion_pair(a, b)
        return result
