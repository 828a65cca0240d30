"""Bridge agents against double dummy: seeded deals, four agents of one kind (the
natural system bids for both), measuring

- **declarer's tricks lost**: the double-dummy tricks of the final contract at the
  start of the play minus the tricks declarer took, averaged over the deals played
  (positive: declarer's play, or the defence's, gave tricks away);
- **IMPs against par**: North-South's score against the deal's par score (DDS
  dealer-aware par, South dealing), in IMPs, averaged over all deals (passed-out
  deals score 0 against their par).

Run: python benches/bridge_agents.py [--deals N] [--samples S] [--seed K]
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

from cardkit.agents.bridge import BridgeRuleAgent, BridgeSearchAgent
from cardkit.api import Agent
from cardkit.bridge import dd_table, par
from cardkit.games import make
from cardkit.games.bridge import STRAINS

#: The upper ends of the IMP scale's score differences (0-10 is 0 IMPs, ... 4000+ 24).
_IMP_STEPS = [
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290,
    1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
]  # fmt: skip


def imps(difference: int) -> int:
    """The IMPs of a score difference (signed)."""
    size = abs(difference)
    won = next((k for k, top in enumerate(_IMP_STEPS) if size <= top), len(_IMP_STEPS))
    return won if difference >= 0 else -won


def run(name: str, make_agent: Callable[[int, int], Agent], deals: int, seed: int) -> None:
    game = make("bridge")
    lost: list[int] = []
    imp: list[int] = []
    start = time.perf_counter()
    for d in range(deals):
        state = game.new_state(seed=seed + d)
        hands = [state.private_cards(s) for s in range(4)]
        table = dd_table(hands)
        agents = [make_agent(d, s) for s in range(4)]
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
        contract = state.contract
        if contract is not None:
            strain = STRAINS.index(contract["strain"])
            lost.append(table.tricks(contract["declarer"], strain) - state.declarer_tricks())
        imp.append(imps(state.side_scores()[0] - par(table, "none", "S").score))
    seconds = time.perf_counter() - start

    def mean_ci(values: list[int]) -> str:
        m = sum(values) / len(values)
        var = sum((v - m) ** 2 for v in values) / max(1, len(values) - 1)
        return f"{m:+.3f} ± {1.96 * math.sqrt(var / len(values)):.3f}"

    row = [
        name,
        str(deals),
        str(len(lost)),
        mean_ci(lost),
        mean_ci(imp),
        f"{seconds / deals:.2f} s",
    ]
    print("| " + " | ".join(row) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    head = ["agents (all four seats)", "deals", "played", "declarer tricks lost vs DD"]
    print("| " + " | ".join([*head, "IMPs vs par", "per deal"]) + " |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    run("rule", lambda d, s: BridgeRuleAgent(), args.deals, args.seed)
    run(
        f"search (samples={args.samples})",
        lambda d, s: BridgeSearchAgent(seed=4 * d + s, samples=args.samples),
        args.deals,
        args.seed,
    )


if __name__ == "__main__":
    main()
