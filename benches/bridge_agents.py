"""Bridge agents against double dummy, over seeded deals (none vulnerable, South
dealing). Each deal is bid once by the natural system (both agents bid it), then:

- **declarer play against perfect defence**: declarer and dummy played by
  ``BridgeSearchAgent``, each defender playing a double-dummy-optimal card
  (``dd_solve`` of the position; of the cards that keep the most tricks for the
  defence, the lowest); measured as the double-dummy tricks of the final contract
  at the start of the play minus the tricks declarer took (0 is perfect; it can
  not go below 0, as the defence is perfect);
- **IMPs against par** of North-South's score (DDS dealer-aware par, South
  dealing), per board, all deals (a passed-out deal scores 0 against its par),
  signed and in size (the same agent on both sides makes the signed mean tend to
  cancel):
  the search agent at all four seats; the rule agent at all four seats; and the
  floor, a ``RandomAgent`` auction whose contract is scored at its double-dummy
  result (random bidding, perfect play).

Each deal's results go to one JSON line of ``--out`` as soon as it is done; a run
that stops (Ctrl-C, the machine) resumes where it left off with the same command,
and ``--report`` prints the table of the file's deals without playing any.
``--against OTHER`` adds the paired comparison with another setting's file: the
mean difference of the tricks lost over the deals both have played (the same
seeds give the same auction and contract, so the difference is the card play's).
``--declarer-only`` plays only the declarer measure (about half the time; the
search agent's IMPs are then left out); ``--objective`` and ``--threads`` are the
search agent's (``BridgeSearchAgent``), and so are ``--max-samples`` (the most
deals a close decision may draw; equal to ``--samples``: one draw only) and
``--read-defence`` (``read_defence=True``: declarer keeps only the deals in which
the defenders' cards of the trick in progress were double-dummy best),
``--weigh-defence FLOOR`` (``weigh_defence``: each deal weighed by how likely a
double-dummy defence was to play those cards in it, ``FLOOR`` for a card that
was not a best one), ``--ties most_best`` (exact ties go to the card best in
the most deals), ``--rival distinct`` (``rival="distinct"``: a close
decision's best card must clearly lead the best card that is not its equal) and
``--read-tricks T`` (``read_tricks``: with a defence reading, the last ``T``
tricks' cards are read, 13 the whole play).
Each deal's row also counts the search declarer's decisions, the deals it solved and
the decisions whose deals had to drop the auction's point ranges or shapes (the
sampler's relaxation, ``BridgeSearchAgent.stats``) and the deals rejected for not
fitting the defence's cards; the report sums them. Use
one ``--out`` file per setting.

Run: python benches/bridge_agents.py [--deals N] [--samples S] [--seed K]
[--max-samples M] [--objective tricks|score] [--threads T] [--declarer-only] [--read-defence]
[--weigh-defence FLOOR] [--read-tricks T] [--ties lowest|most_best] [--rival next|distinct]
[--out FILE] [--report] [--against OTHER]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from cardkit.agents import RandomAgent
from cardkit.agents.bridge import BridgeRuleAgent, BridgeSearchAgent
from cardkit.api import Agent
from cardkit.bridge import DdTable, dd_solve, dd_table, par
from cardkit.games import make
from cardkit.games.bridge import STRAINS, BridgeState, score

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


def _play_out(state: BridgeState, agents: list[Agent | None]) -> None:
    """Plays ``state`` to its end; a seat without an agent plays double dummy
    (a card keeping the most tricks for its side, the lowest of them)."""
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        agent = agents[seat]
        if agent is not None:
            state.apply(agent.act(state.observation(seat), legal))
            continue
        solved = dd_solve(state)
        best = max(solved.values())
        card = min((c for c, t in solved.items() if t == best), key=lambda c: c.index)
        state.apply(next(a for a in legal if a.text == f"play {card}"))


def _dd_score(state: BridgeState, table: DdTable) -> int:
    """North-South's score for the final contract of ``state`` played double dummy."""
    contract = state.contract
    if contract is None:
        return 0
    strain = STRAINS.index(contract["strain"])
    tricks = table.tricks(contract["declarer"], strain)
    doubling = {"": 0, "X": 1, "XX": 2}[contract["doubling"]]
    total = score(contract["level"], strain, doubling, False, tricks)["total"]
    return total if contract["declarer"] % 2 == 0 else -total


def _auction(state: BridgeState, agents: list[Agent]) -> None:
    while not state.is_terminal and state.phase == "auction":
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))


