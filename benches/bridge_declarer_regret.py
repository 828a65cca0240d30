"""Bridge declarer play: a quick screen of ways to weigh the sampled deals, at the
decisions main's search agent gets wrong.

Main's declarer (``BridgeSearchAgent`` with its defaults, seeded as in
``benches/bridge_agents.py``) plays each seeded deal's final contract against
double-dummy defenders. Against such a defence the tricks declarer loses are the
sum, over its decisions, of each card's regret: the double-dummy tricks of the
best card in the real deal less those of the card played. At every decision main
loses a trick on, and at a random ``--controls`` share of the others (decisions
settled by equal cards left out), ``--worlds`` deals of the position are drawn
once (the agent's own sampler, a seed of its own) and solved, and each screened
weighing picks a card over those same deals (the most tricks by weight, then the
lowest card): ``uniform`` (every deal alike) and ``weigh_defence=FLOOR`` reading
the last ``T`` tricks (``_defence_likelihoods``) for each ``FLOOR:T`` given. The
report gives each one's regret summed over main's losing decisions and over the
controls, the latter also scaled up by the share to all of main's other
decisions.

It is a screen, not the measure: its decisions are the ones main's play reached,
and they are picked because main got them wrong, so any fresh deals get some of
them right (``uniform`` shows how many). Compare weighings with each other on the
same deals, and confirm a winner with ``benches/bridge_declarer_pair.py`` over
fresh seeds.

Run: python benches/bridge_declarer_regret.py --seed K --deals N [--worlds 64]
[--controls 0.1] [--weigh FLOOR:T ...] --out FILE [--report]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from bridge_agents import _auction
from cardkit._core import dd_solve_many
from cardkit.agents.bridge import (
    INDEX,
    BridgeRuleAgent,
    BridgeSearchAgent,
    _defence_likelihoods,
    _equal_cards,
)
from cardkit.bridge import dd_solve
from cardkit.games import make
from cardkit.games.bridge import STRAINS


def _pick(taken: list[dict[int, int]], weights: list[float]) -> int:
    """The card with the most tricks by weight over the deals, then the lowest."""
    cards = sorted(taken[0])
    total = {c: sum(w * t[c] for w, t in zip(weights, taken, strict=True)) for c in cards}
    return max(cards, key=lambda c: (total[c], -c))


def deal(
    seed: int, worlds: int, controls: float, weighings: list[tuple[float, int]]
) -> list[dict[str, Any]]:
    """One deal's screened decisions, then a row of its tricks lost (``lost``)."""
    state = make("bridge").new_state(seed=seed)
    _auction(state, [BridgeRuleAgent()] * 4)
    contract = state.contract
    if contract is None:
        return [{"seed": seed}]
    declarer, dummy = contract["declarer"], contract["dummy"]
    strain = STRAINS.index(contract["strain"])
    main = BridgeSearchAgent(seed=4 * seed + declarer, threads=1)
    # A sampler seeded apart from main's, so its deals are not the ones main misread.
    sampler = BridgeSearchAgent(seed=4 * seed + declarer + 1_000_003, samples=worlds, threads=1)
    chance = random.Random(seed)
    rows: list[dict[str, Any]] = []
    lost = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        solved = {c.index: t for c, t in dd_solve(state).items()}
        best = max(solved.values())
        if seat not in (declarer, dummy):
            card = min(c for c, t in solved.items() if t == best)
            state.apply(next(a for a in legal if INDEX[a.text[5:]] == card))
            continue
        obs = state.observation(seat)
        action = main.act(obs, legal)
        regret = best - solved[INDEX[action.text[5:]]]
        lost += regret
        screened = len(legal) > 1 and _equal_cards(obs, legal) is None
        if screened and (regret > 0 or chance.random() < controls):
            hands, _ = sampler._worlds(obs)
            trick = [INDEX[c] for c in obs["trick"]]
            plays = dd_solve_many(
                hands, [strain] * len(hands), [obs["leader"]] * len(hands), [trick] * len(hands), 1
            )
            taken = [dict(p) for p in plays]
            row: dict[str, Any] = {"seed": seed, "trick": len(obs["tricks"]), "main": regret}
            row["uniform"] = best - solved[_pick(taken, [1.0] * len(hands))]
            for floor, tricks in weighings:
                weights = _defence_likelihoods(obs, hands, strain, 1, floor, tricks)
                row[f"{floor}:{tricks}"] = best - solved[_pick(taken, weights)]
            rows.append(row)
        state.apply(action)
    rows.append({"seed": seed, "lost": lost})
    return rows


def report(rows: list[dict[str, Any]], controls: float) -> str:
    """Each weighing's regret on main's losing decisions and on the controls."""
    decisions = [r for r in rows if "main" in r]
    deals = [r for r in rows if "lost" in r]
    losing = [r for r in decisions if r["main"] > 0]
    checked = [r for r in decisions if r["main"] == 0]
    lines = [
        f"{len(deals)} deals with a contract, {sum(r['lost'] for r in deals)} tricks lost by main; "
        f"{len(losing)} losing decisions, {len(checked)} controls (share {controls})"
    ]
    names = [k for k in (decisions[0] if decisions else {}) if k not in ("seed", "trick")]
    for name in names:
        on_losing = sum(r[name] for r in losing)
        on_checked = sum(r[name] for r in checked)
        lines.append(
            f"{name:>10}: {on_losing} on the losing decisions, {on_checked} on the controls "
            f"(about {on_checked / controls:.0f} over all of main's others)"
        )
    return "\n".join(lines)


def _weighing(text: str) -> tuple[float, int]:
    floor, tricks = text.split(":")
    return float(floor), int(tricks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=90_000)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=64, help="deals drawn a screened decision")
    parser.add_argument("--controls", type=float, default=0.1, help="share of the other decisions")
    parser.add_argument(
        "--weigh", type=_weighing, nargs="*", default=[(0.3, 1), (0.3, 2), (0.3, 13), (0.1, 13)]
    )
    parser.add_argument("--out", type=Path, default=Path("bridge_declarer_regret.jsonl"))
    parser.add_argument("--report", action="store_true", help="only print the file's table")
    args = parser.parse_args()
    rows = (
        [json.loads(line) for line in args.out.read_text().splitlines()]
        if args.out.exists()
        else []
    )
    # A deal's rows are written together, ending with its tricks lost (or alone,
    # without a contract), so every seed with a row not of a decision is done.
    done = {r["seed"] for r in rows if "main" not in r}
    if not args.report:
        with args.out.open("a") as out:
            for seed in range(args.seed, args.seed + args.deals):
                if seed in done:
                    continue
                for row in deal(seed, args.worlds, args.controls, args.weigh):
                    out.write(json.dumps(row) + "\n")
                    rows.append(row)
                out.flush()
    print(report(rows, args.controls))


if __name__ == "__main__":
    main()
