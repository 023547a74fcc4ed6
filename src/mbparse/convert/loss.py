"""The loss report: what a conversion could not carry into its target, where
the model file said it, and what was done instead."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

# What a writer did with something its target cannot say.
DROPPED = "dropped"            # left out
APPROXIMATED = "approximated"  # written as something close to it
SPLIT = "split"                # written as several elements
MERGED = "merged"              # written together with other elements
RENAMED = "renamed"            # written under another name
ACTIONS = (DROPPED, APPROXIMATED, SPLIT, MERGED, RENAMED)


class ConvertError(ValueError):
    """A conversion that cannot give a model: an empty result, a non-finite
    number about to be written, a loss under ``strict``."""


@dataclass
class Loss:
    """One thing the target could not hold as the model has it."""

    element: str           # "joint 'elbow'"
    what: str              # what was lost, in words
    action: str            # one of ACTIONS
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file and self.line else (
            f"{self.file}: " if self.file else "")
        return f"{where}{self.element}: {self.what} ({self.action})"


@dataclass
class LossReport:
    """Every loss of one conversion, in the order the writer met them."""

    source: str | None
    target: str
    losses: list[Loss] = field(default_factory=list)

    def add(self, action: str, element: str, what: str,
            where: tuple[str | None, int | None] | None = None) -> None:
        assert action in ACTIONS, action
        file, line = where if where else (None, None)
        self.losses.append(Loss(element, what, action, file or self.source, line))

    def __bool__(self) -> bool:
        return bool(self.losses)

    def __len__(self) -> int:
        return len(self.losses)

    def to_dict(self) -> dict:
        return {"source": self.source, "target": self.target,
                "losses": [asdict(x) for x in self.losses]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"
