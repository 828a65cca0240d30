"""Train a small Hearts agent with policy gradients through ``cardkit.envs.VectorEnv``.

The learner holds seat 0 of every slot; the other three seats play uniformly
random legal actions drawn from the masks. The learner is a one-hidden-layer
network in plain numpy (no torch needed) with a policy head over the 104 action
ids and a value head, trained by REINFORCE with the value as a baseline (an
advantage actor-critic on whole-deal returns, scaled by 1/10) and Adam. Every
``--eval-every`` training episodes it plays ``--eval-episodes`` held-out deals
greedily against the same random opponents and logs its mean return next to a
random seat 0 on the same deals (Hearts returns are zero-sum and symmetric, so a
random seat expects 0). At the end it writes the learning curve as a PNG with a
small zlib writer (no matplotlib): the learner in blue, the random seat in red,
a y tick every 0.5 points, an x tick every 10% of the run.

    python examples/train_hearts.py --episodes 50000 --seed 0 --out curve.png

Every number depends only on ``--seed`` and the budget in episodes;
``--minutes`` caps the wall time instead (then the stopping point varies).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardkit.envs import VectorEnv

SEAT = 0
REWARD_SCALE = 10.0  # a deal returns -18.5..19.5: keep advantages near unit size
EVAL_SEED_OFFSET = 1_000_003  # held-out deals: a seed the training env never uses
ENTROPY_COST = 0.01
VALUE_COST = 0.5


class Net:
    """Observation -> ReLU hidden layer -> (action logits, value), with Adam state."""

    def __init__(self, n_in: int, n_hidden: int, n_actions: int, rng: np.random.Generator):
        def init(fan_in: int, shape: tuple[int, ...]) -> np.ndarray:
            return (rng.standard_normal(shape) / math.sqrt(fan_in)).astype(np.float32)

        self.params = {
            "w1": init(n_in, (n_in, n_hidden)),
            "b1": np.zeros(n_hidden, np.float32),
            # Small policy weights start the policy near uniform over the legal ids.
            "w2": init(n_hidden, (n_hidden, n_actions)) * np.float32(0.01),
            "b2": np.zeros(n_actions, np.float32),
            "wv": init(n_hidden, (n_hidden,)) * np.float32(0.01),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hidden, logits, value) for a batch of observations."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        return h, h @ p["w2"] + p["b2"], h @ p["wv"] + p["bv"]

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        """Action ids: sampled from the masked softmax (Gumbel-max) or, without
        ``rng``, the greedy legal id."""
        logits = self.forward(x)[1]
        if rng is not None:
            # The tiny offset keeps log away from 0, which the uniform draw can return.
            uniform = rng.random(logits.shape, dtype=np.float32) + np.float32(1e-30)
            logits = logits - np.log(-np.log(uniform))
        return np.where(mask, logits, -np.inf).argmax(axis=1)

    def update(
        self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray, returns: np.ndarray, lr: float
    ) -> dict[str, float]:
        """One Adam step on the actor-critic loss; returns its parts."""
        p, n = self.params, len(x)
        h, logits, value = self.forward(x)
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        total = prob.sum(axis=1, keepdims=True)
        prob /= total
        logp = np.where(mask, logits - np.log(total), 0.0)
        rows = np.arange(n)
        advantage = returns - value
        entropy = -(prob * logp).sum(axis=1)
        # d/dlogits of -A log p(a) - c H, with the advantage held fixed (the baseline).
        d_logits = advantage[:, None] * prob
        d_logits[rows, actions] -= advantage
        d_logits += ENTROPY_COST * prob * (logp + entropy[:, None])
        d_logits /= n
        d_value = VALUE_COST * (value - returns) / n
        d_h = (d_logits @ p["w2"].T + np.outer(d_value, p["wv"])) * (h > 0)
        grads = {
            "w1": x.T @ d_h,
            "b1": d_h.sum(axis=0),
            "w2": h.T @ d_logits,
            "b2": d_logits.sum(axis=0),
            "wv": h.T @ d_value,
            "bv": d_value.sum(keepdims=True),
        }
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            p[k] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return {
            "policy_loss": float(-(advantage * logp[rows, actions]).mean()),
            "value_loss": float(0.5 * ((value - returns) ** 2).mean()),
            "entropy": float(entropy.mean()),
        }


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row (any id for a finished slot)."""
    return (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)


def play_deals(
    env: VectorEnv, net: Net | None, rng: np.random.Generator, sample: bool, seed: int | None
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]]:
    """Play the next deal in every slot (``env.reset(seed)``; the learner at
    ``SEAT`` is ``net``, or random without one) and return seat 0's returns and its
    decisions as (slot, observation, mask, action) blocks."""
    batch = env.reset(seed)
    returns = np.zeros(env.num_envs, np.float32)
    finished = np.zeros(env.num_envs, bool)
    decisions = []
    while not finished.all():
        actions = random_actions(batch.masks, rng)
        learner = np.flatnonzero((batch.players == SEAT) & ~finished) if net else []
        if len(learner):
            x, mask = batch.observations[learner], batch.masks[learner]
            actions[learner] = net.act(x, mask, rng if sample else None)
            decisions.append((learner, x, mask, actions[learner]))
        batch = env.step(actions.astype(np.int64))
        # A slot that ends early auto-resets and plays on; only its first deal counts.
        ended = batch.done & ~finished
        returns[ended] = batch.rewards[ended, SEAT]
        finished |= ended
    return returns, decisions


@dataclass
class Point:
    """One evaluation: training episodes so far and both seats' mean returns."""

    episodes: int
    learner: float
    random: float


