"""Bridge double-dummy benchmark: cardkit against endplay's DDS in one run.

    python benches/bridge_dd.py [--deals 20] [--threads 2] [--rounds 3]

- *table*: one 20-result table per deal, cardkit's ``dd_table`` and endplay's
  ``calc_dd_table`` (DDS through ctypes) on the same deals with the same thread
  count (DDS's ``SetMaxThreads``), alternating deal by deal so load from other
  processes hits both alike; each round times the whole set, the best round
  counts.
- *batch*: cardkit's ``dd_tables`` on 1 thread and on ``--threads``, and the
  speed-up between them (the machine's cores bound it).

Every table is checked cell for cell against DDS's. Times are per deal.
"""

from __future__ import annotations

import argparse
import time

import endplay._dds as dds
from endplay.dds import calc_dd_table
from endplay.types import Deal, Denom, Player

from cardkit import shuffled_deck
from cardkit.bridge import dd_table, dd_tables
from cardkit.bridge.pbn import format_deal


def deals(n: int) -> list[str]:
    """``n`` seeded random deals as PBN strings."""
    out = []
    for seed in range(n):
        cards = shuffled_deck("standard52", 10_000 + seed)
        out.append(format_deal([cards[13 * k : 13 * k + 13] for k in range(4)]))
    return out


def endplay_rows(pbn: str) -> tuple[tuple[int, ...], ...]:
    table = calc_dd_table(Deal(pbn))
    denoms = [Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt]
    return tuple(tuple(table[d, Player(p)] for d in denoms) for p in range(4))


def table_round(pbns: list[str], threads: int) -> tuple[float, float]:
    """Seconds for one table of every deal: (cardkit, endplay), alternating."""
    ours = theirs = 0.0
    for pbn in pbns:
        start = time.perf_counter()
        mine = dd_table(pbn, threads=threads)
        ours += time.perf_counter() - start
        start = time.perf_counter()
        peer = endplay_rows(pbn)
        theirs += time.perf_counter() - start
        if mine.rows != peer:
            raise SystemExit(f"tables differ on {pbn}")
    return ours, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pbns = deals(args.deals)
    dds.SetMaxThreads(args.threads)
    best_ours = best_theirs = float("inf")
    for _ in range(args.rounds):
        ours, theirs = table_round(pbns, args.threads)
        best_ours, best_theirs = min(best_ours, ours), min(best_theirs, theirs)
    n = len(pbns)
    print(f"### DD table, {n} random deals, {args.threads} thread(s), best of {args.rounds}")
    print()
    print("| library | per table | vs cardkit |")
    print("| --- | ---: | ---: |")
    print(f"| cardkit dd_table | {best_ours / n * 1e3:.1f} ms | 1.00x |")
    ratio = best_theirs / best_ours
    print(f"| endplay calc_dd_table (DDS) | {best_theirs / n * 1e3:.1f} ms | {ratio:.2f}x |")
    batch = {}
    for threads in (1, args.threads):
        best = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            dd_tables(pbns, threads=threads)
            best = min(best, time.perf_counter() - start)
        batch[threads] = best
    print()
    print(f"### dd_tables batch, {n} deals")
    print()
    print("| threads | per table | speed-up |")
    print("| ---: | ---: | ---: |")
    for threads, t in batch.items():
        print(f"| {threads} | {t / n * 1e3:.1f} ms | {batch[1] / t:.2f}x |")


if __name__ == "__main__":
    main()
