"""Random 4-player no-limit Hold'em hands through each library's Python API.

cardkit (``make("holdem", match=False)`` through the common State API), pokerkit
(``NoLimitTexasHoldem.create_state``) and OpenSpiel (``universal_poker`` with the
fold / call / half-pot / pot / all-in abstraction, the closest to cardkit's listed
actions), each picking uniformly among its listed legal actions, 1000/2000 blinds
10/20 stacks 1000. Prints hands per second and cardkit's ratio to each peer.

    python benches/holdem_random.py [hands]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial

from cardkit import games


def cardkit_hands(n: int) -> None:
    game = games.make("holdem", players=4, match=False)
    rng = random.Random(1)
    for seed in range(n):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def pokerkit_hands(n: int) -> None:
    import pokerkit
    from pokerkit import Automation

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(1)
    for _ in range(n):
        state = pokerkit.NoLimitTexasHoldem.create_state(
            automations, True, 0, (10, 20), 20, (1000,) * 4, 4
        )
        while state.status:
            moves: list[Callable[[], object]] = []
            if state.can_fold():
                moves.append(state.fold)
            if state.can_check_or_call():
                moves.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                pot = state.pot_completion_betting_or_raising_to_amount
                for amount in {low, high, pot}:
                    moves.append(partial(state.complete_bet_or_raise_to, amount))
            moves[rng.randrange(len(moves))]()


def openspiel_hands(n: int) -> None:
    import pyspiel

    game = pyspiel.load_game(
        "universal_poker(betting=nolimit,numPlayers=4,numRounds=4,blind=10 20 0 0,"
        "firstPlayer=3 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
        "stack=1000 1000 1000 1000,bettingAbstraction=fchpa)"
    )
    rng = random.Random(1)
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])


def rate(run: Callable[[int], None], n: int) -> float:
    run(max(n // 20, 10))  # warm-up
    start = time.perf_counter()
    run(n)
    return n / (time.perf_counter() - start)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    ours = rate(cardkit_hands, n)
    rows = [("cardkit", ours)]
    for name, run, count in (
        ("pokerkit", pokerkit_hands, max(n // 10, 100)),
        ("openspiel", openspiel_hands, n),
    ):
        try:
            rows.append((name, rate(run, count)))
        except ImportError:
            print(f"{name}: not installed, skipped")
    print(f"{'library':<10} {'hands/s':>10} {'cardkit x':>10}")
    for name, value in rows:
        print(f"{name:<10} {value:>10.0f} {ours / value:>10.2f}")


if __name__ == "__main__":
    main()
