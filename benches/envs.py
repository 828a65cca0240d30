"""AEC environment steps per second: cardkit's PettingZoo environments against
PettingZoo's own Hold'em and RLCard's Hold'em and Dou Dizhu environments.

Every step is what a learner's loop does: read the acting seat's observation (its
tensor and legal-action mask; RLCard's encoded state and legal actions), pick a
uniformly random legal action (from the mask's nonzero ids for both AEC libraries,
from RLCard's list of legal ids), step. Dou Dizhu has a second row, the ids loop:
cardkit draws from ``info["legal_actions"]`` (its legal ids, as RLCard draws from
its own list; the way docs/learning.md shows to sample a random legal action)
instead of scanning the 24,643-id mask, whose observation and mask it still
receives from ``last()`` every step; RLCard's row is the same measurement in
both. Episodes restart as they end; only actions are counted (not PettingZoo's
``step(None)`` for finished agents).

- Hold'em: heads-up no-limit, one hand per episode, 50 big blinds deep as in both
  peers: cardkit ``env("holdem", players=2, match=False)`` (stacks 1000, blinds
  10/20), PettingZoo ``texas_holdem_no_limit_v6`` and RLCard ``no-limit-holdem``
  (100 chips, blinds 1/2).
- Dou Dizhu: cardkit ``env("doudizhu")`` (bidding included) against RLCard
  ``doudizhu`` (the landlord is chosen by RLCard without a bidding round).
- The loop's own work (the mask's nonzero ids and the draw, over recorded Dou Dizhu
  masks, with no env; or the draw alone from recorded ids for the ids loop): every
  AEC row includes it, so it bounds the ratios from below.
- Every other registered game, cardkit alone (no peer has it): at its default
  options (a match for the match games, played in Python), and one deal
  (``match=False``, played by the engine episode) where the game has both.

The libraries take turns for a few rounds on a shared machine and each keeps its
best round. Prints µs per step and the peer's time over cardkit's (above 1:
cardkit is faster). Peers: ``pip install '.[bench]'`` (RLCard, and pygame-ce,
which PettingZoo's classic games import).

    python benches/envs.py [steps] [rounds]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from _timing import table
from cardkit import games
from cardkit.envs import pettingzoo as cardkit_pz


def aec_steps(env: Any, steps: int, seed: int, ids: bool = False) -> float:
    """Seconds per action of random legal ids through a PettingZoo AEC env, drawn
    from the mask, or with ``ids`` from the acting agent's ``info["legal_actions"]``
    (cardkit's envs give them, as RLCard gives its legal ids)."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        # nonzero is ~20x faster on bools than on int8 (24,643 ids for Dou Dizhu),
        # and the method skips flatnonzero's Python wrapper (about 1 µs a call).
        mask = obs["action_mask"]
        legal = info["legal_actions"] if ids else mask.view(np.bool_).nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        done += 1
    return (time.perf_counter() - start) / done


def rlcard_steps(name: str, steps: int, seed: int) -> float:
    """Seconds per action of random legal actions through an RLCard env."""
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)
    state, _ = env.reset()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if env.is_over():
            state, _ = env.reset()
            continue
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.randrange(len(legal))])
        done += 1
    return (time.perf_counter() - start) / done


def harness_steps(masks: list[np.ndarray], steps: int, seed: int) -> float:
    """Seconds per step of :func:`aec_steps`'s own work alone (the mask's nonzero ids
    and the random draw) over recorded masks, with no env: the floor under any AEC
    env's row in this loop."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for mask in masks:
            legal = mask.view(np.bool_).nonzero()[0]
            int(legal[rng.randrange(len(legal))])
        done += len(masks)
    return (time.perf_counter() - start) / done


def id_harness_steps(ids: list[np.ndarray], steps: int, seed: int) -> float:
    """Seconds per step of :func:`aec_steps`' own work with ``ids`` alone (the draw from the
    legal ids) over recorded ids, with no env."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for legal in ids:
            int(legal[rng.randrange(len(legal))])
        done += len(ids)
    return (time.perf_counter() - start) / done


def recorded_masks(name: str, count: int) -> list[np.ndarray]:
    """The action masks :func:`aec_steps` draws from in ``count`` steps of
    cardkit's ``name`` env (not the empty ones of finished agents)."""
    env = cardkit_pz.env(name)
    masks: list[np.ndarray] = []
    last = env.last

    def recording_last() -> Any:
        out = last()
        masks.append(out[0]["action_mask"])
        return out

    env.last = recording_last
    aec_steps(env, count, 0)
    return [mask for mask in masks if mask.any()]