def write_png(path: str, points: Sequence[Point], width: int = 640, height: int = 360) -> None:
    """Draw the learning curve (learner blue, random seat red) into an RGB PNG."""
    img = np.full((height, width, 3), 255, np.uint8)
    left, right, top, bottom = 56, width - 20, 12, height - 30
    ys = [p.learner for p in points] + [p.random for p in points]
    lo, hi = math.floor(min(ys) * 2 - 1) / 2, math.ceil(max(ys) * 2 + 1) / 2
    x_max = max(points[-1].episodes, 1)

    def px(ep: float) -> float:
        return left + (right - left) * ep / x_max

    def py(y: float) -> float:
        return bottom - (bottom - top) * (y - lo) / (hi - lo)

    def line(x0: float, y0: float, x1: float, y1: float, color: tuple[int, int, int]) -> None:
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        xs = np.rint(np.linspace(x0, x1, n + 1)).astype(int)
        yy = np.rint(np.linspace(y0, y1, n + 1)).astype(int)
        for dy in (0, 1):  # two pixels thick
            img[np.clip(yy + dy, 0, height - 1), np.clip(xs, 0, width - 1)] = color

    for i in range(round((hi - lo) * 2) + 1):
        y = lo + i / 2
        line(left, py(y), right, py(y), (225, 225, 225) if y else (150, 150, 150))
        text(img, f"{y:g}", left - 6, round(py(y)) - 5, align_right=True)
    for i in range(11):
        ep = x_max * i / 10
        line(px(ep), bottom, px(ep), bottom + 4, (0, 0, 0))
        label = f"{ep / 1000:.0f}k" if x_max >= 10_000 else f"{ep:.0f}"
        text(img, label, round(px(ep)), bottom + 8, center=True)
    line(left, top, left, bottom, (0, 0, 0))
    line(left, bottom, right, bottom, (0, 0, 0))
    for attr, color in (("random", (220, 40, 40)), ("learner", (30, 80, 220))):
        pts = [(px(p.episodes), py(getattr(p, attr))) for p in points]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            line(x0, y0, x1, y1, color)
        for x0, y0 in pts:
            img[round(y0) - 2 : round(y0) + 3, round(x0) - 2 : round(x0) + 3] = color
    raw = b"".join(b"\x00" + row.tobytes() for row in img)  # filter type 0 per row

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# A 3x5 pixel font for tick labels, one 3-bit row each, top row first.
FONT = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 1, 1),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7), "-": (0, 0, 7, 0, 0), ".": (0, 0, 0, 0, 2),
    "k": (4, 5, 6, 5, 5),
}  # fmt: skip


def text(
    img: np.ndarray, s: str, x: int, y: int, *, align_right: bool = False, center: bool = False
) -> None:
    """Stamp ``s`` in black 3x5 glyphs drawn at twice their size, top at ``y``."""
    w = 8 * len(s) - 2
    x -= w if align_right else w // 2 if center else 0
    for i, ch in enumerate(s):
        for r, bits in enumerate(FONT[ch]):
            for c in range(3):
                if bits >> (2 - c) & 1:
                    img[y + 2 * r : y + 2 * r + 2, x + 8 * i + 2 * c : x + 8 * i + 2 * c + 2] = 0


def main(argv: Sequence[str] | None = None) -> list[Point]:
    """Train, evaluate, log and draw the curve; returns the evaluation points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=50_000, help="training deals")
    parser.add_argument("--minutes", type=float, help="stop training after this wall time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="curve.png", help="the learning curve PNG")
    parser.add_argument("--envs", type=int, default=256, help="slots: deals per update")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--eval-every", type=int, default=2_500, help="training deals")
    parser.add_argument("--eval-episodes", type=int, default=2048)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    env = VectorEnv("hearts", args.envs, seed=args.seed, threads=args.threads)
    eval_seed = args.seed + EVAL_SEED_OFFSET
    eval_env = VectorEnv("hearts", args.eval_episodes, seed=eval_seed, threads=args.threads)
    obs_size = env.game.observation_shape[0]
    net = Net(obs_size, args.hidden, env.game.num_actions, rng)

    def evaluate(player: Net | None) -> float:
        # The same deals and opponent draws every time, so points differ by the learner only.
        rng = np.random.default_rng(eval_seed)
        return float(play_deals(eval_env, player, rng, False, eval_seed)[0].mean())

    def log_point(episodes: int, extra: str = "") -> None:
        points.append(Point(episodes, evaluate(net), baseline))
        print(
            f"eval episodes={episodes} learner={points[-1].learner:.3f} random={baseline:.3f}"
            + extra,
            flush=True,
        )

    baseline = evaluate(None)
    points: list[Point] = []
    log_point(0)
    episodes = 0
    while episodes < args.episodes:
        if args.minutes is not None and time.perf_counter() - start > 60 * args.minutes:
            break
        returns, decisions = play_deals(env, net, rng, True, None)
        slots, x, mask, actions = (np.concatenate(parts) for parts in zip(*decisions, strict=True))
        stats = net.update(x, mask, actions, returns[slots] / REWARD_SCALE, args.lr)
        episodes += args.envs
        if episodes % args.eval_every < args.envs or episodes >= args.episodes:
            losses = "".join(f" {k}={v:.4f}" for k, v in stats.items())
            log_point(episodes, f"{losses} time={time.perf_counter() - start:.1f}s")
    if points[-1].episodes != episodes:  # stopped by --minutes between evaluations
        log_point(episodes)
    write_png(args.out, points)
    print(
        f"final episodes={episodes} learner={points[-1].learner:.3f} random={baseline:.3f} "
        f"time={time.perf_counter() - start:.1f}s out={args.out}",
        flush=True,
    )
    return points


if __name__ == "__main__":
    main(sys.argv[1:])
