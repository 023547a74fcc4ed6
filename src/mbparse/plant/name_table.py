"""The keys of each bare name in one of the plant's name tables
(``(model instance, name) -> element`` dicts), so that a lookup by name
across every model instance (``get_frame_by_name("f")``) is one step rather
than a scan of the table (a directives file of 16,000 add_frame took minutes
that way). The index is brought up to date when it is asked, from the keys
added since (the end of the dict): registering an element costs nothing more."""
from __future__ import annotations

from itertools import islice


class NameIndex:
    """The keys of each name in ``table``, in the order they were added.
    Adding keys needs no word; after a key is removed, :meth:`forget`."""

    __slots__ = ("table", "_seen", "_keys_of")

    def __init__(self, table: dict) -> None:
        self.table = table
        self._seen = 0  # keys of the table already indexed (its first ones)
        self._keys_of: dict[str, list[tuple[int, str]]] = {}

    def named(self, name: str) -> list:
        """The elements called ``name`` in any model instance, in the order added."""
        table = self.table
        n = len(table)
        if n != self._seen:
            if n < self._seen:  # removed without forget(): start again
                self.forget()
            keys_of = self._keys_of
            for key in reversed(list(islice(reversed(table), n - self._seen))):
                keys_of.setdefault(key[1], []).append(key)
            self._seen = n
        return [table[k] for k in self._keys_of.get(name, ())]

    def forget(self) -> None:
        """Drops the index (a key was removed): the next lookup rebuilds it."""
        self._seen = 0
        self._keys_of = {}
