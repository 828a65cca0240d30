"""The ``cardkit`` command line. Subcommands register in :func:`build_parser`."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

from cardkit import __version__
from cardkit._core import deck_names, shuffled_deck
from cardkit.errors import CardkitError

__all__ = ["build_parser", "main"]


def _deal(args: argparse.Namespace) -> int:
    cards = shuffled_deck(args.deck, args.seed)
    # more seats than cards would only deal empty hands (and a huge count never ends)
    if not 1 <= args.players <= len(cards):
        raise CardkitError(f"--players must be in 1..{len(cards)}, got {args.players}")
    per_seat = args.cards if args.cards is not None else len(cards) // args.players
    if per_seat < 0 or per_seat * args.players > len(cards):
        raise CardkitError(
            f"cannot deal {per_seat} cards to {args.players} players from {len(cards)} cards"
        )
    # Block dealing: seat 0 takes the first cards. This is the deck shuffled by the
    # seed itself; a game's new_state(seed) shuffles by derive_seed(seed, deal) and
    # deals in its own order, so the two show different hands for one seed.
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
    from cardkit.games import make
    from cardkit.sim import DaskExecutor, RayExecutor, simulate
    from cardkit.tables import parse_options

    options = parse_options(args.option)
    seats = make(args.game, **options).num_players
    names = args.agents.split(",")
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise CardkitError(f"--agents needs 1 or {seats} names, got {len(names)}")
    executor: Any = None
    if args.executor == "ray":
        executor = RayExecutor(args.address) if args.address else "ray"
    elif args.executor == "dask":
        executor = DaskExecutor(args.address) if args.address else "dask"
    elif args.address:
        raise CardkitError("--address needs --executor ray or dask")
    try:
        result = simulate(
            args.game,
            args.games,
            args.seed,
            names,
            options=options,
            workers=args.workers,
            executor=executor,
            rotate_seats=not args.no_rotate,
            duplicate=args.duplicate,
            progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        # every worker has stopped and nothing was written: leave like any interrupted command
        print("cardkit: interrupted", file=sys.stderr)
        return 130
    finally:
        if isinstance(executor, DaskExecutor):
            executor.shutdown()
    seating = "rotating from there" if not args.no_rotate or args.duplicate else "fixed"
    print(f"agents: {', '.join(f'seat {i} {n}' for i, n in enumerate(names))} ({seating})")
    print(result.table())
    if args.out:
        result.to_parquet(args.out)
        print(f"records: {args.out}")
    if args.plot:
        result.plot(args.plot)
        print(f"plot: {args.plot}")
    return 0


def _agents(args: argparse.Namespace) -> int:
    from cardkit.agents import agent_options

    for name, (path, options) in agent_options(args.game).items():
        shown = ", ".join(f"{k}={v!r}" for k, v in options.items()) or "no options"
        print(f"{name:<16} {path}  ({shown})")
    return 0


class _Progress:
    """A progress line on stderr, shown once a run has taken half a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, fraction: float) -> None:
        if not self.enabled or time.monotonic() - self.start < 0.5:
            return
        self.shown = True
        bar = "#" * int(fraction * 30)
        print(f"\r[{bar:<30}] {fraction:6.1%}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.shown:
            self.shown = False
            print(file=sys.stderr)


# Keyword names of cardkit.poker.equity as its messages spell them ("samples=",
# "exact=True", "stderr must be ..."), and the command-line options they stand for.
_OPTION_NAMES = re.compile(r"\b(?:(exact)=True|(samples|stderr|seed|threads)\b=?)")
#: The argument an error names (``board: invalid card ...``), as the command line
#: spells it: the players are the positional arguments, whose token the message quotes.
_ARGUMENT_NAMES = re.compile(r"^(?:(board|dead)|players): ")


def _cli_message(message: str) -> str:
    """An error message of ``equity`` with its keyword names as ``cardkit equity`` options."""
    message = _ARGUMENT_NAMES.sub(lambda m: f"--{m.group(1)}: " if m.group(1) else "", message)
    return _OPTION_NAMES.sub(lambda m: f"--{m.group(1) or m.group(2)}", message)


def _equity(args: argparse.Namespace) -> int:
    from cardkit.poker import equity

    exact: bool | None = True if args.exact else None
    progress = _Progress(not args.no_progress)
    try:
        result = equity(
            args.players,
            args.board,
            args.dead,
            exact=exact,
            samples=args.samples,
            stderr=args.stderr,
            seed=args.seed,
            threads=args.threads,
            progress=progress,
        )
    except CardkitError as exc:
        raise type(exc)(_cli_message(str(exc))) from None
    except KeyboardInterrupt:
        # The run has stopped (its workers too): leave like any interrupted command.
        progress.close()
        print("cardkit: interrupted", file=sys.stderr)
        return 130
    finally:
        progress.close()
    if args.json:
        print(
            json.dumps(
                {
                    "players": args.players,
                    "board": args.board,
                    "dead": args.dead,
                    "exact": result.exact,
                    "boards": result.boards,
                    "samples": result.samples,
                    "equity": result.equity,
                    "win": result.win,
                    "tie": result.tie,
                    "stderr": result.stderr,
                }
            )
        )
        return 0
    width = max(6, *(len(p) for p in args.players))
    header = f"{'player':<{width}}  {'equity':>8}  {'win':>8}  {'tie':>8}"
    if not result.exact:
        header += f"  {'stderr':>8}"
    print(header)
    for name, p in zip(args.players, result.players, strict=True):
        row = f"{name:<{width}}  {p.equity:8.4%}  {p.win:8.4%}  {p.tie:8.4%}"
        if not result.exact:
            row += f"  {p.stderr:8.4%}"
        print(row)
    if result.exact:
        print(f"exact: {result.boards:,} boards")
    else:
        print(f"Monte Carlo: {result.samples:,} trials, seed {args.seed or 0}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from cardkit.tables import parse_options
    from cardkit.terminal import TerminalTable, replay_file

    if args.replay is not None:
        return replay_file(args.replay, seat=args.seat)
    if args.game is None:
        raise CardkitError("cardkit play needs a GAME (or --replay FILE)")
    agents = args.agents.split(",") if args.agents else []
    table = TerminalTable(
        args.game,
        seat=0 if args.seat is None else args.seat,
        agents=agents,
        options=parse_options(args.option),
        seed=args.seed,
        save=args.save,
    )
    return table.run()


def _serve(args: argparse.Namespace) -> int:
    from cardkit.server import ServerConfig, serve

    serve(
        ServerConfig(
            db=args.db,
            idle_expiry=args.idle_expiry,
            agent_delay=args.agent_delay,
            max_rooms=args.max_rooms,
        ),
        host=args.host,
        port=args.port,
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="cardkit", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cardkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    deal = sub.add_parser(
        "deal",
        help="shuffle a named deck from a seed and deal it in blocks "
        "(not the hands a game deals for that seed)",
    )
    deal.add_argument("deck", choices=deck_names())
    deal.add_argument("--players", type=int, default=4)
    deal.add_argument("--seed", type=int, default=0, help="0..2**64-1")
    deal.add_argument("--cards", type=int, help="cards per player (default: all, evenly)")
    deal.add_argument("--pretty", action="store_true", help="suit symbols")
    deal.add_argument("--json", action="store_true", help="machine-readable output")
    deal.set_defaults(run=_deal)

    sim = sub.add_parser(
        "simulate",
        help="play many seeded games between agents",
        description="Play seeded games between agents and print per-agent and per-role "
        "mean returns (95%% CI) and win rates (Wilson interval).",
    )
    sim.add_argument("game", help="a name from cardkit.games.available()")
    sim.add_argument("-n", "--games", type=int, default=1000, help="games (deals with --duplicate)")
    sim.add_argument("--seed", type=int, default=0, help="0..2**64-1")
    sim.add_argument(
        "--agents",
        default="random",
        help="one agent name for every seat or one per seat, comma-separated "
        "(see cardkit agents GAME)",
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option of the game, the value read as JSON where it parses (repeatable)",
    )
    sim.add_argument("--workers", type=int, help="processes (default: every core)")
    sim.add_argument("--executor", choices=["local", "ray", "dask"], default="local")
    sim.add_argument("--address", help="the Ray or Dask cluster to join (default: a local one)")
    sim.add_argument(
        "--duplicate", action="store_true", help="play every deal in every seat rotation"
    )
    sim.add_argument("--no-rotate", action="store_true", help="keep each agent in its seat")
    sim.add_argument("--out", help="write the per-game records to this Parquet file")
    sim.add_argument("--plot", help="save running means and returns to this PNG")
    sim.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    sim.set_defaults(run=_simulate)

    agents = sub.add_parser("agents", help="list a game's agents and their options")
    agents.add_argument("game", help="a name from cardkit.games.available()")
    agents.set_defaults(run=_agents)

    eq = sub.add_parser(
        "equity",
        help="Texas Hold'em equity of hands or ranges",
        description="Equity of 2 to 10 players, each a hand (AhAs) or a range ('QQ+,AKs').",
    )
    eq.add_argument("players", nargs="+", help="a hand such as AhAs or a range such as 'QQ+,AKs'")
    eq.add_argument("--board", default="", help="0 to 5 board cards, e.g. Ts9s2h")
    eq.add_argument("--dead", default="", help="cards out of play")
    method = eq.add_mutually_exclusive_group()
    method.add_argument("--exact", action="store_true", help="enumerate every board")
    method.add_argument("--samples", type=int, help="Monte Carlo with this many trials")
    eq.add_argument("--stderr", type=float, help="Monte Carlo: stop at this standard error")
    eq.add_argument("--seed", type=int, help="Monte Carlo seed (default 0)")
    eq.add_argument("--threads", type=int, help="worker threads (default: all cores)")
    eq.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    eq.add_argument("--json", action="store_true", help="machine-readable output")
    eq.set_defaults(run=_equity)

    play = sub.add_parser(
        "play",
        help="play a game in the terminal against cardkit's agents",
        description="Play GAME at a terminal table against agents, or step through a save.",
    )
    play.add_argument("game", nargs="?", help="a name from cardkit.games.available()")
    play.add_argument("--seat", type=int, help="your seat (default 0)")
    play.add_argument(
        "--agents",
        help="one agent name for every other seat or one per other seat, comma-separated "
        "(default: the game's rule agent)",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option (value read as JSON, else text); repeat for more",
    )
    play.add_argument("--seed", type=int, default=0, help="0..2**64-1")
    play.add_argument("--save", help="write the game's JSON save here after every move")
    play.add_argument("--replay", metavar="FILE", help="step through a saved game")
    play.set_defaults(run=_play)

    serve = sub.add_parser(
        "serve",
        help="run the rooms server with its browser table (needs cardkit[server])",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default="cardkit.sqlite", help="SQLite file of rooms and histories")
    serve.add_argument(
        "--idle-expiry",
        type=float,
        default=24 * 3600.0,
        help="seconds after which a room nobody acted in is deleted",
    )
    serve.add_argument(
        "--agent-delay", type=float, default=0.6, help="seconds an agent waits before moving"
    )
    serve.add_argument("--max-rooms", type=int, default=1000, help="rooms the server holds")
    serve.set_defaults(run=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardkit`` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except CardkitError as exc:
        print(f"cardkit: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
