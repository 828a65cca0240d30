"""Timing and reporting helpers shared by the bench scripts: best-of-N per-call timings,
tables, and the running mean ± 95% CI rows of the paired strength benches."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardkit.sim import mean_ci


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


def best_rate(run: Callable[[], int], rounds: int) -> float:
    """The best items per second of ``run`` (which returns how many items it did)."""
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        done = run()
        best = max(best, done / (time.perf_counter() - start))
    return best


def row(name: str, value: float, target: float | None, unit: str) -> None:
    """Print a rate, with its target and whether it meets it when there is one."""
    if target is None:
        print(f"  {name:<52} {value:>12,.0f} {unit}")
        return
    met = "meets" if value >= target else "below"
    print(f"  {name:<52} {value:>12,.0f} {unit}  target {target:>9,.0f}  {met}")


def cardkit_random_deals(game: Any, n: int) -> float:
    """Random single deals per second through cardkit's Python State API."""
    start = time.perf_counter()
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return n / (time.perf_counter() - start)


def openspiel_random_deals(name: str, n: int) -> float | None:
    """Random games per second through OpenSpiel's Python API (None if not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    start = time.perf_counter()
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    return n / (time.perf_counter() - start)


def interleaved(game: Any, name: str, deals: int, rounds: int = 5) -> tuple[float, float | None]:
    """Deals per second of cardkit and OpenSpiel game ``name``, timed in alternating
    rounds so that load from other processes on a shared machine falls on both alike
    (the OpenSpiel rate is None if it is not installed)."""
    per_round = max(1, deals // rounds)
    ck_time = os_time = 0.0
    for _ in range(rounds):
        ck_time += per_round / cardkit_random_deals(game, per_round)
        rate = openspiel_random_deals(name, per_round)
        if rate is None:
            return rounds * per_round / ck_time, None
        os_time += per_round / rate
    return rounds * per_round / ck_time, rounds * per_round / os_time


def ci_row(done: int, series: Sequence[Sequence[float]], began: float, *extra: str) -> None:
    """Print one progress row of a paired bench: ``done`` deals, each series' mean ±
    its 95% CI half-width (15 characters a cell), the ``extra`` cells, the time so far."""
    cells = " ".join(f"{f'{m:6.2f} ± {h:5.2f}':>15}" for m, h in map(mean_ci, series))
    tail = " ".join(extra)
    print(f"{done:6} {cells} {tail} {time.perf_counter() - began:7.0f}s", flush=True)
