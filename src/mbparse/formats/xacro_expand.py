"""The xacro expansion itself, run in a child process under limits
(``python -m mbparse.formats.xacro_expand``; :mod:`.xacro` starts it).

xacro evaluates ``${...}`` as Python and copies macros without bound, so a
file can ask for any amount of time or memory (``${10**10**10}``, a macro
that calls itself ten times per level, ``'a' * 10**10``), and its includes
and ``load_yaml`` open any path (``/dev/zero``, a FIFO). None of that can be
stopped from inside one Python process, so the expansion runs here, with
its CPU time and address space limited by the kernel, and answers with one
JSON document on stdout.

The request (JSON on stdin): ``name`` (the file's name in diagnostics),
``text`` (its contents, as latin-1 of the bytes), ``is_file``, ``root_dir``,
``packages`` (name -> folder, for ``$(find)``), and ``cpu_seconds`` and
``memory_bytes``, the limits (0: none; the defaults when absent).

The answer: ``text`` (the expanded URDF, the marks taken out), ``files``
(the xacro files read, by index), ``lines`` (line of the expanded text ->
[file index, line written]), ``diagnostics`` (``[level, message, file,
line, code]``: xacro's warnings and the XML leniencies noted) and, when the
expansion failed, ``error`` (``[message, file, line, code]``).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys

# The expansion's CPU time, at most (real files take under 1 s), and its
# address space, unless the request says otherwise (limits.SizeLimits).
CPU_SECONDS = 4
MEMORY_BYTES = 1 << 30

ORIGIN = "mbparse-xacro-origin"   # the attribute that carries "file-index:line"


class _Failed(Exception):
    """The expansion stops with a located error: (message, file, line, code)."""


class _Expansion:
    def __init__(self, request: dict):
        self.name: str = request["name"]
        self.files: list[str] = []
        self.lines: dict[int, list] = {}
        self.diagnostics: list[list] = []

    def mark(self, data: bytes, name: str) -> str:
        """The XML text with every non-xacro element marked with its origin."""
        from lxml import etree

        from .common.xml import parse_xml_bytes, problem_code
        notes: list = []
        root, problem, line = parse_xml_bytes(data, notes, blank_text=True)
        if root is None:
            code = problem_code(problem)
            what = "not well-formed XML" if code == "xml-syntax" else "refused"
            raise _Failed(f"the xacro file is {what}: {problem}", name, line, code)
        for note_line, message, *code in notes:
            self.diagnostics.append(["warning", message, name, note_line,
                                     code[0] if code else "xml-leniency"])
        index = len(self.files)
        self.files.append(name)
        for el in root.iter():
            if isinstance(el.tag, str) and "xacro" not in (etree.QName(el).namespace or ""):
                el.set(ORIGIN, f"{index}:{el.sourceline}")
        return etree.tostring(root, encoding="unicode")

    def record(self, expanded: str) -> str:
        """The expanded text without the marks; remembers the origin of each
        line that starts an element."""
        from lxml import etree

        from .common.xml import parse_xml_bytes, problem_code
        root, problem, _ = parse_xml_bytes(expanded.encode("utf-8"), blank_text=True)
        if root is None:
            if problem_code(problem) == "size-limit":
                raise _Failed(f"xacro produced a model mbparse refuses: {problem}", self.name,
                              None, "size-limit")
            raise _Failed(f"xacro produced text that is not well-formed XML: {problem}",
                          self.name, None, "xacro-error")
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            mark = el.attrib.pop(ORIGIN, None)
            if mark is not None and el.sourceline not in self.lines:
                index, _, origin_line = mark.partition(":")
                self.lines[el.sourceline] = [int(index), int(origin_line)]
        return etree.tostring(root, encoding="unicode")


def _read(path: str) -> bytes:
    """A file xacro reads (an include, a YAML file): regular files only."""
    import xacro

    from ..files import read_regular_file
    try:
        return read_regular_file(path)
    except OSError as e:
        raise xacro.XacroException(str(e.strerror or e)) from None


@contextlib.contextmanager
def _hooks(expansion: _Expansion, packages: dict):
    """xacro with $(find) through the package map, every file it reads
    marked and checked to be a regular file, and its stderr captured."""
    import xacro
    import xacro.substitution_args as args

    def find(pkg: str) -> str:
        if pkg in packages:
            return packages[pkg]
        raise LookupError(f"$(find {pkg}): package '{pkg}' is not in the package map; add it "
                          f"(--package {pkg}=DIR, or a package.xml above the file)")

    original_parse = xacro.parse

    def parse(inp, filename=None):
        if inp is None and filename is not None:
            path = os.path.join(xacro.root_dir, filename)
            if not os.path.exists(path):
                return original_parse(inp, filename)  # xacro's own error
            return original_parse(expansion.mark(_read(path), os.path.normpath(path)), filename)
        return original_parse(inp, filename)

    def regular_open(path, *more, **options):
        """``open`` as xacro's module sees it (``load_yaml``, includes)."""
        from ..files import regular_file_problem
        problem = regular_file_problem(path)
        if problem is not None and os.path.exists(path):
            raise xacro.XacroException(problem)
        return open(path, *more, **options)

    xacro.parse = parse
    xacro.open = regular_open   # shadows the builtin inside xacro's module
    args._eval_find = find
    args._eval_dict["find"] = find
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        yield stderr


