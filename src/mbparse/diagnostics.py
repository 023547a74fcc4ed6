"""Diagnostics: every problem found in user input, with where it was found.

Readers never print and never raise ad hoc exceptions. They report through a
:class:`DiagnosticPolicy`; a warning is collected and emitted as a
:class:`ParseWarning`, an error raises :class:`ParseError`. Under strict
parsing a warning raises too.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Diagnostic:
    """One finding: severity, message and location (file, line, column)."""

    severity: str  # "error" | "warning"
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    element: str | None = None

    def location(self) -> str:
        where = self.file or "<string>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        return f"{self.location()}: {self.severity}: {self.message}"


class ParseError(Exception):
    """Raised for input that cannot be parsed; ``diagnostic`` says where."""

    def __init__(self, diagnostic: Diagnostic | str):
        if isinstance(diagnostic, str):
            diagnostic = Diagnostic("error", diagnostic)
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))


class ParseWarning(UserWarning):
    """A problem in the input that parsing worked around (see its message)."""

    def __init__(self, diagnostic: Diagnostic | str):
        if isinstance(diagnostic, str):
            diagnostic = Diagnostic("warning", diagnostic)
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))


@dataclass
class DiagnosticPolicy:
    """Turns findings into warnings or errors.

    ``strict`` makes every warning an error. ``emit`` controls whether
    warnings go through :func:`warnings.warn` (the library default); they are
    always kept in ``warnings_seen`` for tools such as ``mbparse check``.
    """

    strict: bool = False
    emit: bool = True
    warnings_seen: list[Diagnostic] = field(default_factory=list)

    def error(self, message: str, file: str | None = None, line: int | None = None,
              column: int | None = None, element: str | None = None) -> None:
        raise ParseError(Diagnostic("error", message, file, line, column, element))

    def warning(self, message: str, file: str | None = None, line: int | None = None,
                column: int | None = None, element: str | None = None) -> None:
        if self.strict:
            raise ParseError(Diagnostic("error", message + " [a warning, made an error by "
                                        "strict parsing]", file, line, column, element))
        d = Diagnostic("warning", message, file, line, column, element)
        self.warnings_seen.append(d)
        if self.emit:
            warnings.warn(ParseWarning(d), stacklevel=3)
