"""``mbparse check --for CONSUMER,...``: how each consumer of a model file
(Drake, MuJoCo, Gazebo, pybullet, Isaac Sim, ROS) will read it differently from
what the file says, from each one's documented behaviour.

One module per consumer; each has ``NAME``, ``READS`` (the formats it loads)
and ``check(ctx)``, which yields findings coded ``for-<consumer>-...`` (in
the rule table, :mod:`..rules`). A consumer that does not load the file's
format at all gives one ``for-<consumer>-not-read`` finding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Sequence

from ... import formats
from ...internal_errors import showing_tracebacks
from ...loading import LoadOptions
from ..findings import Finding, rule_finding
from . import drake, gazebo, isaac, mujoco, pybullet, ros
from .source import UrdfSource, read_urdf

CONSUMERS = {m.NAME: m for m in (drake, mujoco, gazebo, pybullet, isaac, ros)}
# What a format is called in a finding.
FORMAT_NAMES = {"urdf": "URDF", "sdformat": "SDFormat", "mjcf": "MJCF",
                "dmd": "Drake model directives", "obj": "OBJ", "xacro": "xacro", "usd": "USD"}


def parse_consumers(text: str) -> list[str]:
    """The consumers a comma list names, in the order given; a ValueError
    naming the valid ones for a name that is not one of them."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONSUMERS]
    if unknown or not names:
        raise ValueError(f"unknown consumer {', '.join(repr(n) for n in unknown) or '(none)'}; "
                         f"choose from {', '.join(CONSUMERS)}")
    return list(dict.fromkeys(names))


@dataclass
class PortabilityContext:
    """What a consumer's checks look at: the file, how check loaded it (its
    diagnostics and plant) and the file's source elements."""

    path: str
    options: LoadOptions
    reading: object  # runner.Reading
    findings: list[Finding] = field(default_factory=list)

    @property
    def format(self) -> str | None:
        fmt = formats.format_of(self.path)
        return "urdf" if fmt == "xacro" else fmt

    @cached_property
    def urdf(self) -> UrdfSource | None:
        loaded = self.reading.loaded
        return read_urdf(self.path, loaded.parser if loaded is not None else None)

    def finding(self, code: str, message: str, line: int | None = None,
                file: str | None = None) -> Finding:
        """A finding at ``file:line``; without ``file``, ``line`` is a line
        of the URDF source (for a xacro file, of its expansion), located
        where it was written."""
        if file is None and self.urdf is not None:
            file, line = self.urdf.locate(line)
        return rule_finding(code, message, file or self.path, line)


def check_for(consumers: Sequence[str], path: str, options: LoadOptions, reading,
              findings: list[Finding]) -> list[Finding]:
    """``findings`` (check's own) with each consumer's findings added. With
    Drake among the consumers, the ``drake-refuses`` notes of the default
    output are replaced by Drake's own findings."""
    ctx = PortabilityContext(path, options, reading, findings)
    out = list(findings)
    for name in consumers:
        consumer = CONSUMERS[name]
        if ctx.format not in consumer.READS:
            out.append(ctx.finding(
                f"for-{name}-not-read", f"{consumer.TITLE} does not load "
                f"{FORMAT_NAMES.get(ctx.format, ctx.format)} files ({consumer.READS_TEXT})"))
            continue
        if name == "drake":
            out = [f for f in out if f.rule != "drake-refuses"]
        elif name == "mujoco" and ctx.format == "mjcf":
            # what MuJoCo refuses: each becomes a for-mujoco-refuses error
            out = [f for f in out if f.rule not in mujoco.REFUSAL_RULES]
        out.extend(_guarded(consumer, ctx))
    return out


def _guarded(consumer, ctx: PortabilityContext) -> Iterator[Finding]:
    try:
        yield from consumer.check(ctx)
    except Exception as e:  # a check that tripped over an unusual file: a bug in mbparse
        if showing_tracebacks():
            raise
        yield rule_finding("internal-error", f"the {consumer.TITLE} portability check failed: "
                           f"{type(e).__name__}: {e}", ctx.path)
