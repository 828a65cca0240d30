"""The terminal table behind ``cardkit play``: one person against cardkit's agents.

The table is drawn with `rich <https://rich.readthedocs.io>`_ (the ``server`` and
``test`` extras install it): the person's hand with coloured suits, what the table
saw happen (their seat's event log), the legal actions numbered, the standings as
deals are scored and the score breakdown at the end. Input is read line by line
from a text stream (stdin by default), so a script or a test can drive it.

Any registered game works: the table reads only the common game API (events,
observations, legal actions, standings, score breakdown).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from cardkit._core import Card
from cardkit.api import Agent, Event, State
from cardkit.errors import CardkitError, InvalidNotationError, shown
from cardkit.games import make
from cardkit.tables import make_agent, seat_agents, table_summary

__all__ = ["TerminalTable", "card_text", "event_text", "replay_file"]

# A card inside action or event text: "Th", "10h" is never canonical, jokers whole.
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc]|BJ|RJ)(?![A-Za-z])")
_SUIT_STYLE = {"h": "bold red", "d": "bold red", "s": "bold", "c": "bold", "R": "bold red"}
_QUIT = {"q", "quit", "exit"}


def _rich() -> Any:
    try:
        import rich.console
        import rich.pretty
        import rich.text
    except ImportError as exc:  # pragma: no cover - the extras install rich
        raise CardkitError("cardkit play needs rich: pip install 'cardkit[server]'") from exc
    return rich


def card_text(text: str) -> Any:
    """``text`` as a rich ``Text`` with every card in it shown with its suit symbol
    and coloured (hearts and diamonds red, the red joker red)."""
    rich = _rich()
    out = rich.text.Text()
    last = 0
    for found in _CARD.finditer(text):
        out.append(text[last : found.start()])
        card = Card(found.group())
        out.append(card.pretty, style=_SUIT_STYLE.get(found.group()[-1], "bold"))
        last = found.end()
    out.append(text[last:])
    return out


def _value_text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return " ".join(value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)


def event_text(event: Event) -> Any:
    """One event of a seat's log as a line of the table (rich ``Text``): who did what,
    then the event's other fields, cards coloured."""
    fields = {k: v for k, v in event.items() if k not in ("type", "seat")}
    who = f"seat {event['seat']} " if "seat" in event else ""
    if event["type"] == "action" or event["type"] == "private_action":
        head = f"{who}{event['type'].replace('_', ' ')}: {fields.pop('action')}"
    else:
        head = f"{who}{event['type'].replace('_', ' ')}"
    rest = "; ".join(f"{k} {_value_text(v)}" for k, v in fields.items())
    return card_text(f"{head}  {rest}" if rest else head)