def pettingzoo_holdem() -> Any:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    return texas_holdem_no_limit_v6.env()


Runner = Callable[[int, int], float]


def SAME_AS_ABOVE(steps: int, seed: int) -> float:
    """A marker runner: the row shows its library's figure from the mask-loop task."""
    raise AssertionError("never run: main() copies the figure")


#: The row of the loop's own cost (see :func:`harness_steps`).
HARNESS = "bench loop alone (no env)"


def cardkit_rows() -> list[tuple[str, str, Runner]]:
    """A row per registered game but Dou Dizhu (compared above): its defaults, and
    a single deal where its defaults are a match (Hold'em's default table is four
    seats, not the heads-up one of the peers)."""
    rows: list[tuple[str, str, Runner]] = []
    for name in games.available():
        variants: list[tuple[str, dict[str, Any]]] = [("", {})]
        if "match" in games.make(name).options:
            variants = [(", match", {}), (", one deal", {"match": False})]
        for label, options in variants:
            if name == "doudizhu":
                continue  # the row with a peer
            rows.append(
                (
                    f"{name}{label}, AEC step",
                    "cardkit",
                    lambda n, s, name=name, options=options: aec_steps(
                        cardkit_pz.env(name, **options), n, s
                    ),
                )
            )
    return rows


def contenders() -> list[tuple[str, str, Runner]]:
    """(task, library, runner) for cardkit and for every peer that imports."""
    holdem = "Hold'em heads-up, AEC step"
    doudizhu = "Dou Dizhu, AEC step"
    doudizhu_ids = "Dou Dizhu, AEC step, ids loop"
    rows: list[tuple[str, str, Runner]] = [
        (
            holdem,
            "cardkit",
            lambda n, s: aec_steps(cardkit_pz.env("holdem", players=2, match=False), n, s),
        ),
        (doudizhu, "cardkit", lambda n, s: aec_steps(cardkit_pz.env("doudizhu"), n, s)),
        # Not a library: the loop's own mask scan and draw, which every row pays.
        (
            doudizhu,
            HARNESS,
            lambda n, s: harness_steps(recorded_masks("doudizhu", 64), n, s),
        ),
        (
            doudizhu_ids,
            "cardkit",
            lambda n, s: aec_steps(cardkit_pz.env("doudizhu"), n, s, ids=True),
        ),
        (
            doudizhu_ids,
            HARNESS,
            lambda n, s: id_harness_steps(
                [np.flatnonzero(m) for m in recorded_masks("doudizhu", 64)], n, s
            ),
        ),
    ]
    try:
        pettingzoo_holdem()
        rows.append(
            (
                holdem,
                "PettingZoo texas_holdem_no_limit_v6",
                lambda n, s: aec_steps(pettingzoo_holdem(), n, s),
            )
        )
    except ImportError as exc:
        print(f"PettingZoo's Hold'em skipped: {exc}")
    try:
        import rlcard  # noqa: F401

        rows.append(
            (holdem, "RLCard no-limit-holdem", lambda n, s: rlcard_steps("no-limit-holdem", n, s))
        )
        rows.append((doudizhu, "RLCard doudizhu", lambda n, s: rlcard_steps("doudizhu", n, s)))
        # Already a loop over legal ids: the ids loop's row shows the same figure.
        rows.append((doudizhu_ids, "RLCard doudizhu", SAME_AS_ABOVE))
    except ImportError as exc:
        print(f"RLCard skipped: {exc}")
    return rows + cardkit_rows()


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    runners = contenders()
    peers = {task for task, lib, _ in runners if lib not in ("cardkit", HARNESS)}
    best = {(task, lib): float("inf") for task, lib, _ in runners}
    for r in range(rounds):
        for task, lib, run in runners:
            if run is SAME_AS_ABOVE:
                continue
            # RLCard's Dou Dizhu is ~100x slower per step, and the games without
            # peers only report their own rate: fewer steps keep the round short
            # without changing the per-step time.
            n = steps // 20 if lib == "RLCard doudizhu" else steps
            if lib == "cardkit" and task not in peers:
                n = steps // 4
            best[task, lib] = min(best[task, lib], run(n, r))
    same = {lib: best[task, lib] for task, lib, run in runners if run is not SAME_AS_ABOVE}
    rows = [
        (task, lib, same[lib] if run is SAME_AS_ABOVE else best[task, lib])
        for task, lib, run in runners
    ]
    print(table(f"AEC steps, best of {rounds} rounds of {steps} steps", rows))


if __name__ == "__main__":
    main()
