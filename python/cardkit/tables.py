"""What the terminal table (``cardkit play``) and the rooms server (``cardkit serve``)
share: seating agents, reading ``--option k=v`` values, and a seat's view of a state.

A *seat view* is everything one client may be shown: its own event log and
observation, its concealed cards, the legal actions when it is to act, the public
standings and, once the game is over, the public score. It never holds another
seat's hidden cards, the seed or the state's JSON save.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardkit._core import derive_seed
from cardkit.agents import agent_factory, agent_names
from cardkit.api import Agent, Event, Game, Observation, State
from cardkit.errors import RuleOptionError, shown

__all__ = [
    "AGENT_SEED_SALT",
    "default_agent",
    "eliminated",
    "end_score",
    "make_agent",
    "parse_option",
    "parse_options",
    "seat_agents",
    "seat_view",
    "table_summary",
]

# Observation fields that describe the table as the games name them (the cards
# to beat, the trick, the board, bets and scores); a game shows those it has.
_TABLE_KEYS = (
    "phase",
    "acted",
    "level",
    "landlord",
    "bottom",
    "table",
    "trick",
    "board",
    "pot",
    "to_call",
    "bets",
    "stacks",
    "bids",
    "card_counts",
    "taken_points",
    "tricks_won",
    "scores",
)

# The agents a table seats when none is named, strongest-but-quick first: each
# game's rule agent, or the fast strong agent of games without one.
_PREFERRED_AGENTS = ("rule", "equity", "signal", "greedy")

#: Agents are seeded with ``derive_seed(seed, AGENT_SEED_SALT + seat)``, so a table
#: replays exactly from its seed without the agents sharing the deal's stream.
AGENT_SEED_SALT = 1_000_000


def default_agent(game: str) -> str:
    """The agent a table seats for ``game`` when none is named."""
    names = agent_names(game)
    return next((n for n in _PREFERRED_AGENTS if n in names), "random")


def make_agent(game: str, name: str, seed: int, seat: int) -> Agent:
    """Agent ``name`` of ``game`` for ``seat``, seeded from the table's ``seed``."""
    return agent_factory(game, name)(derive_seed(seed, AGENT_SEED_SALT + seat))


def seat_agents(game: Game, human: int | None, names: Sequence[str]) -> list[str | None]:
    """One agent name per seat (``None`` at the ``human`` seat) from ``names``: empty
    (the default agent everywhere), one name for every other seat, or one per seat
    other than the human's, in seat order."""
    others = game.num_players - (0 if human is None else 1)
    picked = list(names) or [default_agent(game.name)]
    if len(picked) == 1:
        picked *= others
    if len(picked) != others:
        raise RuleOptionError(
            f"--agents needs 1 or {others} names for {game.name}, got {len(picked)}"
        )
    for name in set(picked):
        agent_factory(game.name, name)  # unknown names fail before the game starts
    seats: list[str | None] = []
    for seat in range(game.num_players):
        seats.append(None if seat == human else picked.pop(0))
    return seats


def parse_option(text: str) -> tuple[str, Any]:
    """``"key=value"`` as ``(key, value)``: the value read as JSON (``100``, ``true``,
    ``[10,20]``) and as a plain string when it is not JSON (``level=A``)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise RuleOptionError(f"an option is key=value, got {shown(text)}")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def parse_options(texts: Sequence[str]) -> dict[str, Any]:
    """Several ``key=value`` options as the keyword arguments of ``games.make``."""
    return dict(parse_option(t) for t in texts)


def eliminated(state: State, seat: int) -> bool:
    """Whether ``seat`` is out of a match still going on: a chip game's seat with no
    chips and no cards (it watches the others play on, or restarts)."""
    if state.is_terminal:
        return False
    stacks = state.observation(seat).get("stacks")
    return (
        isinstance(stacks, list)
        and len(stacks) > seat
        and stacks[seat] == 0
        and not state.private_cards(seat)
    )


def table_summary(observation: Observation) -> dict[str, Any]:
    """The fields of a seat's observation that describe the table (the cards to
    beat, the trick, the board, bets, counts and scores), for a compact display;
    each game shows those of them it has."""
    return {k: observation[k] for k in _TABLE_KEYS if observation.get(k) is not None}


def end_score(events: Sequence[Event]) -> dict[str, Any] | None:
    """The public score of a finished game: its ``end`` event's, else ``None``."""
    for event in reversed(events):
        if event.get("type") == "end":
            score: dict[str, Any] = event["score"]
            return score
    return None


def seat_view(state: State, seat: int | None, since: int = 0) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may be shown now, JSON-ready.

    ``events`` are the seat's event log from entry ``since`` on (``event_count`` is
    the whole log's length, so a client asks for the rest next time); spectators get
    the public events and no observation, hand or legal actions.
    """
    log = state.events(seat)
    to_act = state.current_player
    view: dict[str, Any] = {
        "seat": seat,
        "to_act": to_act,
        "terminal": state.is_terminal,
        "ply": len(state.history),
        "standings": state.standings(),
        "events": log[since:],
        "event_count": len(log),
        "score": end_score(log),
    }
    if seat is not None:
        view["observation"] = state.observation(seat)
        view["table"] = table_summary(view["observation"])
        view["hand"] = [str(c) for c in state.private_cards(seat)]
        view["legal_actions"] = [str(a) for a in state.legal_actions()] if to_act == seat else []
        view["eliminated"] = eliminated(state, seat)
    return view
