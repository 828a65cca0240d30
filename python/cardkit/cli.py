"""The ``cardkit`` command line. Subcommands register in :func:`build_parser`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from cardkit import __version__
from cardkit._core import deck_names, shuffled_deck
from cardkit.errors import CardkitError

__all__ = ["build_parser", "main"]


def _deal(args: argparse.Namespace) -> int:
    cards = shuffled_deck(args.deck, args.seed)
    if args.players < 1:
        raise CardkitError("--players must be at least 1")
    per_seat = args.cards if args.cards is not None else len(cards) // args.players
    if per_seat < 0 or per_seat * args.players > len(cards):
        raise CardkitError(
            f"cannot deal {per_seat} cards to {args.players} players from {len(cards)} cards"
        )
    # Block dealing (seat 0 takes the first cards), matching every game's deal order.
    hands = [
        sorted(cards[s * per_seat : (s + 1) * per_seat], reverse=True) for s in range(args.players)
    ]
    rest = cards[per_seat * args.players :]
    if args.json:
        print(
            json.dumps(
                {
                    "deck": args.deck,
                    "seed": args.seed,
                    "hands": [[str(c) for c in h] for h in hands],
                    "rest": [str(c) for c in rest],
                }
            )
        )
        return 0
    show = (lambda c: c.pretty) if args.pretty else str
    print(f"{args.deck}, seed {args.seed}, {args.players} players")
    for seat, hand in enumerate(hands):
        print(f"seat {seat}: {' '.join(show(c) for c in hand)}")
    if rest:
        print(f"rest:   {' '.join(show(c) for c in rest)}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from cardkit.agents import agent_factory
    from cardkit.games import make
    from cardkit.sim import simulate

    seats = make(args.game).num_players
    names = args.agents.split(",")
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise CardkitError(f"--agents needs 1 or {seats} names, got {len(names)}")
    agents = [agent_factory(args.game, n) for n in names]
    result = simulate(args.game, args.games, args.seed, agents=agents, workers=args.workers)
    print(f"agents: {', '.join(f'seat {i} {n}' for i, n in enumerate(names))}")
    print(result.table())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="cardkit", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cardkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    deal = sub.add_parser("deal", help="shuffle a named deck from a seed and deal it")
    deal.add_argument("deck", choices=deck_names())
    deal.add_argument("--players", type=int, default=4)
    deal.add_argument("--seed", type=int, default=0, help="0..2**64-1")
    deal.add_argument("--cards", type=int, help="cards per player (default: all, evenly)")
    deal.add_argument("--pretty", action="store_true", help="suit symbols")
    deal.add_argument("--json", action="store_true", help="machine-readable output")
    deal.set_defaults(run=_deal)

    sim = sub.add_parser("simulate", help="play many seeded games between agents")
    sim.add_argument("game", help="a name from cardkit.games.available()")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0, help="0..2**64-1")
    sim.add_argument("--workers", type=int, help="processes (default: every core)")
    sim.add_argument(
        "--agents",
        default="random",
        help="one agent name for every seat or one per seat, comma-separated "
        "(random, rule, search, ...: see cardkit.agents.agent_names)",
    )
    sim.set_defaults(run=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardkit`` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except (CardkitError, OverflowError) as exc:
        print(f"cardkit: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
