"""The common game API: what every cardkit game, state and agent looks like.

A game is a ruleset with its options fixed; a state is one play of it, from the
deal to the end. Chance (shuffles, redeals) is resolved from the state's seed, so
``game.new_state(seed=7)`` followed by the same actions always gives the same game.
The protocols below are what callers may rely on; :mod:`cardkit.games._base`
holds the shared machinery the built-in games use to meet them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cardkit._core import Card
from cardkit.errors import IllegalActionError, shown

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Action", "Agent", "Event", "Game", "GameInfo", "Observation", "State"]

#: A JSON-serializable dict: what one seat may know, nothing more.
Observation = dict[str, Any]

#: One entry of a state's event log: a JSON-serializable dict with a ``"type"``
#: (see :meth:`State.events`).
Event = dict[str, Any]


class Action(str):
    """One move, held in its canonical text form (``"play Qs"``, ``"bid 2"``, ``"pass"``).

    An action is a ``str`` (its canonical text, single-spaced), so it equals its text,
    hashes like it, serializes to JSON as it, and ``"pass" in state.legal_actions()``
    works at C speed. ``kind`` is the first word and ``args`` the rest.
    """

    __slots__ = ()

    def __new__(cls, text: object) -> Action:
        try:
            words = str(text).split()
        except ValueError as exc:
            # str() of an int past 4300 digits raises ValueError.
            raise IllegalActionError(f"an action is text, got {shown(text)}") from exc
        return super().__new__(cls, " ".join(words))

    @property
    def text(self) -> str:
        """The canonical text as a plain ``str``, the form ``state.apply`` accepts."""
        return str.__str__(self)

    @property
    def kind(self) -> str:
        """The action's verb: ``"play"``, ``"bid"``, ``"raise"`` ..."""
        return self.split(" ", 1)[0]

    @property
    def args(self) -> tuple[str, ...]:
        """The words after the verb."""
        return tuple(self.split(" ")[1:])

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Action({str.__repr__(self)})"


@dataclass(frozen=True)
class GameInfo:
    """What learning code needs to size itself for a game with its options fixed
    (after OpenSpiel's ``GameInfo``)."""

    #: The registered name (``make(name)``).
    name: str
    num_players: int
    #: Size of the fixed action index: ids are ``0 .. num_actions - 1``.
    num_actions: int
    #: Shape of :meth:`State.observation_tensor` (float32).
    observation_shape: tuple[int, ...]
    #: The most actions one deal can take (``game.max_game_length``).
    max_game_length: int
    #: The most actions one state can take, a whole match where there is one.
    max_match_length: int
    #: Bounds of every seat's entry of ``state.returns()`` at the end.
    min_utility: float
    max_utility: float
    #: Whether the returns of every finished state sum to zero.
    zero_sum: bool
    #: The most outcomes one chance event has: the cards of the deck, as a deal is
    #: a sequence of single cards drawn from it (cardkit resolves chance from the
    #: seed, so no state is a chance node).
    max_chance_outcomes: int


