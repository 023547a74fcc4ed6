"""Diagnostics: every problem found in user input, with where it was found.

Readers never print and never raise ad hoc exceptions. They report through a
:class:`DiagnosticPolicy`; a warning is collected and emitted as a
:class:`ParseWarning`, an error raises :class:`ParseError`. Under strict
parsing a warning raises too.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable

from .numbers import QUOTE_LIMIT, quote
from .records import FrozenRecord, ValueRecord, _set

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from typing import NoReturn


_MESSAGE_LIMIT = 2000
_LONG_QUOTE = re.compile(r"'([^']{%d,})'" % (QUOTE_LIMIT + 1))


def _shorten_quotes(message: str) -> str:
    """``message`` with every long quoted text cut short, then capped."""
    message = _LONG_QUOTE.sub(lambda m: f"'{quote(m.group(1))}'", message)
    if len(message) > _MESSAGE_LIMIT:
        message = message[:_MESSAGE_LIMIT - 40] + f"... ({len(message)} characters)"
    return message


class Diagnostic(FrozenRecord):
    """One finding: severity, message, location (file, line, column), the
    element it is about, and a stable ``code`` naming the kind of problem
    (``mbparse check --list-rules`` lists them; None where none is set yet).
    Immutable; equal to a diagnostic with the same fields."""

    _fields = ("severity", "message", "file", "line", "column", "element", "code")
    severity: str  # "error" | "warning"
    message: str
    file: str | None
    line: int | None
    column: int | None
    element: str | None
    code: str | None

    def __init__(self, severity: str, message: str, file: str | None = None,
                 line: int | None = None, column: int | None = None,
                 element: str | None = None, code: str | None = None) -> None:
        if type(message) is not str:  # a str subclass (a URI problem) is kept plain
            message = str(message)
        # A value quoted back can be a megabyte long: keep messages readable.
        if len(message) > _MESSAGE_LIMIT // 4:
            message = _shorten_quotes(message)
        # (the fields in one step: a warning is made often, seven calls of
        # object.__setattr__ were half of its cost)
        _set(self, "__dict__", {"severity": severity, "message": message, "file": file,
                                "line": line, "column": column, "element": element,
                                "code": code})

    def location(self) -> str:
        where = self.file or "<string>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        return f"{self.location()}: {self.severity}: {self.message}"


def located_line(problem: "Diagnostic | ParseError", file: str) -> str:
    """The line a command prints for ``problem``: ``FILE:LINE: severity:
    message``, one prefix, with ``file`` where the diagnostic names none (a
    command-line option, a package folder)."""
    d = problem.diagnostic if isinstance(problem, ParseError) else problem
    if d.file is None:
        d = Diagnostic(d.severity, d.message, file, d.line, d.column, d.element, d.code)
    return str(d)


class ParseError(Exception):
    """Raised for input that cannot be parsed; ``diagnostic`` says where."""

    def __init__(self, diagnostic: Diagnostic | str):
        if isinstance(diagnostic, str):
            diagnostic = Diagnostic("error", diagnostic)
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))


class ParseWarning(UserWarning):
    """A problem in the input that parsing worked around.

    It is issued at the model file's own location: ``warnings`` shows it as
    ``robot.urdf:12: ParseWarning: <message>`` (with that line of the file),
    and a caught warning has ``filename`` and ``lineno`` of the model file;
    ``diagnostic`` holds everything (severity, message, location, code)."""

    def __init__(self, diagnostic: Diagnostic | str):
        if isinstance(diagnostic, str):
            diagnostic = Diagnostic("warning", diagnostic)
        self.diagnostic = diagnostic
        super().__init__(diagnostic.message)


# The most warnings one policy (one parser: the files one load reads) lists;
# the one after them says that the rest are not listed.
MAX_WARNINGS = 10_000


class DiagnosticPolicy(ValueRecord):
    """Turns findings into warnings or errors.

    ``strict`` makes every warning an error. ``emit`` controls whether
    warnings go through :func:`warnings.warn` (the library default); they are
    always kept in ``warnings_seen`` for tools such as ``mbparse check``.

    ``collect_errors`` is the linter's mode: an error still ends the element
    being read, but a reader's :meth:`recovering` block around each
    top-level element records it in ``errors_seen`` and reading goes on with
    the next element. Off (the library's contract, as Drake's), the first
    error raises out of the parse.

    ``like_drake`` is Drake's mode (``--like drake``): what Drake 1.51
    refuses only for a limit of its own (a mesh format it cannot read, ...)
    is an error, as in Drake; otherwise mbparse loads it with a warning that
    says Drake would refuse it. ``locate`` maps where a finding in generated
    text (an expanded xacro file) was found, (file, line) in that text, to
    (file, line) in the source; None: as given.
    """

    _fields = ("strict", "emit", "like_drake", "warnings_seen", "locate", "collect_errors",
               "errors_seen")

    def __init__(self, strict: bool = False, emit: bool = True, like_drake: bool = False,
                 warnings_seen: list[Diagnostic] | None = None,
                 locate: Callable[[str | None, int | None],
                                  tuple[str | None, int | None]] | None = None,
                 collect_errors: bool = False,
                 errors_seen: list[Diagnostic] | None = None) -> None:
        self.strict = strict
        self.emit = emit
        self.like_drake = like_drake
        self.warnings_seen: list[Diagnostic] = [] if warnings_seen is None else warnings_seen
        self.locate = locate
        self.collect_errors = collect_errors
        self.errors_seen: list[Diagnostic] = [] if errors_seen is None else errors_seen

    def error(self, message: str, file: str | None = None, line: int | None = None,
              column: int | None = None, element: str | None = None,
              code: str | None = None) -> NoReturn:
        """Raises a :class:`ParseError` for the finding."""
        if self.locate is not None:
            file, line = self.locate(file, line)
        raise ParseError(Diagnostic("error", message, file, line, column, element, code))

    def warning(self, message: str, file: str | None = None, line: int | None = None,
                column: int | None = None, element: str | None = None,
                code: str | None = None) -> None:
        """Records (and, with ``emit``, issues) a warning; raises under strict parsing."""
        if self.locate is not None:
            file, line = self.locate(file, line)
        if self.strict:
            raise ParseError(Diagnostic("error", message + " [a warning, made an error by "
                                        "strict parsing]", file, line, column, element, code))
        seen = self.warnings_seen
        if len(seen) >= MAX_WARNINGS:
            if len(seen) > MAX_WARNINGS:
                return
            message = (f"more than {MAX_WARNINGS:,} warnings: the rest are not listed (each "
                       "costs time and memory, and a file of so many is broken throughout)")
            element, code = None, "too-many-warnings"
        d = Diagnostic("warning", message, file, line, column, element, code)
        seen.append(d)
        if self.emit:
            # At the model's file and line, not at a line of mbparse's own.
            warnings.warn_explicit(ParseWarning(d), ParseWarning, d.file or "<string>",
                                   d.line or 0, module="mbparse")

    def saturated(self) -> bool:
        """Whether no more warnings are listed (:data:`MAX_WARNINGS` were):
        a reader may skip the work of making one."""
        return len(self.warnings_seen) > MAX_WARNINGS

    def recovering(self) -> "_Recovering":
        """A context around the reading of one element: with
        ``collect_errors``, an error inside is recorded and the block is
        left, so that reading goes on after it; otherwise the error passes
        through."""
        return _Recovering(self)

    def recovered(self, error: ParseError) -> bool:
        """Whether reading goes on after ``error`` (an element's ParseError):
        with ``collect_errors`` it is recorded and True; otherwise False,
        and the caller raises it again. What :meth:`recovering` does, for a
        reader's own ``try``/``except`` in a hot loop."""
        if not self.collect_errors:
            return False
        self.errors_seen.append(error.diagnostic)
        return True

    def drake_refuses(self, message: str, what_mbparse_does: str, file: str | None = None,
                      line: int | None = None, element: str | None = None,
                      code: str = "drake-refuses") -> None:
        """Something Drake refuses for a limit of its own implementation:
        an error (``message``, ``code``) in Drake's mode, otherwise a warning
        that says Drake would refuse it and what mbparse does instead, coded
        ``drake-refuses`` (a note in ``mbparse check``: the input is valid)."""
        if self.like_drake:
            self.error(message, file, line, element=element, code=code)
        self.warning(f"{message} [Drake refuses this; {what_mbparse_does}]", file, line,
                     element=element, code="drake-refuses")


class _Recovering:
    """The context :meth:`DiagnosticPolicy.recovering` returns (a class, not
    a generator: readers enter one per element)."""

    __slots__ = ("policy",)

    def __init__(self, policy: DiagnosticPolicy):
        self.policy = policy

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        return kind is not None and issubclass(kind, ParseError) and self.policy.recovered(error)
