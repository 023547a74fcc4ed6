"""Delta debugging: the smallest input (by lines, then by bytes) that still
gives the same finding."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Callable

from .run import REGRESSIONS, SUFFIX, Outcome


def ddmin(parts: list[bytes], still_fails: Callable[[list[bytes]], bool],
          budget: int = 400) -> list[bytes]:
    """Zeller's ddmin over ``parts`` with at most ``budget`` tests."""
    n = 2
    while len(parts) >= 2 and budget > 0:
        size = max(1, len(parts) // n)
        chunks = [parts[i:i + size] for i in range(0, len(parts), size)]
        reduced = False
        for i in range(len(chunks)):
            complement = [p for j, c in enumerate(chunks) if j != i for p in c]
            budget -= 1
            if complement and still_fails(complement):
                parts, n, reduced = complement, max(n - 1, 2), True
                break
            if budget <= 0:
                break
        if not reduced:
            if n >= len(parts):
                break
            n = min(len(parts), n * 2)
    return parts


def minimize(data: bytes, classify: Callable[[bytes], Outcome], budget: int = 400) -> bytes:
    """``data`` reduced while ``classify`` keeps giving the same finding."""
    target = classify(data)

    def same(candidate: bytes) -> bool:
        o = classify(candidate)
        return o.category == target.category and o.key == target.key

    lines = ddmin(data.splitlines(keepends=True), lambda p: same(b"".join(p)), budget)
    data = b"".join(lines)
    if len(data) <= 4000:
        chars = ddmin([data[i:i + 1] for i in range(len(data))],
                      lambda p: same(b"".join(p)), budget)
        data = b"".join(chars)
    return data


def save_regression(fmt: str, data: bytes, key: str) -> Path:
    """Stores a reproducer under ``regressions/<fmt>/`` (named for its finding)."""
    folder = REGRESSIONS / fmt
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:60]
    digest = hashlib.sha1(data).hexdigest()[:8]
    path = folder / f"{slug}-{digest}{SUFFIX[fmt]}"
    path.write_bytes(data)
    return path
