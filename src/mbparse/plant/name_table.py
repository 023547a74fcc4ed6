"""The plant's name tables: ``(model instance, name) -> element``, which also
keep the keys of each bare name, so that a lookup by name across every model
instance (``get_frame_by_name("f")``) is one step rather than a scan of the
table (a directives file of 16,000 add_frame took minutes that way)."""
from __future__ import annotations


class NameTable(dict):
    """A dict of ``(model instance, name)`` keys that also knows, for each
    name, its keys in the order they were added."""

    __slots__ = ("_keys_of",)

    def __init__(self) -> None:
        super().__init__()
        self._keys_of: dict[str, list[tuple[int, str]]] = {}

    def __setitem__(self, key: tuple[int, str], value) -> None:
        if key not in self:
            self._keys_of.setdefault(key[1], []).append(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: tuple[int, str]) -> None:
        dict.__delitem__(self, key)
        keys = self._keys_of[key[1]]
        keys.remove(key)
        if not keys:
            del self._keys_of[key[1]]

    def named(self, name: str) -> list:
        """The elements called ``name`` in any model instance, in the order added."""
        return [self[k] for k in self._keys_of.get(name, ())]

    def __reduce__(self):
        # Copies and pickles rebuild the name index from the items.
        return (self.__class__, (), None, None, iter(self.items()))

    # Only item assignment and ``del`` keep the index; the rest is refused.
    def _refused(self, *args, **kwargs):
        raise TypeError("a NameTable changes only by item assignment and del")

    pop = popitem = setdefault = update = clear = _refused  # type: ignore[assignment]
