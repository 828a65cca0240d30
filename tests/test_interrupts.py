"""Long calls stop on Ctrl-C (issue 13): equity, batch evaluation, the CLI, game
searches, solvers, batch move generation and playouts.

Each case runs a call whose budget would last minutes in a child Python, sends it
SIGINT once it has started and checks that it stops with ``KeyboardInterrupt`` (or
exit status 130 for the command line) well within a liveness timeout. The measured
latency appears only in failure messages: the machine is shared, so no test asserts
on timing beyond liveness.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")

# Seconds a stopped child may take to exit (interpreter start-up and teardown on a
# busy machine included): liveness only.
LIVENESS = 10.0
# Exit status of a child whose long call raised KeyboardInterrupt.
INTERRUPTED = 99

# The child counts its threads before the call and after the interrupt: every
# worker a long call started must be gone once it has raised.
_PRELUDE = """
import os, sys
def _threads():
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0
_before = _threads()
try:
    print("started", flush=True)
{body}
except KeyboardInterrupt:
    # a joined thread leaves /proc a moment after its join returns
    import time
    for _ in range(100):
        if _threads() <= _before:
            break
        time.sleep(0.01)
    print("threads", _before, _threads(), flush=True)
    sys.exit({interrupted})
"""


def _child(code: str, setup: str = "") -> subprocess.Popen[str]:
    """A child Python that runs ``setup``, prints "started", then runs ``code``."""
    body = textwrap.indent(textwrap.dedent(code).strip(), "    ")
    script = textwrap.dedent(setup) + _PRELUDE.format(body=body, interrupted=INTERRUPTED)
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "started", line + (proc.stderr.read() if proc.stderr else "")
    return proc


def _interrupted(code: str, setup: str = "", exit_code: int = INTERRUPTED) -> float:
    """Seconds from SIGINT to the exit of a child running ``code`` (0.5 s after it
    started), which must exit with ``exit_code`` and print no traceback."""
    proc = _child(code, setup)
    time.sleep(0.5)
    assert proc.poll() is None, "the call finished before it was interrupted"
    sent = time.monotonic()
    os.kill(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=LIVENESS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running {LIVENESS} s after SIGINT")
    latency = time.monotonic() - sent
    assert proc.returncode == exit_code, f"exit {proc.returncode} after {latency:.3f} s: {err}"
    assert "Traceback" not in err, err
    for line in out.splitlines():
        if line.startswith("threads "):
            before, after = map(int, line.split()[1:])
            assert after == before, f"{after - before} worker threads still running"
    return latency


# ---------------------------------------------------------------------------
# Poker: equity (exact and Monte Carlo), evaluate_batch, `cardkit equity`.
# ---------------------------------------------------------------------------

POKER_SETUP = """
from cardkit.poker import equity, evaluate_batch
"""


@pytest.mark.parametrize(
    "call",
    [
        # One river board of three wide ranges: a single chunk of ~10^9 showdowns.
        'equity(["random"] * 3, board="2c7d9hJsKc", exact=True)',
        'equity(["22+,A2s+", "random", "QQ+"], board="2c7d9h", exact=True, threads=1)',
        'equity(["random"] * 10, samples=10**13)',
        'equity(["AA,KK,QQ,JJ"] * 8, samples=10**13)',
        'equity(["QQ+,AKs", "random"], stderr=1e-9)',
    ],
)
def test_equity_stops_on_sigint(call: str) -> None:
    latency = _interrupted(call, POKER_SETUP)
    assert latency < LIVENESS, f"{call}: {latency:.3f} s"


def test_evaluate_batch_stops_on_sigint() -> None:
    # Batches large enough to run on a watched worker thread (from 2**23 rows), one
    # after another: the signal lands inside one of them.
    setup = POKER_SETUP + (
        "import numpy as np\n"
        "rows = np.tile(np.arange(7, dtype=np.uint8), (9_000_000, 1))\n"
        "out = np.empty(len(rows), dtype=np.uint32)\n"
    )
    latency = _interrupted("while True:\n    evaluate_batch(rows, threads=1, out=out)", setup)
    assert latency < LIVENESS, f"evaluate_batch: {latency:.3f} s"


@pytest.mark.parametrize("progress", [True, False])
def test_cli_equity_exits_130_on_sigint(progress: bool) -> None:
    args = ["equity", "random", "random", "random", "--samples", str(10**13)]
    if not progress:
        args.append("--no-progress")
    code = f"sys.exit(main({args!r}))"
    latency = _interrupted(code, "from cardkit.cli import main\n", exit_code=130)
    assert latency < LIVENESS, f"cardkit {' '.join(args)}: {latency:.3f} s"


def test_progress_callback_error_stops_the_run() -> None:
    code = """
    def boom(fraction):
        raise RuntimeError("stop here")
    try:
        equity(["random"] * 10, samples=10**13, progress=boom)
    except RuntimeError as exc:
        print("raised", exc, flush=True)
    """
    proc = _child(code, POKER_SETUP)
    started = time.monotonic()
    try:
        out, err = proc.communicate(timeout=LIVENESS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"the callback's error did not stop the run within {LIVENESS} s")
    elapsed = time.monotonic() - started
    assert proc.returncode == 0, err
    assert "raised stop here" in out, f"{out} {err} after {elapsed:.3f} s"


# ---------------------------------------------------------------------------
# Games: searches, solvers, batch move generation and playouts. Budgets are the
# largest each call accepts or far beyond what finishes in minutes (the batch
# calls: seconds, as far as their output fits in memory).
# ---------------------------------------------------------------------------

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

#: name -> (setup, the long call).
GAME_CASES: dict[str, tuple[str, str]] = {
    "hearts_search": (
        TRICK_VIEW + "from cardkit._core import hearts_search",
        "hearts_search(0, known, unknown, [13] * 4, [0] * 4, 0, [], [0] * 4, False, 0,"
        " hand, 2**32 - 1, 1)",
    ),
    "hearts_search reading": (
        TRICK_VIEW + "from cardkit._core import hearts_search",
        "hearts_search(0, known, unknown, [13] * 4, [0] * 4, 0, [], [0] * 4, False, 0,"
        " hand, 2**32 - 1, 1, reading=1.0)",
    ),
    "hearts_pass_search": (
        TRICK_VIEW + "from cardkit._core import hearts_pass_search",
        "hearts_pass_search(0, known[0], [sum(1 << c for c in hand[:3])], 1, 2**32 - 1, 1)",
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
    "TractorDeal.action_points": (
        # Whole deals after each first lead solved: far beyond any node budget
        # that finishes.
        "import random\n"
        "from cardkit._core import TractorDeal\n"
        "pack = [r + s for r in '23456789TJQKA' for s in 'cdhs'] * 2\n"
        "random.Random(5).shuffle(pack)\n"
        "deal = TractorDeal([''.join(pack[25 * i : 25 * i + 25]) for i in range(4)], '2', 's', 0)\n"
        "ids = deal.legal_ids()",
        "deal.action_points(ids, [0] * len(ids), 0, '', 100, 2**32 - 1)",
    ),
    "GuandanDeal.search_move endgame": (
        # A fresh deal solved whole from the first move: no node budget finishes it.
        "import cardkit\n"
        "from cardkit.agents.guandan import deal_of\n"
        "state = cardkit.games.make('guandan').new_state(seed=1)\n"
        "deal = deal_of(state.observation(state.current_player))",
        "deal.search_move(2**32 - 1, 1, endgame_cards=108, endgame_nodes=2**32 - 1)",
    ),
    "bridge_sample_deals": (
        # Points no hand can hold, tried for ever before they are relaxed.
        "from cardkit._core import bridge_sample_deals\n"
        "cd = sum(1 << i for i in range(52) if i % 4 < 2)",
        "bridge_sample_deals(cd, [0, 0], [0, 0], [(30, 37)] * 2, [[(0, 13)] * 4] * 2,"
        " [False] * 2, 100_000, 0, 2**63)",
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
        "from cardkit._core import _bench",
        "_bench.climbing_random_playouts('doudizhu', 10**12, 0, 'random')",
    ),
    "hearts_playouts": (
        "from cardkit._core import _bench",
        "_bench.hearts_playouts(10**15, 1, 0.1)",
    ),
    "spades_playouts": (
        "from cardkit._core import _bench",
        "_bench.spades_playouts(10**15, 1)",
    ),
}


@pytest.mark.parametrize("name", sorted(GAME_CASES))
def test_game_call_stops_on_sigint(name: str) -> None:
    setup, call = GAME_CASES[name]
    latency = _interrupted(call, setup)
    assert latency < LIVENESS, f"{name}: {latency:.3f} s"