def deal(
    seed: int,
    samples: int,
    objective: str = "tricks",
    threads: int | None = None,
    declarer_only: bool = False,
    max_samples: int | None = None,
    read_defence: bool = False,
    weigh_defence: float | None = None,
    ties: str = "lowest",
    rival: str = "next",
    read_tricks: int = 1,
) -> dict[str, Any]:
    """One deal's results (see the module docstring)."""
    settings = _settings(
        samples,
        objective,
        declarer_only,
        max_samples,
        read_defence,
        weigh_defence,
        ties,
        rival,
        read_tricks,
    )
    game = make("bridge")
    state = game.new_state(seed=seed)
    table = dd_table([state.private_cards(s) for s in range(4)], threads=1)
    par_ns = par(table, "none", "S").score
    row: dict[str, Any] = {"seed": seed, "par": par_ns, "settings": settings}

    floor = state.clone()
    _auction(floor, [RandomAgent(seed=4 * seed + s) for s in range(4)])
    row["imps_random"] = imps(_dd_score(floor, table) - par_ns)

    _auction(state, [BridgeRuleAgent()] * 4)
    row["contract"] = state.contract_text()
    rule = state.clone()
    _play_out(rule, [BridgeRuleAgent()] * 4)
    row["imps_rule"] = imps(rule.side_scores()[0] - par_ns)
    search = [
        BridgeSearchAgent(
            seed=4 * seed + s,
            samples=samples,
            threads=threads,
            objective=objective,
            max_samples=max_samples,
            read_defence=read_defence,
            weigh_defence=weigh_defence,
            ties=ties,
            rival=rival,
            read_tricks=read_tricks,
        )
        for s in range(4)
    ]
    if not declarer_only:
        whole = state.clone()
        _play_out(whole, list[Agent | None](search))
        row["imps_search"] = imps(whole.side_scores()[0] - par_ns)

    contract = state.contract
    if contract is not None:
        declarer, dummy = contract["declarer"], contract["dummy"]
        dd = table.tricks(declarer, STRAINS.index(contract["strain"]))
        seats: list[Agent | None] = [None] * 4
        agent = BridgeSearchAgent(
            seed=4 * seed + declarer,
            samples=samples,
            threads=threads,
            objective=objective,
            max_samples=max_samples,
            read_defence=read_defence,
            weigh_defence=weigh_defence,
            ties=ties,
            rival=rival,
            read_tricks=read_tricks,
        )  # a fresh one, so its stats are this play's alone
        seats[declarer] = seats[dummy] = agent
        _play_out(state, seats)
        row["lost"] = dd - state.declarer_tricks()
        row["stats"] = dict(agent.stats)
    return row


def _settings(
    samples: int,
    objective: str,
    declarer_only: bool,
    max_samples: int | None,
    read_defence: bool = False,
    weigh_defence: float | None = None,
    ties: str = "lowest",
    rival: str = "next",
    read_tricks: int = 1,
) -> dict[str, Any]:
    """What a row was played with, kept in the row: a file resumed with other flags
    would otherwise mix two settings under one report. ``read_defence``,
    ``weigh_defence``, ``ties``, ``rival`` and ``read_tricks`` are kept only when not what rows
    written before those options existed played with, so those resume or pair as
    that setting."""
    settings: dict[str, Any] = {
        "samples": samples,
        "max_samples": max_samples,
        "objective": objective,
        "declarer_only": declarer_only,
    }
    if read_defence:
        settings["read_defence"] = True
    if weigh_defence is not None:
        settings["weigh_defence"] = weigh_defence
    if ties != "lowest":
        settings["ties"] = ties
    if rival != "next":
        settings["rival"] = rival
    if read_tricks != 1:
        settings["read_tricks"] = read_tricks
    return settings


def _mean_ci(values: list[int]) -> str:
    """Mean ± the half-width of its 95% confidence interval (normal)."""
    if not values:
        return "-"
    m = sum(values) / len(values)
    var = sum((v - m) ** 2 for v in values) / max(1, len(values) - 1)
    return f"{m:+.3f} ± {1.96 * math.sqrt(var / len(values)):.3f}"