_UNDEFINED = re.compile(r"name '(\w+)' is not defined|Undefined substitution argument (\w+)"
                        r"|\$\(find ([\w-]+)\)"
                        r"|(package)://"
                        r"|(?:property|macro) '?(\w+)'? (?:is )?not defined")


def _error_line(path: str, message: str) -> int | None:
    """The first line of ``path`` that uses the name an error says is
    undefined, or None."""
    from ..files import read_regular_file
    m = _UNDEFINED.search(message)
    if m is None:
        return None
    name = next(g for g in m.groups() if g)
    try:
        text = read_regular_file(path).decode("utf-8", errors="replace")
    except OSError:
        return None
    for number, line in enumerate(text.splitlines(), start=1):
        if re.search(rf"(\$\{{|\$\(|xacro:)[^\n]*\b{re.escape(name)}\b", line):
            return number
    return None


def _unprefixed_property(files: list[str], message: str) -> tuple[str, int, str] | None:
    """(file, line, name) of a ``<property name=...>`` written without the
    ``xacro:`` prefix (old xacro read it, today's ignores it) that defines
    the name an error says is undefined, or None."""
    from ..files import read_regular_file
    m = re.search(r"name '(\w+)' is not defined", message)
    if m is None:
        return None
    pattern = re.compile(rf"<property\s[^>]*\bname\s*=\s*[\"']{m.group(1)}[\"']")
    for path in files:
        try:
            text = read_regular_file(path).decode("utf-8", errors="replace")
        except OSError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                return path, number, m.group(1)
    return None