class TerminalTable:
    """One person at ``seat`` of ``game`` against agents, played in a terminal.

    ``agents`` are agent short names (one for every other seat, or one per other
    seat); ``seed`` fixes the deal and the agents' choices (a new match after the
    first takes the next seed). ``input`` and ``output`` default to stdin and
    stdout; ``save`` is a file the state's JSON save is written to after every
    move, for ``cardkit play --replay``.
    """

    def __init__(
        self,
        game: str,
        *,
        seat: int = 0,
        agents: Sequence[str] = (),
        options: dict[str, Any] | None = None,
        seed: int = 0,
        input: TextIO | None = None,
        output: TextIO | None = None,
        save: str | Path | None = None,
    ) -> None:
        self.game = make(game, **(options or {}))
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise CardkitError(f"--seat must be an int, got {shown(seat)}")
        if not 0 <= seat < self.game.num_players:
            raise CardkitError(
                f"--seat must be in 0..{self.game.num_players - 1} for {game}, got {seat}"
            )
        self.seat = seat
        self.agent_names = seat_agents(self.game, seat, agents)
        self.seed = seed
        self.input = input or sys.stdin
        self.console = _rich().console.Console(
            file=output or sys.stdout, highlight=False, markup=False
        )
        self.save = None if save is None else Path(save)

    def _read(self, prompt: str) -> str | None:
        """The next input line, stripped; ``None`` at the end of the input."""
        self.console.print(prompt, end="")
        line = self.input.readline()
        if not line:
            self.console.print()
            return None
        return line.strip()

    def _show_events(self, events: Sequence[Event], state: State) -> None:
        for event in events:
            if event["type"] == "deal":
                self.console.rule(f"deal {event.get('deal', 0) + 1}")
            self.console.print(event_text(event))
            if event["type"] in ("deal_end", "hand_end") and not state.is_terminal:
                self._show_standings(state)

    def _show_standings(self, state: State) -> None:
        cells = [
            f"{'you' if s == self.seat else f'seat {s}'} {v:g}"
            for s, v in enumerate(state.standings())
        ]
        self.console.print("standings: " + ", ".join(cells), style="bold")

    def _show_turn(self, state: State) -> list[str]:
        legal = [str(a) for a in state.legal_actions()]
        summary = table_summary(state.observation(self.seat))
        table = [f"{k} {_value_text(v)}" for k, v in summary.items()]
        if table:
            self.console.print(card_text("table: " + "; ".join(table)), style="dim")
        hand = " ".join(str(c) for c in state.private_cards(self.seat))
        self.console.print(card_text(f"your hand (seat {self.seat}): {hand or '-'}"))
        rich = _rich()
        listing = rich.text.Text()
        for i, action in enumerate(legal, 1):
            listing.append(f"{i:>3}) ")
            listing.append(card_text(action))
            listing.append("\n" if i % 4 == 0 or i == len(legal) else "   ")
        self.console.print(listing, end="")
        return legal

    def _human_move(self, state: State) -> bool:
        """Read moves until one is legal and applied; False when the person quits."""
        legal = self._show_turn(state)
        while True:
            line = self._read("your move (number or action, q to quit): ")
            if line is None or line.lower() in _QUIT:
                return False
            action = (
                legal[int(line) - 1] if line.isdigit() and 0 < int(line) <= len(legal) else line
            )
            try:
                state.apply(action)
            except CardkitError as exc:
                self.console.print(f"not allowed: {exc}", style="yellow")
                continue
            return True

    def _write_save(self, state: State) -> None:
        if self.save is not None:
            self.save.write_text(state.to_json(), encoding="utf-8")

    def play_match(self, seed: int) -> State | None:
        """Play one game (a whole match in match mode) from ``seed``; the finished
        state, or ``None`` when the person quit first."""
        state = self.game.new_state(seed=seed)
        agents: list[Agent | None] = [
            None if name is None else make_agent(self.game.name, name, seed, s)
            for s, name in enumerate(self.agent_names)
        ]
        shown_events = 0
        while True:
            log = state.events(self.seat)
            self._show_events(log[shown_events:], state)
            shown_events = len(log)
            if state.is_terminal:
                break
            to_act = state.current_player
            assert to_act is not None  # a live state has a player to act
            agent = agents[to_act]
            if agent is None:
                if not self._human_move(state):
                    self._write_save(state)
                    return None
            else:
                state.apply(agent.act(state.observation(to_act), state.legal_actions()))
            self._write_save(state)
        self._show_result(state)
        return state

    def _show_result(self, state: State) -> None:
        self.console.rule("game over")
        returns = state.returns()
        for s, value in enumerate(returns):
            who = "you" if s == self.seat else f"seat {s} ({self.agent_names[s]})"
            self.console.print(f"{who}: {value:+g}")
        self.console.print("score breakdown:", style="bold")
        self.console.print(_rich().pretty.Pretty(state.score_breakdown()))

    def run(self) -> int:
        """Play matches until the person declines another or the input ends; the
        exit status (0)."""
        seed = self.seed
        names = ", ".join(
            "you" if n is None else f"seat {s} {n}" for s, n in enumerate(self.agent_names)
        )
        self.console.print(f"{self.game.name}: {names}; seed {seed}", style="bold")
        while self.play_match(seed) is not None:
            again = self._read("another game? [y/N] ")
            if again is None or again.lower() not in ("y", "yes"):
                break
            seed = (seed + 1) % 2**64
        return 0


def replay_file(
    path: str | Path,
    *,
    seat: int | None = None,
    input: TextIO | None = None,
    output: TextIO | None = None,
) -> int:
    """Step through the game saved in ``path`` (a state's ``to_json``) action by
    action: Enter shows the next one, ``b`` goes back one, a number jumps to that
    move, ``q`` stops. ``seat`` picks whose view is shown (``None``: the table's
    public view plus every hand, as a replay is for looking back at a game)."""
    rich = _rich()
    console = rich.console.Console(file=output or sys.stdout, highlight=False, markup=False)
    source = input or sys.stdin
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidNotationError(f"cannot read the replay {shown(str(path))}: {exc}") from exc
    try:
        header = json.loads(text)
        game = make(header["game"], **header["options"])
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidNotationError(f"{shown(str(path))} is not a cardkit save: {exc}") from exc
    final = game.state_from_json(text)
    history = final.history
    if seat is not None and not 0 <= seat < game.num_players:
        raise CardkitError(f"--seat must be in 0..{game.num_players - 1}, got {seat}")
    step = 0
    while True:
        state = game.new_state(seed=final.seed, deal=header.get("deal"))
        for action in history[:step]:
            state.apply(action)
        console.rule(f"{game.name}: move {step} of {len(history)}")
        log = state.events(seat)
        for event in log[-8:]:
            console.print(event_text(event))
        seats = range(game.num_players) if seat is None else (seat,)
        for s in seats:
            hand = " ".join(str(c) for c in state.private_cards(s))
            console.print(card_text(f"seat {s}: {hand or '-'}"))
        if state.is_terminal:
            console.print(f"returns: {state.returns()}", style="bold")
            console.print(rich.pretty.Pretty(state.score_breakdown()))
        console.print("[Enter] next, b back, a number jumps, q quits: ", end="")
        line = source.readline()
        if not line:
            console.print()
            return 0
        command = line.strip().lower()
        if command in _QUIT:
            return 0
        if command == "b":
            step = max(0, step - 1)
        elif command.isdigit():
            step = min(int(command), len(history))
        else:
            step = min(step + 1, len(history))
