"""Ctrl-C stops every long game call promptly: searches, solvers, batch move
generation and playouts.

Each case runs in a child Python process with a budget that would take minutes
(the batch calls: seconds, as far as their output fits in memory), prints
``ready`` just before the call, gets SIGINT half a second later and must end the
call with ``KeyboardInterrupt`` with every worker thread it started gone. The
only time limit is a generous liveness timeout; the measured latency goes into
the failure message, not into an assertion.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not os.path.isdir("/proc/self/task"),
    reason="needs POSIX signals and /proc to count threads",
)

#: Seat 0's view of a fresh deal of the 52-card pack: its hand and the rest.
TRICK_VIEW = """
import random
cards = list(range(52))
random.Random(5).shuffle(cards)
hand = cards[:13]
known = [sum(1 << c for c in hand), 0, 0, 0]
unknown = sum(1 << c for c in cards[13:])
"""

FULL_DDZ = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"

#: name -> (setup, the long call). Budgets are the largest each call accepts or
#: far beyond what finishes in minutes.
CASES: dict[str, tuple[str, str]] = {
    "hearts_search": (
        TRICK_VIEW + "from cardkit._core import hearts_search",
        "hearts_search(0, known, unknown, [13] * 4, [0] * 4, 0, [], [0] * 4, False, 0,"
        " hand, 2**32 - 1, 1)",
    ),
    "spades_search": (
        TRICK_VIEW + "from cardkit._core import spades_search",
        "spades_search(0, known, unknown, [13] * 4, [0] * 4, 0, [], 0, [3] * 4, [0] * 4,"
        " [0, 0], False, hand, 2**32 - 1, 1)",
    ),
    "doudizhu_search": (
        f"from cardkit._core import ClimbingView\n"
        f"view = ClimbingView('doudizhu', 0, {FULL_DDZ[:20]!r}, [20, 17, 17],"
        f" {FULL_DDZ[20:]!r})",
        "view.search_move(2**32 - 1, 1)",
    ),
    "zhengshangyou_search": (
        "from cardkit._core import ClimbingView\n"
        "view = ClimbingView('zhengshangyou', 0, '33445566778899TJ', [16, 16, 16],"
        " '33445566778899TTTJJJQQQQKKKKAAA2')",
        "view.search_move(2**32 - 1, 1)",
    ),
    "chinese_poker_solve": (
        "from cardkit.agents.chinese_poker import solve",
        "solve('AsKsQsJs9h8h7h6d5d4d3c2c2d', samples=100_000, candidates=72_072)",
    ),
    "chinese_poker_solver_agent": (
        "import cardkit\n"
        "from cardkit.agents.chinese_poker import SolverAgent\n"
        "state = cardkit.games.make('chinese_poker').new_state(seed=3)\n"
        "agent = SolverAgent(seed=1, samples=100_000, candidates=72_072)\n"
        "seat = state.current_player",
        "agent.act(state.observation(seat), state.legal_actions())",
    ),
    "legal_action_ids_batch": (
        # Every lead of a whole pack, on every core: ~0.5 ms a hand.
        f"from cardkit.games.doudizhu import legal_action_ids_batch\n"
        f"hands = [{FULL_DDZ!r}] * 20_000",
        "legal_action_ids_batch(hands)",
    ),
    "legal_plays_batch": (
        f"from cardkit.games.doudizhu import legal_plays_batch\nhands = [{FULL_DDZ!r}] * 20_000",
        "legal_plays_batch(hands, threads=1)",
    ),
    "climbing_random_playouts": (
        # The reproducer: it used to abort on a 10**12-byte allocation.
        "from cardkit._core import _bench_climbing_random_playouts",
        "_bench_climbing_random_playouts('doudizhu', 10**12, 0, 'random')",
    ),
    "hearts_playouts": (
        "from cardkit._core import _bench_hearts_playouts",
        "_bench_hearts_playouts(10**15, 1, 0.1)",
    ),
    "spades_playouts": (
        "from cardkit._core import _bench_spades_playouts",
        "_bench_spades_playouts(10**15, 1)",
    ),
}

CHILD = """
import os, sys
{setup}
def threads():
    return len(os.listdir("/proc/self/task"))
before = threads()
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", before, threads(), flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(1)
"""

#: Liveness only: far above the ~0.1 s a stop takes, for loaded CI machines.
TIMEOUT = 10.0


@pytest.mark.parametrize("name", sorted(CASES))
def test_sigint_stops_the_call_with_keyboard_interrupt(name: str) -> None:
    setup, call = CASES[name]
    code = CHILD.format(setup=setup, call=call)
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline().strip()
        assert first == "ready", f"child failed to start: {first!r} {child.stderr.read()}"
        time.sleep(0.5)
        assert child.poll() is None, f"{name} ended before SIGINT: {child.stderr.read()}"
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=TIMEOUT)
        latency = time.perf_counter() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    words = out.split()
    assert words[:1] == ["interrupted"], (
        f"{name}: no KeyboardInterrupt after {latency:.3f} s: {out!r} {err[-2000:]}"
    )
    before, after = int(words[1]), int(words[2])
    assert after == before, f"{name}: {after - before} worker threads still running"
    assert child.returncode == 0, f"{name} (stopped in {latency:.3f} s): {err[-2000:]}"