def report(rows: list[dict[str, Any]]) -> str:
    """The markdown table of finished deals, with the settings its rows were played
    with (rows from files written before rows kept them say "not recorded")."""
    lost = [r["lost"] for r in rows if "lost" in r]
    kept = sorted({json.dumps(r.get("settings"), sort_keys=True) for r in rows})
    settings = "; ".join("not recorded" if k == "null" else k for k in kept)
    lines = [
        f"{len(rows)} deals, {len(lost)} played (the rest passed out); settings: {settings}",
        "",
        "| measure | mean ± 95% CI |",
        "| --- | ---: |",
        f"| declarer tricks lost vs DD, search declarer, DD defence | {_mean_ci(lost)} |",
    ]
    # The same agent sits on both sides, so North-South's signed IMPs against par
    # tend to cancel over deals; the size of the difference is the agent's.
    for key, name in [
        ("imps_search", "search agent (all seats)"),
        ("imps_rule", "rule agent (all seats)"),
        ("imps_random", "random auctions, DD play"),
    ]:
        signed = [r[key] for r in rows if key in r]
        lines.append(f"| IMPs vs par, {name} | {_mean_ci(signed)} |")
        lines.append(f"| abs IMPs vs par, {name} | {_mean_ci([abs(v) for v in signed])} |")
    stats = [r["stats"] for r in rows if "stats" in r]
    if stats:
        total = {k: sum(s.get(k, 0) for s in stats) for k in ("rejected", *stats[0])}
        searched = max(1, total["decisions"])
        lines += [
            "",
            f"search declarer: {total['decisions']} decisions searched, "
            f"{total['deals'] / searched:.1f} deals each, {total['equal']} settled as equal "
            f"cards; relaxed: {total['relaxed_points']} dropped the point ranges, "
            f"{total['relaxed_shapes']} the shapes too "
            f"({(total['relaxed_points'] + total['relaxed_shapes']) / searched:.1%}); "
            f"{total['rejected']} deals rejected for not fitting the defence's cards",
        ]
    return "\n".join(lines)


def _read(path: Path) -> dict[int, dict[str, Any]]:
    """The rows of a results file by seed."""
    rows: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["seed"]] = row
    return rows


def paired(rows: dict[int, dict[str, Any]], other: dict[int, dict[str, Any]], name: str) -> str:
    """The mean per-deal difference of the tricks lost, ``rows`` minus ``other``,
    over the deals both played."""
    both = sorted(s for s in rows if "lost" in rows[s] and "lost" in other.get(s, {}))
    diffs = [rows[s]["lost"] - other[s]["lost"] for s in both]
    mine = _mean_ci([rows[s]["lost"] for s in both])
    theirs = _mean_ci([other[s]["lost"] for s in both])
    return (
        f"paired over {len(both)} deals: this file {mine}, {name} {theirs}, "
        f"difference {_mean_ci(diffs)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bridge_agents.jsonl"))
    parser.add_argument("--max-samples", type=int, default=None, help="most deals a decision")
    parser.add_argument("--objective", choices=["tricks", "score"], default="tricks")
    parser.add_argument("--threads", type=int, default=None, help="solver threads (all cores)")
    parser.add_argument("--declarer-only", action="store_true", help="skip the search IMPs")
    parser.add_argument("--read-defence", action="store_true", help="read_defence=True (declarer)")
    parser.add_argument(
        "--weigh-defence", type=float, default=None, help="weigh_defence=FLOOR (declarer)"
    )
    parser.add_argument("--ties", choices=["lowest", "most_best"], default="lowest")
    parser.add_argument("--rival", choices=["next", "distinct"], default="next")
    parser.add_argument(
        "--read-tricks", type=int, default=1, help="read_tricks (with a defence reading)"
    )
    parser.add_argument("--report", action="store_true", help="only print the file's table")
    parser.add_argument("--against", type=Path, help="another setting's --out file to pair with")
    args = parser.parse_args()
    done = _read(args.out)
    if not args.report:
        read_defence = args.read_defence
        wanted_settings = _settings(
            args.samples,
            args.objective,
            args.declarer_only,
            args.max_samples,
            read_defence,
            args.weigh_defence,
            args.ties,
            args.rival,
            args.read_tricks,
        )
        other_settings = {
            json.dumps(r["settings"], sort_keys=True)
            for r in done.values()
            if r.get("settings", wanted_settings) != wanted_settings
        }
        if other_settings:
            parser.error(f"{args.out} holds deals played with other settings: {other_settings}")
        start = time.perf_counter()
        played = 0
        with args.out.open("a") as out:
            for seed in range(args.seed, args.seed + args.deals):
                if seed in done:
                    continue
                done[seed] = deal(
                    seed,
                    args.samples,
                    args.objective,
                    args.threads,
                    args.declarer_only,
                    args.max_samples,
                    read_defence,
                    args.weigh_defence,
                    args.ties,
                    args.rival,
                    args.read_tricks,
                )
                out.write(json.dumps(done[seed]) + "\n")
                out.flush()
                played += 1
        if played:
            print(f"{(time.perf_counter() - start) / played:.2f} s per deal")
    wanted = [done[s] for s in range(args.seed, args.seed + args.deals) if s in done]
    print(report(wanted))
    if args.against is not None:
        other = _read(args.against)
        print(paired({r["seed"]: r for r in wanted}, other, str(args.against)))


if __name__ == "__main__":
    main()
