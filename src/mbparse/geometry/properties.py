"""Geometry roles and their property sets, as SceneGraph keeps them."""
from __future__ import annotations

import enum
import os
from types import MappingProxyType

from ..records import FrozenRecord, _set

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from typing import Any

PROXIMITY = "proximity"
ILLUSTRATION = "illustration"
PERCEPTION = "perception"
ROLES = (PROXIMITY, ILLUSTRATION, PERCEPTION)


class Rgba(FrozenRecord):
    """A colour: red, green, blue and alpha in [0, 1] (immutable)."""

    _fields = ("r", "g", "b", "a")

    def __init__(self, r: float, g: float, b: float, a: float = 1.0) -> None:
        _set(self, "r", r)
        _set(self, "g", g)
        _set(self, "b", b)
        _set(self, "a", a)

    def to_list(self) -> list[float]:
        return [self.r, self.g, self.b, self.a]


class CoulombFriction(FrozenRecord):
    """Static and dynamic friction coefficients (static ≥ dynamic ≥ 0; immutable)."""

    _fields = ("static_friction", "dynamic_friction")

    def __init__(self, static_friction: float, dynamic_friction: float) -> None:
        _set(self, "static_friction", static_friction)
        _set(self, "dynamic_friction", dynamic_friction)

    def invalidity(self) -> str | None:
        if self.static_friction < 0 or self.dynamic_friction < 0:
            return (f"friction coefficients must be non-negative; given static "
                    f"{self.static_friction}, dynamic {self.dynamic_friction}")
        if self.dynamic_friction > self.static_friction:
            return (f"the dynamic friction ({self.dynamic_friction}) cannot be greater "
                    f"than the static friction ({self.static_friction})")
        return None


class HydroelasticType(enum.Enum):
    """Compliance of a geometry in the hydroelastic contact model."""

    RIGID = "rigid"
    COMPLIANT = "compliant"


DEFAULT_FRICTION = CoulombFriction(1.0, 1.0)
_new = object.__new__


class GeometryProperties:
    """Named values in named groups: ``props[("phong", "diffuse")]``.

    A copy shares its values with the original until either changes (the
    first ``add_property`` on a sharing set copies the values it reads), so
    that readers can give every geometry the same default set (no friction
    given: the default friction) without building one per geometry."""

    __slots__ = ("_values", "_shared")

    def __init__(self, values: dict[tuple[str, str], Any] | None = None):
        self._values: dict[tuple[str, str], Any] = dict(values or {})
        self._shared = False

    @classmethod
    def sharing(cls, values: dict[tuple[str, str], Any]) -> "GeometryProperties":
        """A set that reads ``values`` without copying them: it copies them at
        its first change, so ``values`` itself is never changed through it."""
        return _sharing(cls, values)

    def add_property(self, group: str, name: str, value: Any) -> None:
        if self._shared:
            self._values = dict(self._values)
            self._shared = False
        self._values[(group, name)] = value

    def has_property(self, group: str, name: str) -> bool:
        return (group, name) in self._values

    def get_property(self, group: str, name: str, default: Any = None) -> Any:
        return self._values.get((group, name), default)

    def items(self):
        return self._values.items()

    def values_read(self):
        """The mapping of values this set reads: the same object for every
        set that shares its values (a copy, until either changes), so that
        what is made from a set's values can be made once for all of them
        (the summary's text of a model's many geometries). Not to be changed."""
        return self._values

    def copy(self) -> "GeometryProperties":
        self._shared = True  # (both now read the same values until one changes)
        return GeometryProperties.sharing(self._values)

    def __reduce__(self):
        # Copies and pickles get values of their own (a shared set may read
        # a read-only mapping, which neither copy nor pickle can take).
        return (GeometryProperties, (dict(self._values),))

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        inner = ", ".join(f"{g}/{n}={v!r}" for (g, n), v in sorted(self._values.items()))
        return f"GeometryProperties({inner})"


# What most geometries get, shared (read-only; a set that changes copies them).
_NO_VALUES: Any = MappingProxyType({})
_DEFAULT_PROXIMITY_VALUES: Any = MappingProxyType(
    {("material", "coulomb_friction"): DEFAULT_FRICTION})


def _sharing(cls: type, values) -> GeometryProperties:
    """:meth:`GeometryProperties.sharing`, as a plain function: the two
    below call it directly (a visual takes two such sets, a collision often
    one, and the class method's lookup and call were a tenth of registering
    a geometry)."""
    props = _new(cls)
    props._values = values
    props._shared = True
    return props


def no_properties() -> GeometryProperties:
    """An empty property set (a visual's role with nothing set)."""
    return _sharing(GeometryProperties, _NO_VALUES)


def default_proximity_properties() -> GeometryProperties:
    """Proximity properties with only the default Coulomb friction (1, 1)."""
    return _sharing(GeometryProperties, _DEFAULT_PROXIMITY_VALUES)


def summarize_property_value(value: Any) -> Any:
    """The summary form of a property value (see SUMMARY_SCHEMA.md)."""
    if isinstance(value, Rgba):
        return value.to_list()
    if isinstance(value, CoulombFriction):
        return {"static": value.static_friction, "dynamic": value.dynamic_friction}
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return os.path.basename(value) if "/" in value else value
    return "<opaque>"
