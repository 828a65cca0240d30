"""The learning example in examples/ runs on a tiny budget and writes what it promises.

Whether it learns is the documented full run's job (README, "Learning example"); here
it must still run, log finite evaluation numbers and losses, write a valid PNG of the
documented size, and give the same output for the same seed, in process and from the
command line.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from cardkit.games import make

from .scripts import load_script

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_hearts.py"
TINY = ["--episodes", "64", "--envs", "32", "--eval-every", "32", "--eval-episodes", "32"]
TINY += ["--threads", "1", "--hidden", "16", "--seed", "5"]
NUMBER = r"(-?\d+\.\d+)"
EVAL_LINE = re.compile(rf"^eval episodes=(\d+) learner={NUMBER} random={NUMBER}(.*)$")


def load_example() -> ModuleType:
    """Import examples/train_hearts.py, which is a script, not part of the package."""
    return load_script(EXAMPLE, "train_hearts")


def read_png(data: bytes) -> np.ndarray:
    """Decode the 8-bit RGB, unfiltered, single-IDAT PNGs the example writes,
    checking every chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        body = data[pos + 4 : pos + 8 + length]
        crc = int.from_bytes(data[pos + 8 + length : pos + 12 + length], "big")
        assert zlib.crc32(body) == crc
        chunks.append((body[:4], body[4:]))
        pos += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    header = chunks[0][1]
    width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:8], "big")
    assert header[8:] == bytes([8, 2, 0, 0, 0])  # 8-bit RGB, no interlace
    raw = np.frombuffer(zlib.decompress(chunks[1][1]), np.uint8).reshape(height, -1)
    assert raw.shape[1] == 1 + 3 * width and not raw[:, 0].any()  # filter type 0
    return raw[:, 1:].reshape(height, width, 3)


def eval_lines(log: str) -> list[tuple[int, float, float, str]]:
    """The evaluation lines of a run's log: (episodes, learner, random, rest)."""
    found = [EVAL_LINE.match(line) for line in log.splitlines()]
    return [(int(m[1]), float(m[2]), float(m[3]), m[4]) for m in found if m]


def without_times(log: str) -> list[str]:
    """The log's lines without wall times and the output path, which differ from
    run to run."""
    return [re.sub(r" (time|out)=\S+", "", line) for line in log.splitlines()]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list, str, bytes]:
    """One in-process run on the tiny budget: (points, log, PNG bytes)."""
    out = tmp_path_factory.mktemp("example") / "curve.png"
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        points = load_example().main([*TINY, "--out", str(out)])
    return points, log.getvalue(), out.read_bytes()


def test_logs_finite_evaluations_and_losses(tiny_run: tuple[list, str, bytes]) -> None:
    points, log, _ = tiny_run
    lines = eval_lines(log)
    assert [episodes for episodes, *_ in lines] == [0, 32, 64]
    low, high = make("hearts", match=False).utility_range
    for (episodes, learner, random, _), point in zip(lines, points, strict=True):
        assert (episodes, learner, random) == (
            point.episodes,
            round(point.learner, 3),
            round(point.random, 3),
        )
        assert low <= learner <= high and low <= random <= high
    # One random baseline, measured once on the held-out deals.
    assert len({random for _, _, random, _ in lines}) == 1
    for _, _, _, rest in lines[1:]:
        losses = dict(re.findall(rf"(\w+)={NUMBER}", rest))
        assert math.isfinite(float(losses.pop("time")))
        assert set(losses) == {"policy_loss", "value_loss", "entropy"}
        assert all(math.isfinite(float(v)) for v in losses.values())
        assert float(losses["value_loss"]) >= 0
        # Entropy of a policy over at most 13 legal ids.
        assert 0 <= float(losses["entropy"]) <= math.log(13) + 1e-3
    final = log.splitlines()[-1]
    assert final.startswith(f"final episodes=64 learner={lines[-1][1]:.3f} random=")


def test_png_is_the_drawn_curve(tiny_run: tuple[list, str, bytes]) -> None:
    image = read_png(tiny_run[2])
    assert image.shape == (360, 640, 3)
    colors = {tuple(c) for c in image.reshape(-1, 3)}
    # Background, axes and labels, the learner's curve and the random seat's.
    assert {(255, 255, 255), (0, 0, 0), (30, 80, 220), (220, 40, 40)} <= colors


def test_same_seed_same_output_from_the_command_line(
    tiny_run: tuple[list, str, bytes], tmp_path: Path
) -> None:
    out = tmp_path / "again.png"
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), *TINY, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert without_times(result.stdout) == without_times(tiny_run[1])
    assert out.read_bytes() == tiny_run[2]


def test_minutes_budget_still_evaluates_and_draws(tmp_path: Path) -> None:
    # A zero-minute budget stops before the first update: the untrained learner's
    # evaluation is the whole curve.
    out = tmp_path / "curve.png"
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        points = load_example().main([*TINY, "--minutes", "0", "--out", str(out)])
    assert [p.episodes for p in points] == [0]
    assert [line[0] for line in eval_lines(log.getvalue())] == [0]
    assert log.getvalue().splitlines()[-1].startswith("final episodes=0 ")
    assert read_png(out.read_bytes()).shape == (360, 640, 3)
