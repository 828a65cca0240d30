"""Long calls stop on Ctrl-C (issue 13).

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

_PRELUDE = """
import sys
try:
    print("started", flush=True)
{body}
except KeyboardInterrupt:
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
        _, err = proc.communicate(timeout=LIVENESS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running {LIVENESS} s after SIGINT")
    latency = time.monotonic() - sent
    assert proc.returncode == exit_code, f"exit {proc.returncode} after {latency:.3f} s: {err}"
    assert "Traceback" not in err, err
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