def _caused_by(error: BaseException, kind: type) -> bool:
    """Whether ``error`` or an exception it was raised from is a ``kind``
    (xacro wraps what an expression raises in its own exception)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, kind):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _too_deep(filestack: list) -> str:
    """What to say when the expansion recursed past Python's limit: the
    file that includes itself, when the include stack holds one twice, else
    a macro that calls itself."""
    stack = [f for f in filestack if f]
    for i, path in enumerate(stack):
        if path in stack[:i]:
            return (f"'{os.path.basename(path)}' includes itself (the includes were {len(stack)} "
                    "files deep when the expansion stopped); remove the include that leads "
                    "back to it")
    # (a macro level takes about three Python calls; xacro itself stops near 330 too)
    return (f"macros are nested more than about {sys.getrecursionlimit() * 3 // 10} deep "
            f"(the expansion's limit of {sys.getrecursionlimit()} Python calls, as in xacro's "
            "own program); a macro that calls itself without a condition that ends it?")


def expand(request: dict) -> dict:
    """The answer to one request (see the module's docstring)."""
    import xacro
    expansion = _Expansion(request)
    name = request["name"]
    answer: dict = {"files": expansion.files, "diagnostics": expansion.diagnostics}
    try:
        marked = expansion.mark(request["text"].encode("latin-1"), name)
        with _hooks(expansion, request["packages"]) as stderr:
            try:
                xacro.init_stacks(name if request["is_file"] else None)
                xacro.root_dir = request["root_dir"] or os.curdir
                doc = xacro.parse(marked)
                xacro.process_doc(doc)
                # one element per line, so that each line maps to one origin
                text = doc.documentElement.toprettyxml(indent="  ")
            except _Failed:
                raise
            except Exception as e:  # xacro raises its own and Python's (NameError, ...)
                where = (xacro.filestack or [name])[-1] or name
                message = re.sub(r"<class '[\w.]+'>: ", "", str(e) or type(e).__name__)
                half = len(message) // 2
                if message[:half] == message[half + 1:]:   # xacro repeats a wrapped message
                    message = message[:half]
                uri = re.search(r"package://([^/\s'\"]+)/([^\s'\"]*)", message)
                if uri is not None and ("No such file" in message or _caused_by(e, OSError)):
                    # xacro (ROS 1, ROS 2 and PyPI alike) joins a package://
                    # include filename to the including file's folder.
                    stack = [f for f in (xacro.filestack or []) if f]
                    if "package://" in where and len(stack) > 1:
                        where = stack[-2]
                    message = (f"the included file '{uri.group(0)}' is not found: xacro "
                               "resolves $(find PKG) in an include's filename, not package:// "
                               f"URIs; write filename=\"$(find {uri.group(1)})/{uri.group(2)}\"")
                unprefixed = _unprefixed_property(expansion.files, message)
                if unprefixed is not None:
                    where, line, prop = unprefixed
                    message = " ".join(message.split())
                    raise _Failed(f"xacro could not expand the file: {message}; '{prop}' is "
                                  f"defined here by <property> without the 'xacro:' prefix, "
                                  "which xacro (since 1.14, ROS Noetic) does not read: write "
                                  f"<xacro:property name=\"{prop}\" .../>", where, line,
                                  "xacro-error") from None
                if _caused_by(e, RecursionError):
                    message = _too_deep(xacro.filestack or [])
                if _caused_by(e, MemoryError):
                    message = memory_problem(request.get("memory_bytes", MEMORY_BYTES))
                raise _Failed(f"xacro could not expand the file: {message}", where,
                              _error_line(where, message), "xacro-error") from None
        for line in stderr.getvalue().splitlines():
            line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
            if line and not line.startswith(("when ", "in file:", "included from:",
                                             "instantiated from:")):
                line = re.sub(r"^warning:\s*", "", line)
                expansion.diagnostics.append(["warning", f"xacro: {line}", name, None,
                                              "xacro-warning"])
        answer["text"] = expansion.record(text)
        answer["lines"] = sorted(expansion.lines.items())
    except _Failed as failed:
        answer["error"] = list(failed.args)
    return answer


def memory_problem(most: int) -> str:
    """What a refusal says of an expansion that needed more than ``most`` bytes."""
    from ..limits import raise_hint
    return (f"the expansion needed more than {most >> 20} MB of memory; an expression or "
            f"macro that grows without end? (for a large model you trust, "
            f"{raise_hint('max_xacro_memory')})")


def _limit(cpu_seconds: int, memory_bytes: int) -> None:
    try:
        import resource
    except ImportError:   # no such limits here: the parent's wall-clock timeout remains
        return
    if cpu_seconds:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


def main() -> None:
    request = json.loads(sys.stdin.buffer.read())
    _limit(request.get("cpu_seconds", CPU_SECONDS), request.get("memory_bytes", MEMORY_BYTES))
    answer = expand(request)
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