@runtime_checkable
class State(Protocol):
    """One play of a game, from the deal to the end.

    A state may be shared between threads: moves are serialized by a per-state
    lock (one thread's check-and-apply never interleaves with another's), and the
    readers (``legal_actions``, ``observation``, ``events``, ``clone``,
    ``to_json`` ...) see the state between two moves.

    States compare by value: two states are equal when they play the same game
    (the same rules with the same options) from the same seed and fixed deal
    through the same actions, so ``s == s.clone()`` and
    ``game.state_from_json(s.to_json()) == s``; one more move makes them differ.
    The lock and the event log are not part of the value, and a comparison holds
    one state's lock at a time (never both, so it cannot deadlock). States are
    mutable, so they are unhashable (``__hash__`` is ``None``): key a dict by
    ``to_json()`` instead.
    """

    @property
    def game(self) -> Game:
        """The game (rules and options) this state plays."""
        ...

    @property
    def seed(self) -> int:
        """The seed every chance event of this state derives from."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        ...

    @property
    def is_terminal(self) -> bool:
        """True once the game (the deal, or the match in match mode) is over."""
        ...

    @property
    def history(self) -> list[Action]:
        """Every action applied so far; replaying them from the seed rebuilds the state."""
        ...

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (a representative list where
        amounts are free, such as bet sizes; ``is_legal`` decides the rest)."""
        ...

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``apply(action)`` would succeed."""
        ...

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player.

        Raises :class:`~cardkit.errors.IllegalActionError` (with the reason) and leaves
        the state unchanged when the rules forbid it.
        """
        ...

    def returns(self) -> list[float]:
        """Each seat's result: zero before the end; zero-sum where the game is."""
        ...

    def standings(self) -> list[float]:
        """Each seat's result over the deals scored so far, in :meth:`returns` units
        (what it would be if a match stopped now); ``returns()`` once over."""
        ...

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as a JSON-serializable dict."""
        ...

    def events(self, seat: int | None = None) -> list[Event]:
        """The event log an app may send to ``seat``'s client, oldest first.

        Every public event (a deal starting with its public facts, each action as
        the table sees it, tricks, revealed cards, showdowns, results) and the
        seat's own private ones (its dealt hand, its hidden moves, cards passed to
        or by it), as JSON-ready dicts with a ``"type"``. Never another seat's
        hidden cards, never the seed, never a card not yet dealt. ``seat=None`` is
        a spectator's log: the public events only, which every seat's log holds
        too. The schema is in the README ("Event log") and each game's docs page.
        """
        ...

    def private_cards(self, seat: int) -> list[Card]:
        """The cards only ``seat`` knows (its concealed hand)."""
        ...

    def zones(self) -> dict[str, list[Card]]:
        """Every card of the deck, each in exactly one named zone (hands, table, ...)."""
        ...

    def score_breakdown(self) -> dict[str, Any]:
        """How the result was computed (bids, multipliers, pots, bonuses ...)."""
        ...

    def clone(self) -> State:
        """An independent copy (with its own lock: see the README's threading model)."""
        ...

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions` in the game's fixed action index, ascending;
        one id per legal action (``id_to_action`` gives it back)."""
        ...

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A ``num_actions``-long bool array, true exactly at :meth:`legal_action_ids`."""
        ...

    def action_to_id(self, action: Action | str) -> int:
        """The id of ``action`` in the action index, read in this state (games whose
        ids depend on the position, such as a bet size grid, say how in their docs).

        Raises :class:`~cardkit.errors.IllegalActionError` for text that names no
        action with an id.
        """
        ...

    def id_to_action(self, action_id: int) -> Action:
        """The action that ``action_id`` stands for in this state; every id of
        :meth:`legal_action_ids` gives a legal action. Raises
        :class:`~cardkit.errors.IllegalActionError` for an id outside the index or
        one that names no action here."""
        ...

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` may know now as a float32 array of the game's fixed
        ``observation_shape`` (layout in the game's docs page): nothing hidden from
        the seat changes it."""
        ...

    def to_json(self) -> str:
        """The server-side save: a JSON text that ``game.state_from_json`` turns back
        into an equal state.

        It holds the seed, from which every hidden hand and every future card can be
        rebuilt: keep it on the server and never send it to a client. What a client
        gets is :meth:`events` or :meth:`observation` for its seat.
        """
        ...


@runtime_checkable
class Game(Protocol):
    """A ruleset with its options fixed. Make one with :func:`cardkit.games.make`."""

    name: str
    num_players: int
    zero_sum: bool
    deck_name: str

    @property
    def options(self) -> Mapping[str, Any]:
        """The rule options, as keyword arguments that ``make`` accepts."""
        ...

    @property
    def max_game_length(self) -> int:
        """The most actions one deal (one hand) can take under these options."""
        ...

    @property
    def max_match_length(self) -> int:
        """The most actions one state can hold (a whole match where there is one);
        ``state_from_json`` refuses longer histories."""
        ...

    def new_state(self, seed: int | None = None, deal: str | Sequence[Any] | None = None) -> State:
        """A fresh state; ``seed`` resolves every shuffle, ``deal`` fixes the top of the deck."""
        ...

    def state_from_json(self, text: str) -> State:
        """The state that ``to_json`` wrote; any other text raises
        :class:`~cardkit.errors.InvalidNotationError`."""
        ...

    def parse_action(self, text: Action | str) -> Action:
        """The action that ``text`` names, in canonical form."""
        ...

    @property
    def num_actions(self) -> int:
        """Size of the fixed action index (ids ``0 .. num_actions - 1``)."""
        ...

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of every state's ``observation_tensor``."""
        ...

    @property
    def info(self) -> GameInfo:
        """Sizes and bounds for learning code: actions, observations, utilities."""
        ...

    def action_to_id(self, action: Action | str) -> int:
        """The fixed id of ``action``; games whose ids depend on the position (bet
        size grids, Chinese Poker's splits) raise
        :class:`~cardkit.errors.IllegalActionError` for those and answer through
        ``state.action_to_id``."""
        ...

    def id_to_action(self, action_id: int) -> Action:
        """The action of a fixed id (see :meth:`action_to_id` for position-dependent ids)."""
        ...


@runtime_checkable
class Agent(Protocol):
    """A player: picks one of the legal actions from what its seat may see."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose an action; must return one of ``legal_actions`` (or another legal one)."""
        ...
