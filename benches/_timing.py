"""Timing helpers shared by the bench scripts: best-of-N per-call timings and a table."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


def per_call(fn: Callable[[], object], calls: int, repeat: int = 5) -> float:
    """Best-of-``repeat`` seconds per call of ``fn`` over ``calls`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def table(title: str, rows: Sequence[tuple[str, str, float]], baseline: str = "cardkit") -> str:
    """A markdown table of (task, library, seconds per call) with ratios to ``baseline``.

    The ratio column is ``library time / cardkit time``: above 1 means cardkit is faster.
    """
    base = {task: t for task, lib, t in rows if lib == baseline}
    lines = [
        f"### {title}",
        "",
        "| task | library | per call | vs cardkit |",
        "| --- | --- | ---: | ---: |",
    ]
    for task, lib, t in rows:
        ratio = t / base[task] if task in base else float("nan")
        lines.append(f"| {task} | {lib} | {t * 1e6:.3f} µs | {ratio:.2f}x |")
    return "\n".join(lines)
