"""Bases for the model's small value classes (diagnostics, shapes, bodies...).

These classes were dataclasses; ``@dataclass`` generates and compiles the
code of every class it decorates when the module is imported (about 2 ms per
class, and ``import dataclasses`` itself pulls in ``inspect``), which was
most of ``import mbparse``. Each class now writes its ``__init__`` out and
lists its fields in ``_fields``; the bases give what ``@dataclass`` gave:

* :class:`Record`: ``repr`` as ``Name(field=value, ...)``; equality and
  hashing by identity (a dataclass with ``eq=False``).
* :class:`ValueRecord`: also equal to a record of the same class with equal
  fields, and unhashable (a mutable dataclass).
* :class:`FrozenRecord`: a value record that refuses assignment and deletion
  (:class:`FrozenInstanceError`) and hashes by its fields (a frozen
  dataclass); its ``__init__`` sets fields with ``object.__setattr__``.

Every base has empty ``__slots__``, so a subclass that lists its own slots
has no per-instance ``__dict__``.
"""
from __future__ import annotations

from operator import attrgetter
from reprlib import recursive_repr

_set = object.__setattr__


class FrozenInstanceError(AttributeError):
    """Assignment to, or deletion of, a field of an immutable record."""


def _key_getter(fields: tuple[str, ...]):
    """A function giving a record's fields as one tuple (also for one field or
    none, so that comparing two records compares tuples, as a dataclass does)."""
    if len(fields) > 1:
        return attrgetter(*fields)
    if len(fields) == 1:
        one = attrgetter(fields[0])
        return lambda record: (one(record),)
    return lambda record: ()


class Record:
    """Repr by fields; identity equality (see the module docstring)."""

    __slots__ = ()
    # Field names in declaration order: what repr shows and equality compares.
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # (a staticmethod: an attrgetter is not bound as a method)
        cls._key = staticmethod(_key_getter(cls._fields))
        if "__match_args__" not in cls.__dict__:  # positional ``case Box(w, d, h):``
            cls.__match_args__ = cls._fields

    @recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"


class ValueRecord(Record):
    """Equal to a record of the same class whose fields are equal; unhashable."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) == self._key(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class FrozenRecord(ValueRecord):
    """An immutable value record, hashable by its fields."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self._key(self))

    # Pickling and copying set the fields back without __setattr__ (which
    # refuses) and without __init__ (which would check them again).
    def __getstate__(self) -> list:
        return [getattr(self, name) for name in self._fields]

    def __setstate__(self, state: list) -> None:
        for name, value in zip(self._fields, state):
            _set(self, name, value)


def replace(record: Record, **changes: object) -> Record:
    """A new record of the same class with the same fields but ``changes``
    (what ``dataclasses.replace`` did): the class is called with every
    argument of its ``__init__`` (``__match_args__``), so that its checks
    run again."""
    values = {name: getattr(record, name) for name in type(record).__match_args__}
    values.update(changes)
    return type(record)(**values)
