"""Agent strength for Dou Dizhu and Zheng Shangyou: search > rule > random.

Each matchup plays every seeded deal three times, the stronger agent in one seat and
the weaker in the other two, rotating the seat, and once more with the weaker agent in
every seat (the baseline). The gap is the stronger agent's return minus the baseline
return of the same seat on the same deal (paired, so seat and deal luck cancel),
averaged with a 95% confidence interval; "gap>0" when the interval excludes zero. For
Dou Dizhu the gap is also split by the stronger agent's role in its game: landlord, or
farmer (partnered with a weaker agent).

Run: python benches/climbing_agents.py [--deals N] [--samples S]  (issue target: N=10000)
     [--endgame CARDS] [--halving] [--only-endgame]: the search with the endgame
     solver, or by successive halving (halving=True), vs the plain search
     [--evidence]: the search dealing the unseen cards to fit the passes so far
     (evidence=True, Zheng Shangyou's default) vs the same search dealing them
     uniformly (evidence=False, the search before and Dou Dizhu's default), with
     both agents' time per searched move on the same positions
     [--best]: each game's strongest search vs the plain search, with both
     agents' time per searched move on the same positions: Dou Dizhu's
     halving=True, evidence="landlord", shedding=True; Zheng Shangyou's
     shedding=True (the shedding playout policy), halving=True; both at
     --best-samples samples
     [--first-deal D]: play deals D .. D+N-1 (fresh seeds for a confirmation)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import cardkit
from cardkit.agents import RandomAgent
from cardkit.agents.doudizhu import DouDizhuRuleAgent, DouDizhuSearchAgent
from cardkit.agents.zhengshangyou import ZhengShangyouRuleAgent, ZhengShangyouSearchAgent
from cardkit.api import Agent
from cardkit.sim import mean_ci

Factory = Callable[[int], Agent]


def _agents(game: str, samples: int, endgame: int, best_samples: int) -> dict[str, Factory]:
    search = DouDizhuSearchAgent if game == "doudizhu" else ZhengShangyouSearchAgent
    rule = DouDizhuRuleAgent if game == "doudizhu" else ZhengShangyouRuleAgent
    return {
        "random": lambda s: RandomAgent(s),
        "rule": lambda s: rule(),
        "search": lambda s: search(s, samples),
        # the search dealing the unseen cards to fit the passes so far, or uniformly
        "evidence": lambda s: search(s, samples, evidence=True),
        "uniform": lambda s: search(s, samples, evidence=False),
        # the same search, solving sampled deals exactly from `endgame` cards left
        "endgame": lambda s: search(s, samples, endgame=endgame),
        # the same playouts, spent by successive halving of the candidate moves
        "halving": lambda s: search(s, samples, halving=True),
        # each game's strongest search: shedding playouts and halving, and for Dou
        # Dizhu fitting the passes only as the landlord
        "best": (
            (
                lambda s: DouDizhuSearchAgent(
                    s, best_samples, halving=True, evidence="landlord", shedding=True
                )
            )
            if game == "doudizhu"
            else (lambda s: ZhengShangyouSearchAgent(s, best_samples, halving=True, shedding=True))
        ),
    }


def matchup(
    game_name: str, strong: Factory, weak: Factory, deals: int, first: int = 0
) -> dict[str, list[float]]:
    game = cardkit.games.make(game_name)
    out: dict[str, list[float]] = {"all": [], "landlord": [], "farmer": []}
    for seed in range(first, first + deals):
        baseline = cardkit.play(game, [weak(seed * 3 + s) for s in range(3)], seed=seed).returns()
        for hero in range(3):
            agents = [strong(seed * 3 + s) if s == hero else weak(seed * 3 + s) for s in range(3)]
            state = cardkit.play(game, agents, seed=seed)
            value = state.returns()[hero] - baseline[hero]
            out["all"].append(value)
            if game_name == "doudizhu":
                landlord = state.score_breakdown()["landlord"]
                out["landlord" if landlord == hero else "farmer"].append(value)
    return out


def time_per_move(
    game_name: str, agents: dict[str, Factory], deals: int, names: tuple[str, str]
) -> dict[str, float]:
    """Microseconds per card-play move of the two ``names`` agents (the second one
    plays the games), both asked on the same positions (its turns with a choice),
    in turn which of them is asked first."""
    game = cardkit.games.make(game_name)
    spent = dict.fromkeys(names, 0.0)
    moves = 0
    for seed in range(deals):
        state = game.new_state(seed=seed)
        players = {name: [agents[name](seed * 3 + s) for s in range(3)] for name in spent}
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs, legal = state.observation(seat), state.legal_actions()
            choice = legal[0]
            if len(legal) > 1 and obs.get("phase", "play") == "play":
                moves += 1
                for name in names if moves % 2 else names[::-1]:
                    start = time.perf_counter()
                    picked = players[name][seat].act(obs, legal)
                    spent[name] += time.perf_counter() - start
                    if name == names[1]:
                        choice = picked
            else:
                choice = players[names[1]][seat].act(obs, legal)
            state.apply(choice)
    return {name: 1e6 * total / max(moves, 1) for name, total in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--games", nargs="*", default=["doudizhu", "zhengshangyou"])
    parser.add_argument(
        "--endgame",
        type=int,
        default=0,
        help="also pit the search with the endgame solver from this many cards left "
        "against the plain search (0: skip)",
    )
    parser.add_argument(
        "--halving",
        action="store_true",
        help="also pit the search by successive halving against the plain search",
    )
    parser.add_argument(
        "--evidence",
        action="store_true",
        help="also pit the search against the same search dealing uniformly",
    )
    parser.add_argument(
        "--best",
        action="store_true",
        help="also pit each game's strongest search against the plain search",
    )
    parser.add_argument(
        "--best-samples",
        type=int,
        default=32,
        help="samples of the --best search (the plain search keeps --samples)",
    )
    parser.add_argument(
        "--only-endgame",
        action="store_true",
        help="run only the --endgame, --halving, --evidence and --best matchups",
    )
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="seed of the first deal (a fresh range confirms a gain tuned on another)",
    )
    args = parser.parse_args()
    print(
        f"deals per matchup: {args.deals} from seed {args.first_deal} (x3 seat rotations); "
        f"search samples {args.samples}"
    )
    print(f"{'game':<14} {'matchup':<20} {'as':<9} {'n':>6} {'gap':>8} {'95% CI':>18} gap>0")
    for name in args.games:
        agents = _agents(name, args.samples, args.endgame, args.best_samples)
        pairs = [] if args.only_endgame else [("rule", "random"), ("search", "rule")]
        if args.endgame:
            pairs.append(("endgame", "search"))
        if args.halving:
            pairs.append(("halving", "search"))
        if args.evidence:
            pairs.append(("evidence", "uniform"))
        if args.best:
            pairs.append(("best", "search"))
        timed = [p for p in pairs if p in (("evidence", "uniform"), ("best", "search"))]
        for strong, weak in timed:
            micros = time_per_move(name, agents, max(1, min(args.deals, 50)), (strong, weak))
            print(
                f"{name:<14} us per searched move (same positions, 50 deals at most): "
                f"{strong} {micros[strong]:.0f}, {weak} {micros[weak]:.0f}"
            )
        for strong, weak in pairs:
            start = time.perf_counter()
            results = matchup(name, agents[strong], agents[weak], args.deals, args.first_deal)
            for role, values in results.items():
                if not values:
                    continue
                mean, half = mean_ci(values)
                ok = "yes" if mean - half > 0 else "no"
                ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
                label = f"{strong} vs {weak}"
                print(
                    f"{name:<14} {label:<20} {role:<9} {len(values):>6} {mean:>+8.2f} {ci:>18} {ok}"
                )
            print(f"{'':<14} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
