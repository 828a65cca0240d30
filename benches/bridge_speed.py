"""Bridge speed side by side with OpenSpiel.

    python benches/bridge_speed.py [--deals 3000]

Random whole deals (a random auction, then random cards) through the Python State
API: cardkit's ``bridge`` and OpenSpiel's ``bridge`` with
``use_double_dummy_result=False`` (its 52 dealing chance moves included, as
cardkit's deal is part of ``new_state``), timed in five alternating rounds of
``deals / 5`` seeded deals each so that load from other processes hits both alike.
Then the Rust playout path (random calls and cards, one thread). A random
auction climbs fast (each bid is uniform over the bids left, and pass is one call
of dozens), so a deal here holds about 10 calls and the 52 cards.
"""

from __future__ import annotations

import argparse
import time

from _timing import interleaved
from cardkit._core import _bench  # unstable helpers, for benches and tests only
from cardkit.games.bridge import Bridge

OPENSPIEL = "bridge(use_double_dummy_result=False)"


def speed(deals: int) -> None:
    ck, os_rate = interleaved(Bridge(), OPENSPIEL, deals)
    n = 100_000
    start = time.perf_counter()
    _bench.bridge_playouts(n, 1)
    rust = n / (time.perf_counter() - start)
    print(f"Bridge, random whole deals ({deals} per engine), deals/s")
    print(f"{'engine':44} {'deals/s':>12} {'vs OpenSpiel':>13}")
    base = os_rate or float("nan")
    rows = [
        ("OpenSpiel bridge (Python API)", os_rate),
        ("cardkit State API (Python)", ck),
        ("cardkit Rust playout, random (1 thread)", rust),
    ]
    for name, rate in rows:
        if rate is None:
            print(f"{name:44} {'not installed':>12}")
        else:
            print(f"{name:44} {rate:12,.0f} {rate / base:12.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3000)
    args = parser.parse_args()
    speed(args.deals)


if __name__ == "__main__":
    main()
