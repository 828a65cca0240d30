"""Dou Dizhu speed, side by side in one process: move generation (cardkit vs DouZero
and RLCard), random full games through Python APIs (cardkit vs OpenSpiel and RLCard),
and cardkit's Rust playouts for AI search. Prints each rate and cardkit's ratio.

Run: python benches/doudizhu_speed.py [--hands N] [--games N] [--rounds R]
(peers: pip install douzero rlcard open-spiel; missing peers are reported and skipped).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import cardkit
from _timing import openspiel_random_deals
from cardkit._core import (  # the _bench_ bindings are unstable, for benches only
    _bench,  # unstable helpers, for benches and tests only
    climbing_leads,
)
from cardkit.games.doudizhu import legal_action_ids_batch, legal_plays_batch

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
DZ = {**{str(i): i for i in range(3, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13}
DZ.update({"A": 14, "2": 17, "B": 20, "R": 30})


def rate(fn: Callable[[], int], min_seconds: float = 1.0) -> float:
    """Items per second of ``fn`` (which returns how many items it did)."""
    done, start = 0, time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return done / elapsed


def row(name: str, value: float | None, base: float | None, unit: str) -> None:
    if value is None:
        print(f"  {name:<58} {'not installed':>14}")
        return
    ratio = f"{value / base:10.1f}x" if base else ""
    print(f"  {name:<58} {value:>14,.0f} {unit}  {ratio}")


def best_rates(runners: dict[str, Callable[[], int]], rounds: int) -> dict[str, float]:
    """Each runner's best rate over ``rounds`` interleaved timed runs. The machine is
    shared, so its load drifts during a bench: interleaving puts every library under the
    same drift and the best run is the one least disturbed by it."""
    best = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for name, run in runners.items():
            start = time.perf_counter()
            done = run()
            best[name] = max(best[name], done / (time.perf_counter() - start))
    return best


def movegen(hands: int, rounds: int) -> None:
    rng = random.Random(1)
    sample = ["".join(rng.sample(DECK, 20)) for _ in range(hands)]
    print(
        f"All leads of a random 20-card hand ({hands} hands), hands/s, best of {rounds}; "
        "ratio = cardkit / peer"
    )
    runners: dict[str, Callable[[], int]] = {
        "obj": lambda: sum(1 for h in sample if climbing_leads("doudizhu", h)),
        "txt": lambda: sum(1 for h in sample if _bench.climbing_play_texts("doudizhu", h, None)),
        "ids": lambda: len(legal_action_ids_batch(sample, threads=1)),
        "keys": lambda: len(legal_plays_batch(sample, threads=1)[1]) // 8 - 1,
        "keys_all": lambda: len(legal_plays_batch(sample)[1]) // 8 - 1,
    }
    douzero: float | None = None
    rlcard: float | None = None
    try:
        from douzero.env.move_generator import MovesGener

        dz_hands = [[DZ[c] for c in h] for h in sample]
        runners["douzero"] = lambda: sum(1 for h in dz_hands if MovesGener(h).gen_moves())
    except ImportError:
        pass
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger

        rl_hands = sample[: max(1, hands // 10)]
        runners["rlcard"] = lambda: sum(
            1 for h in rl_hands if DoudizhuJudger.playable_cards_from_hand(h)
        )
    except ImportError:
        pass
    rates = best_rates(runners, rounds)
    ours = [rates[k] for k in ("obj", "txt", "ids", "keys", "keys_all")]
    douzero, rlcard = rates.get("douzero"), rates.get("rlcard")
    row("douzero MovesGener.gen_moves", douzero, None, "/s")
    row("rlcard playable_cards_from_hand", rlcard, None, "/s")
    names = (
        "cardkit leads -> Combination objects",
        "cardkit leads -> rank texts",
        "cardkit batch leads -> action-id bytes (1 thread)",
        "cardkit batch leads -> one rank-key buffer (1 thread)",
        f"cardkit batch leads -> one rank-key buffer ({os.cpu_count()} threads)",
    )
    for name, value in zip(names, ours, strict=True):
        row(name, value, None, "/s")
        if douzero:
            print(f"      vs douzero {value / douzero:8.1f}x")
        if rlcard:
            print(f"      vs rlcard  {value / rlcard:8.1f}x")


def cardkit_games(n: int) -> int:
    game = cardkit.games.make("doudizhu")
    rng = random.Random(n)
    for seed in range(n):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
    return n


def openspiel_games(n: int) -> int:
    openspiel_random_deals("dou_dizhu", n)
    return n


def rlcard_runner() -> Callable[[int], int]:
    """RLCard's environment, built once (building it loads its action tables)."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])

    def run(n: int) -> int:
        for _ in range(n):
            env.run(is_training=False)
        return n

    return run


def games(count: int, rounds: int) -> None:
    print(f"Random full games through each library's Python API, games/s (best of {rounds})")
    runners: dict[str, Callable[[], int]] = {"cardkit": lambda: cardkit_games(count)}
    try:
        import pyspiel  # noqa: F401

        runners["OpenSpiel dou_dizhu"] = lambda: openspiel_games(count)
    except ImportError:
        pass
    try:
        run = rlcard_runner()
        runners["RLCard doudizhu env"] = lambda: run(max(1, count // 20))
    except ImportError:
        pass
    rates = best_rates(runners, rounds)
    ours = rates.pop("cardkit")
    row("cardkit State API (bidding included)", ours, None, "/s")
    peers: dict[str, float | None] = {
        name: rates.get(name) for name in ("OpenSpiel dou_dizhu", "RLCard doudizhu env")
    }
    for name, value in peers.items():
        row(name, value, None, "/s")
        if value:
            print(f"      cardkit vs {name}: {ours / value:.2f}x")
    print("Rust playouts (card play from a random landlord at bid 1), games/s per thread")
    for policy in ("random", "rule"):
        value = rate(lambda p=policy: sum(_bench.climbing_random_playouts("doudizhu", 2000, 7, p)))
        row(f"cardkit Rust playout, {policy} policy", value, None, "/s")
        if peers.get("OpenSpiel dou_dizhu"):
            print(f"      vs OpenSpiel Python-driven: {value / peers['OpenSpiel dou_dizhu']:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timed runs per library")
    args = parser.parse_args()
    movegen(args.hands, args.rounds)
    games(args.games, args.rounds)


if __name__ == "__main__":
    main()
