"""Bridge double-dummy benchmark: cardkit against endplay's DDS in one run.

    python benches/bridge_dd.py [--deals 20] [--threads 2] [--rounds 3]

- *table*: one 20-result table per deal, cardkit's ``dd_table`` and endplay's
  ``calc_dd_table`` (DDS through ctypes) on the same deals with the same thread
  count (DDS's ``SetMaxThreads``), alternating deal by deal so load from other
  processes hits both alike; each round times the whole set, the best round
  counts.
- *batch*: cardkit's ``dd_tables`` on 1 thread and on ``--threads``, and the
  speed-up between them (the machine's cores bound it). The two are timed in
  alternating rounds, as the table's libraries are, so a burst of load from
  other processes does not land on one thread count only.

Each row also gives the process CPU time per table and the cores it kept busy
(CPU time over wall time): CPU time is the work done, which load from other
processes hardly changes, so the CPU column compares the solvers' work even on a
busy machine, and a batch row with fewer busy cores than threads says that the
machine, not the schedule, held the speed-up down.

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


class Timing:
    """Best wall time over rounds and the process CPU time of that round."""

    def __init__(self) -> None:
        self.wall = float("inf")
        self.cpu = 0.0

    def add(self, wall: float, cpu: float) -> None:
        """Keep this round if it is the fastest so far."""
        if wall < self.wall:
            self.wall, self.cpu = wall, cpu

    def row(self, n: int) -> str:
        """Per-table wall and CPU time and the cores kept busy, as table cells."""
        busy = self.cpu / self.wall
        return f"{self.wall / n * 1e3:.1f} ms | {self.cpu / n * 1e3:.1f} ms | {busy:.2f}"


def table_round(pbns: list[str], threads: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(wall, CPU) seconds for one table of every deal: cardkit's, then endplay's,
    alternating deal by deal."""
    ours = [0.0, 0.0]
    theirs = [0.0, 0.0]
    for pbn in pbns:
        start, cpu = time.perf_counter(), time.process_time()
        mine = dd_table(pbn, threads=threads)
        ours[0] += time.perf_counter() - start
        ours[1] += time.process_time() - cpu
        start, cpu = time.perf_counter(), time.process_time()
        peer = endplay_rows(pbn)
        theirs[0] += time.perf_counter() - start
        theirs[1] += time.process_time() - cpu
        if mine.rows != peer:
            raise SystemExit(f"tables differ on {pbn}")
    return (ours[0], ours[1]), (theirs[0], theirs[1])


def batch_run(pbns: list[str], threads: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``dd_tables`` call over every deal."""
    start, cpu = time.perf_counter(), time.process_time()
    dd_tables(pbns, threads=threads)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pbns = deals(args.deals)
    n = len(pbns)
    dds.SetMaxThreads(args.threads)
    ours, theirs = Timing(), Timing()
    for _ in range(args.rounds):
        mine, peer = table_round(pbns, args.threads)
        ours.add(*mine)
        theirs.add(*peer)
    print(f"### DD table, {n} random deals, {args.threads} thread(s), best of {args.rounds}")
    print()
    print("| library | per table | CPU per table | cores busy | vs cardkit |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| cardkit dd_table | {ours.row(n)} | 1.00x |")
    ratio = theirs.wall / ours.wall
    print(f"| endplay calc_dd_table (DDS) | {theirs.row(n)} | {ratio:.2f}x |")
    counts = sorted({1, args.threads})
    batch = {threads: Timing() for threads in counts}
    for r in range(args.rounds):
        # Alternate which thread count goes first, so neither always follows the other.
        for threads in counts[:: 1 if r % 2 == 0 else -1]:
            batch[threads].add(*batch_run(pbns, threads))
    print()
    print(f"### dd_tables batch, {n} deals, best of {args.rounds} alternating rounds")
    print()
    print("| threads | per table | CPU per table | cores busy | speed-up |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for threads, t in batch.items():
        print(f"| {threads} | {t.row(n)} | {batch[1].wall / t.wall:.2f}x |")


if __name__ == "__main__":
    main()
