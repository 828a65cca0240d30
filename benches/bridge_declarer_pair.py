"""Bridge declarer play, the search agent as it was through session 18 (A:
``samples=16, rival="next"``, :data:`BASELINE`) against a variant (B: the same
with the given arguments changed) on the same seeds, interleaved deal by deal
in one process: the tricks each loses against the double-dummy result of the
final contract (defenders double dummy, as in ``benches/bridge_agents.py``,
whose ``deal`` gives the same ``lost`` for the same settings) and the CPU time
(``time.process_time``, solver threads included) per searched declarer
decision, so a loaded machine slows both alike.

B's decisions with no defender's card in the trick in progress are A's when A
met the same observation (for ``weigh_defence`` every deal then weighs 1, so
the deals and the card are A's; the agents' cards depend on the seed and the
observation only): its card and its CPU time are reused rather than searched
again. Give ``--ties`` to B only with that in mind: a tie rule acts on every
decision, so ``--no-reuse`` searches all of B's. A variant with ``--samples``,
``--max-samples``, ``--rival`` or ``--read-tricks`` (``BridgeSearchAgent``'s
arguments; the last reads earlier tricks' cards, so it acts with no defender's
card in the trick) acts on every decision too, and searches all of B's; with ``--share-solves`` the
positions A solved in a deal (the same sampled deal of the same decision: the
agents draw a decision's deals from a seed of the seed and the cards played)
are not solved again for B, so B's CPU time then counts only its own solves,
and its ``deals`` (every deal its decisions used) measure its cost.

Run: python benches/bridge_declarer_pair.py --seed K --deals N [--weigh-defence FLOOR]
[--read-tricks T] [--ties lowest|most_best] [--samples S] [--max-samples M] [--rival next|distinct]
[--no-reuse] [--threads T] --out FILE [--report]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cardkit.agents.bridge as search_module
from bridge_agents import _auction, _play_out
from cardkit.agents.bridge import BridgeRuleAgent, BridgeSearchAgent
from cardkit.api import Action, Agent, Observation
from cardkit.bridge import dd_table
from cardkit.games import make
from cardkit.games.bridge import STRAINS


class _Timed:
    """Declarer's agent with its CPU time per card; ``memo`` (observation key to
    card, CPU time and searched decisions) is filled by A and read by B."""

    def __init__(self, agent: BridgeSearchAgent, memo: dict[str, Any], reuse: bool) -> None:
        self.agent, self.memo, self.reuse = agent, memo, reuse
        self.cpu, self.searched, self.reused = 0.0, 0, 0

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        declarer = obs["contract"]["declarer"]
        key = json.dumps([obs["tricks"], obs["trick"], obs["hand_to_play"]])
        defended = any((obs["leader"] + k) % 2 != declarer % 2 for k in range(len(obs["trick"])))
        if self.reuse and not defended and key in self.memo:
            card, cpu, searched = self.memo[key]
            self.cpu += cpu
            self.searched += searched
            self.reused += 1
            return next(a for a in legal if a.text == card)
        before = self.agent.stats["decisions"]
        start = time.process_time()
        action = self.agent.act(obs, legal)
        cpu = time.process_time() - start
        searched = self.agent.stats["decisions"] - before
        self.cpu += cpu
        self.searched += searched
        if not self.reuse:
            self.memo[key] = (action.text, cpu, searched)
        return action


class _SharedSolves:
    """``dd_solve_many`` remembering each position it solved (hands, trumps,
    leader, trick): the solves are exact, so a position met again (B's deal at a
    decision A searched) takes the stored plays."""

    def __init__(self) -> None:
        self.solved: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
        self.solve = search_module.dd_solve_many

    def __call__(
        self,
        hands: Sequence[list[int]],
        trumps: Sequence[int],
        leaders: Sequence[int],
        tricks: Sequence[list[int]],
        threads: int | None = None,
    ) -> list[list[tuple[int, int]]]:
        keys = [
            (tuple(h), s, lead, tuple(t))
            for h, s, lead, t in zip(hands, trumps, leaders, tricks, strict=True)
        ]
        new = [i for i, k in enumerate(keys) if k not in self.solved]
        if new:
            found = self.solve(
                [hands[i] for i in new],
                [trumps[i] for i in new],
                [leaders[i] for i in new],
                [tricks[i] for i in new],
                threads,
            )
            for i, plays in zip(new, found, strict=True):
                self.solved[keys[i]] = plays
        return [self.solved[k] for k in keys]


#: A's settings: the agent's defaults through session 18, pinned so that every
#: run in docs/bridge.md pairs against the same A (the defaults are now
#: ``samples=32, rival="distinct"``).
BASELINE: dict[str, Any] = {"samples": 16, "rival": "next"}


def pair(seed: int, variant: dict[str, Any], threads: int | None, reuse: bool) -> dict[str, Any]:
    """One deal: A's and B's tricks lost, CPU time and searched decisions."""
    state = make("bridge").new_state(seed=seed)
    table = dd_table([state.private_cards(s) for s in range(4)], threads=1)
    _auction(state, [BridgeRuleAgent()] * 4)
    row: dict[str, Any] = {"seed": seed, "variant": variant}
    contract = state.contract
    if contract is None:
        return row
    declarer, dummy = contract["declarer"], contract["dummy"]
    dd = table.tricks(declarer, STRAINS.index(contract["strain"]))
    memo: dict[str, Any] = {}
    if isinstance(search_module.dd_solve_many, _SharedSolves):
        search_module.dd_solve_many.solved.clear()  # one deal's positions at a time
    for name, kwargs in (("A", BASELINE), ("B", {**BASELINE, **variant})):
        agent = BridgeSearchAgent(seed=4 * seed + declarer, threads=threads, **kwargs)
        timed = _Timed(agent, memo, reuse and name == "B")
        seats: list[Agent | None] = [None] * 4
        seats[declarer] = seats[dummy] = timed
        played = state.clone()
        _play_out(played, seats)
        row[name] = {
            "lost": dd - played.declarer_tricks(),
            "cpu": timed.cpu,
            "searched": timed.searched,
            "reused": timed.reused,
            "deals": agent.stats["deals"],
        }
    return row


def _mean_ci(values: list[float]) -> str:
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return f"{mean:+.3f} ± {1.96 * spread / math.sqrt(n):.3f}"


def report(rows: list[dict[str, Any]]) -> str:
    """Tricks lost (mean ± 95% CI), CPU per searched decision, and B - A."""
    rows = [r for r in rows if "A" in r]
    if not rows:
        return "no deal with a contract"
    lines = [f"{len(rows)} deals with a contract"]
    for name in "AB":
        cpu = sum(r[name]["cpu"] for r in rows)
        searched = sum(r[name]["searched"] for r in rows)
        lost = _mean_ci([r[name]["lost"] for r in rows])
        lines.append(
            f"{name}: lost {lost}, {searched} searched decisions, "
            f"{1000 * cpu / max(searched, 1):.0f} ms CPU each"
        )
    diffs = [r["B"]["lost"] - r["A"]["lost"] for r in rows]
    better = sum(d < 0 for d in diffs)
    worse = sum(d > 0 for d in diffs)
    lines.append(
        f"B - A: {_mean_ci(diffs)}; B better on {better}, worse on {worse}, "
        f"alike on {len(diffs) - better - worse}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--weigh-defence", type=float, default=None)
    parser.add_argument("--ties", choices=["lowest", "most_best"], default="lowest")
    parser.add_argument("--samples", type=int, default=None, help="B's samples (16)")
    parser.add_argument("--max-samples", type=int, default=None, help="B's max_samples")
    parser.add_argument("--rival", choices=["next", "distinct"], default="next")
    parser.add_argument("--read-tricks", type=int, default=None, help="B's read_tricks (1)")
    parser.add_argument("--share-solves", action="store_true", help="B takes A's solved positions")
    parser.add_argument("--no-reuse", action="store_true", help="search all of B's decisions")
    parser.add_argument("--threads", type=int, default=None, help="solver threads (all cores)")
    parser.add_argument("--out", type=Path, default=Path("bridge_declarer_pair.jsonl"))
    parser.add_argument("--report", action="store_true", help="only print the file's table")
    args = parser.parse_args()
    variant: dict[str, Any] = {"ties": args.ties}
    if args.weigh_defence is not None:
        variant["weigh_defence"] = args.weigh_defence
    # Only the arguments given, so the files written before them still match.
    for name in ("samples", "max_samples", "read_tricks"):
        if getattr(args, name) is not None:
            variant[name] = getattr(args, name)
    if args.rival != "next":
        variant["rival"] = args.rival
    # weigh_defence alone leaves the decisions without a defender's card to A.
    reuse = not args.no_reuse and not {"samples", "max_samples", "rival", "read_tricks"} & set(
        variant
    )
    done: dict[int, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["seed"]] = row
    if any(r["variant"] != variant for r in done.values()) and not args.report:
        parser.error(f"{args.out} holds deals played with another variant")
    if args.share_solves:
        search_module.dd_solve_many = _SharedSolves()  # type: ignore[assignment]
    if not args.report:
        with args.out.open("a") as out:
            for seed in range(args.seed, args.seed + args.deals):
                if seed not in done:
                    done[seed] = pair(seed, variant, args.threads, reuse)
                    out.write(json.dumps(done[seed]) + "\n")
                    out.flush()
    print(report([done[s] for s in range(args.seed, args.seed + args.deals) if s in done]))


if __name__ == "__main__":
    main()
