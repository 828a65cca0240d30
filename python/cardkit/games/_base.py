"""Machinery every built-in game shares: seeding, dealing, apply-with-validation,
replay-based JSON and option checks. Rules live in the game modules, not here.

A game module subclasses :class:`BaseGame` (class attributes ``name``,
``zero_sum``, ``deck_name``; a ``state_class``) and :class:`BaseState`
(``_start``, ``current_player``, ``is_terminal``, ``legal_actions``, ``_apply``,
``returns``, ``observation``, ``private_cards``, ``zones``, ``score_breakdown``,
and the event log's ``_event_start`` and ``_event_step``).

Threads: each state holds a reentrant lock (``StateLock``, whose uncontended
``acquire`` and ``release`` parse no arguments and cost some 55% of ``RLock``'s).
:meth:`BaseState.apply` and the readers (``legal_actions``, ``observation``,
``clone``, ``to_json``, ``events`` ... see ``LOCKED_METHODS``) run under it,
including a subclass's overrides of them, which :meth:`BaseState.__init_subclass__`
wraps: one thread's check-and-mutate can never interleave with another's, and
readers see a state between two moves.
"""

from __future__ import annotations

import copy
import functools
import json
import operator
import secrets
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from cardkit._core import (
    Card,
    StateLock,
    deck,
    derive_seed,
    parse_cards,
    shuffled_deck,
    shuffled_deck_indices,
)
from cardkit.api import Action, Event, GameInfo, Observation
from cardkit.errors import (
    CardkitError,
    IllegalActionError,
    InvalidNotationError,
    InvalidSeatError,
    RuleOptionError,
    shown,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "LOCKED_METHODS",
    "MAX_ACTION_CHARS",
    "MAX_DEALS",
    "BaseGame",
    "BaseState",
    "Emit",
    "action_text",
    "check_choice",
    "check_int",
]


class Emit(Protocol):
    """Records one event of a state's log: ``seats=None`` for everyone (spectators
    too), else only those seats see it."""

    def __call__(self, event: Event, seats: Iterable[int] | None = None) -> None: ...


#: The public state methods that hold the state's lock, in :class:`BaseState` and in
#: every subclass that overrides them.
LOCKED_METHODS = (
    "apply",
    "is_legal",
    "legal_actions",
    "legal_action_ids",
    "legal_action_mask",
    "action_to_id",
    "id_to_action",
    "observation_tensor",
    "observation",
    "private_cards",
    "zones",
    "returns",
    "standings",
    "score_breakdown",
    "events",
    "to_json",
)

_F = TypeVar("_F", bound=Callable[..., Any])

_MAX_SEED = 2**64 - 1

#: The longest action text any game reads. The longest real action, a Chinese Poker
#: set of 13 cards spelled ``10♥`` with spaces between them, is under 80
#: characters; longer text is refused before it is parsed.
MAX_ACTION_CHARS = 200

#: The most deals (hands) one state plays. Matches whose rules could go on forever
#: (Hold'em and One Poker chips can flow back and forth, Spades scores can stay
#: tied, Dou Dizhu can redeal without end) stop there, so every state and every
#: save is finite (see each game's ``max_match_length``).
MAX_DEALS = 10_000

# What a save may hold besides its actions: the game name, the options, the seed
# and a deal of at most 108 cards, quoted.
_JSON_OVERHEAD = 8_192
# The JSON characters of one saved action: its canonical text (at most about 40
# characters, a Chinese Poker set) with quotes and separators, with room to spare.
_JSON_CHARS_PER_ACTION = 64


def check_int(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``, or a :class:`RuleOptionError` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleOptionError(f"option {name} must be an int, got {shown(value)}")
    if not low <= value <= high:
        raise RuleOptionError(f"option {name}={shown(value)} is out of range {low}..{high}")
    return value


#: The level ladder of the games played up through levels (Guandan, Tractor): a team's
#: level is the rank it plays at, 2 first and Ace last.
LEVELS = "23456789TJQKA"


def check_level(value: object) -> str:
    """``value`` as a level rank (``"2"``..``"A"``, ``"10"`` read as ``"T"``), or a
    :class:`RuleOptionError`."""
    if isinstance(value, str):
        text = value.strip().upper().replace("10", "T")
        if len(text) == 1 and text in LEVELS:
            return text
    raise RuleOptionError(f"option level={shown(value)} must be a rank 2..10, J, Q, K or A")


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else a :class:`RuleOptionError`."""
    if not isinstance(value, str) or value not in choices:
        raise RuleOptionError(f"option {name}={shown(value)} must be one of {', '.join(choices)}")
    return value


def action_text(text: object) -> str:
    """The text of an action argument (an :class:`Action` or a str), checked for type
    and length before any game parses it; else an :class:`IllegalActionError`."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is a string or Action, got {shown(text)}")
    if len(text) > MAX_ACTION_CHARS:
        raise IllegalActionError(
            f"an action of {len(text)} characters is longer than any action "
            f"(at most {MAX_ACTION_CHARS}): {shown(text)}"
        )
    return text


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED:
        raise RuleOptionError(f"seed must be an int in 0..2**64-1, got {shown(seed)}")
    return seed


class BaseGame(ABC):
    """A ruleset with fixed options; subclasses set the class attributes."""

    name: ClassVar[str]
    zero_sum: ClassVar[bool]
    deck_name: ClassVar[str]
    num_players: int

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The rule options, as keyword arguments that ``make`` accepts."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """The most actions one deal (one hand) can take under these rules and options."""

    @property
    def max_match_length(self) -> int:
        """The most actions one state can hold: :attr:`max_game_length` for a single
        deal; games with matches override it. ``state_from_json`` refuses longer
        histories before replaying them."""
        return self.max_game_length

    @abstractmethod
    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> BaseState:
        """A fresh state; ``seed`` resolves every shuffle, ``deal`` fixes the top of the deck."""

    def parse_action(self, text: Action | str) -> Action:
        """The canonical action for ``text``; games with shorthands override this."""
        checked = action_text(text)
        return checked if isinstance(checked, Action) else Action(checked)

    # -- the learning interface: a fixed action index and observation tensors --------

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the fixed action index (ids ``0 .. num_actions - 1``)."""

    @property
    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of every state's ``observation_tensor`` under these options."""

    @property
    @abstractmethod
    def utility_range(self) -> tuple[float, float]:
        """The lowest and the highest return one seat can finish with."""

    @abstractmethod
    def _action_id(self, action: Action) -> int | None:
        """The fixed id of canonical ``action``; ``None`` when it has none (an action
        that does not exist, or one whose id depends on the position)."""

    @abstractmethod
    def _id_action(self, action_id: int) -> Action | None:
        """The action of an id in range; ``None`` when only a position can tell."""

    @property
    def info(self) -> GameInfo:
        """Sizes and bounds for learning code (see :class:`~cardkit.api.GameInfo`)."""
        low, high = self.utility_range
        return GameInfo(
            name=self.name,
            num_players=self.num_players,
            num_actions=self.num_actions,
            observation_shape=self.observation_shape,
            max_game_length=self.max_game_length,
            max_match_length=self.max_match_length,
            min_utility=low,
            max_utility=high,
            zero_sum=self.zero_sum,
            max_chance_outcomes=len(deck(self.deck_name)),
        )

    def check_action_id(self, action_id: object) -> int:
        """``action_id`` as an int of the action index (numpy integers too); anything
        else is an :class:`IllegalActionError` naming it."""
        if isinstance(action_id, bool) or not hasattr(action_id, "__index__"):
            raise IllegalActionError(f"an action id is an int, got {shown(action_id)}")
        index = operator.index(action_id)
        if not 0 <= index < self.num_actions:
            raise IllegalActionError(
                f"action id {shown(index)} is outside {self.name}'s index 0..{self.num_actions - 1}"
            )
        return index

    def action_to_id(self, action: Action | str) -> int:
        """The fixed id of ``action``. Where an id depends on the position (a bet size
        grid, a split of the hand in play) this raises :class:`IllegalActionError`
        and ``state.action_to_id`` answers."""
        parsed = self.parse_action(action)
        found = self._action_id(parsed)
        if found is None:
            raise IllegalActionError(
                f"{shown(parsed.text)} has no fixed id in {self.name}: "
                "its id depends on the position (use state.action_to_id)"
            )
        return found

    def id_to_action(self, action_id: int) -> Action:
        """The action of a fixed id; where the action depends on the position this
        raises :class:`IllegalActionError` and ``state.id_to_action`` answers."""
        index = self.check_action_id(action_id)
        found = self._id_action(index)
        if found is None:
            raise IllegalActionError(
                f"action id {index} of {self.name} names an action only in a position "
                "(use state.id_to_action)"
            )
        return found

    def state_from_json(self, text: str | bytes) -> BaseState:
        """Rebuild the state that ``to_json`` wrote by replaying its actions from its seed.

        A text that is not such a save raises :class:`InvalidNotationError` naming
        what is wrong; texts longer than any save of this game and histories longer
        than :attr:`max_match_length` are refused before they are read.
        """
        if not isinstance(text, (str, bytes)):
            raise InvalidNotationError(f"a state JSON is a str, got {shown(text)}")
        limit = _JSON_OVERHEAD + _JSON_CHARS_PER_ACTION * self.max_match_length
        if len(text) > limit:
            raise InvalidNotationError(
                f"a state JSON of {len(text)} characters is longer than any {self.name} "
                f"save with these options (at most {limit})"
            )
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            # RecursionError: deeply nested arrays ("[[[[...") in a text under the limit.
            raise InvalidNotationError(f"not a cardkit state JSON: {shown(str(exc))}") from exc
        if not isinstance(data, dict) or not {"game", "options", "seed", "deal", "history"} <= set(
            data
        ):
            raise InvalidNotationError(
                "a state JSON is an object with game, options, seed, deal and history, "
                f"got {shown(data)}"
            )
        name, options = data["game"], data["options"]
        seed, dealt, history = data["seed"], data["deal"], data["history"]
        if name != self.name or options != json.loads(json.dumps(self.options)):
            raise InvalidNotationError(
                f"state JSON is for {shown(name)} with {shown(options)}, "
                f"not {self.name} with {shown(self.options)}"
            )
        if not isinstance(history, list) or not all(isinstance(a, str) for a in history):
            raise InvalidNotationError(
                f"a state JSON history is a list of action strings, got {shown(history)}"
            )
        if len(history) > self.max_match_length:
            raise InvalidNotationError(
                f"a history of {len(history)} actions is longer than any {self.name} "
                f"game with these options (at most {self.max_match_length})"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            # A null seed would silently deal a random game instead of the saved one.
            raise InvalidNotationError(f"a state JSON seed is an int, got {shown(seed)}")
        if dealt is not None and not (
            isinstance(dealt, str)
            or (isinstance(dealt, list) and all(isinstance(c, str) for c in dealt))
        ):
            raise InvalidNotationError(
                f"a state JSON deal is null or a list of card strings, got {shown(dealt)}"
            )
        state = self.new_state(seed=seed, deal=dealt)
        for i, action in enumerate(history):
            try:
                state.apply(action)
            except CardkitError as exc:
                # The error usually quotes the action too, so it is shown shorter here.
                raise InvalidNotationError(
                    f"history[{i}] {shown(action, 40)} cannot be replayed: {exc}"
                ) from exc
        return state

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BaseGame)
            and type(other) is type(self)
            and self.options == other.options
        )

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.options, sort_keys=True)))

    def __deepcopy__(self, memo: dict[int, Any]) -> BaseGame:
        # Games are immutable rule sets, so cloned states share theirs.
        return self


def holds_lock(method: _F) -> _F:
    """Mark ``method`` as taking its state's lock itself (its body acquires and
    releases ``self._lock``), so :meth:`BaseState.__init_subclass__` leaves it
    unwrapped: the per-move methods of the hot path save a wrapper's frame."""
    method._holds_lock = True  # type: ignore[attr-defined]
    return method


def _locked(method: _F) -> _F:
    """``method`` run under its state's lock (the common one-argument and
    no-argument shapes get wrappers without ``*args``: they are the hot path, and
    ``acquire``/``release`` cost about half of a ``with`` block on the lock)."""
    code = getattr(method, "__code__", None)
    plain = (
        code is not None
        and not getattr(method, "__defaults__", None)
        and not code.co_kwonlyargcount
        and not code.co_flags & 0x0C  # no *args, no **kwargs
    )
    positional = code.co_argcount if plain and code is not None else -1
    wrapper: Callable[..., Any]
    if positional == 1:

        def wrapper(self: BaseState) -> Any:
            lock = self._lock
            lock.acquire()
            try:
                return method(self)
            finally:
                lock.release()

    elif positional == 2:

        def wrapper(self: BaseState, arg: Any) -> Any:
            lock = self._lock
            lock.acquire()
            try:
                return method(self, arg)
            finally:
                lock.release()

    else:

        def wrapper(self: BaseState, *args: Any, **kwargs: Any) -> Any:
            lock = self._lock
            lock.acquire()
            try:
                return method(self, *args, **kwargs)
            finally:
                lock.release()

    return holds_lock(functools.wraps(method)(wrapper))  # type: ignore[return-value]


def _locked_clone(method: _F) -> _F:
    """A subclass's ``clone`` run under the lock; the copy gets its own lock and
    event log (fast copies start from ``__dict__`` and would share them)."""

    @functools.wraps(method)
    def clone(self: BaseState) -> BaseState:
        lock = self._lock
        lock.acquire()
        try:
            twin: BaseState = method(self)
        finally:
            lock.release()
        # _own_lock inlined: clones are the hot path of search agents.
        twin._lock = StateLock()
        twin._events = None
        return twin

    return holds_lock(clone)  # type: ignore[return-value]


def _restore(name: str, options: dict[str, Any], text: str) -> BaseState:
    """Unpickle a state: replay its JSON save (see :meth:`BaseState.__reduce__`)."""
    from cardkit.games import make

    state: BaseState = make(name, **options).state_from_json(text)  # type: ignore[assignment]
    return state


class _EventLog:
    """A state's event log, built by replaying its moves on a replica of the deal:
    the game's ``_event_step`` sees each move's before and after, and the live state
    pays nothing for the log until ``events`` is first called."""

    __slots__ = ("applied", "entries", "replica")

    def __init__(self, replica: BaseState) -> None:
        self.replica = replica
        self.applied = 0
        # (seats that see it or None for everyone, the event as JSON text).
        self.entries: list[tuple[frozenset[int] | None, str]] = []

    def emit(self, event: Event, seats: Iterable[int] | None = None) -> None:
        """Record ``event`` for ``seats`` (``None``: everyone, spectators too)."""
        self.entries.append((None if seats is None else frozenset(seats), json.dumps(event)))


class BaseState(ABC):
    """Shared state plumbing: seed, deck order, validated ``apply``, JSON by replay,
    the per-seat event log and the per-state lock."""

    _lock: StateLock
    _events: _EventLog | None

    def __init__(
        self, game: BaseGame, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> None:
        self._own_lock()
        self._game = game
        self._seed = secrets.randbits(64) if seed is None else _check_seed(seed)
        self._deal = None if deal is None else [str(c) for c in self._check_deal(deal)]
        self._history: list[Action] = []
        self._start()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap the subclass's own versions of ``LOCKED_METHODS`` and ``clone`` so
        that they hold the state's lock like the base versions do."""
        super().__init_subclass__(**kwargs)
        for name in (*LOCKED_METHODS, "clone"):
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "_holds_lock", False):
                setattr(cls, name, _locked_clone(method) if name == "clone" else _locked(method))

    def _own_lock(self) -> None:
        """Give this state a lock and event log of its own (new states and copies)."""
        self._lock = StateLock()
        self._events = None

    # -- what each game provides ------------------------------------------------

    @abstractmethod
    def _start(self) -> None:
        """Set up the first deal (use :meth:`deck_order`)."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The current player's legal actions."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Play a legal action (already checked by :meth:`apply`)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result."""

    def standings(self) -> list[float]:
        """Each seat's result over the deals scored so far, in the units of
        :meth:`returns` (what it would be if the match stopped now); equal to
        ``returns()`` once the state is over. Single-deal games have nothing scored
        before the end, so the default is :meth:`returns` itself."""
        return self.returns()

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now."""

    @abstractmethod
    def private_cards(self, seat: int) -> list[Card]:
        """The cards only ``seat`` knows."""

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every card of the deck in exactly one named zone."""

    @abstractmethod
    def score_breakdown(self) -> dict[str, Any]:
        """How the result was computed."""

    @abstractmethod
    def _event_start(self, emit: Emit) -> None:
        """Emit the events of the state as dealt (called on a fresh replica)."""

    @abstractmethod
    def _event_step(self, action: Action, emit: Emit) -> None:
        """Apply ``action`` to this replica and emit what each audience saw happen."""

    @abstractmethod
    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Fill ``out`` (zeros of the game's ``observation_shape``) with what ``seat``
        may know now, in the layout the game's docs page gives."""

    def _action_id(self, action: Action) -> int | None:
        """The id of canonical ``action`` in this position: the game's fixed id
        unless a game's ids depend on the position."""
        return self._game._action_id(action)

    def _id_action(self, action_id: int) -> Action | None:
        """The action of an id in range in this position, or ``None``."""
        return self._game._id_action(action_id)

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal.

        The default checks membership in :meth:`legal_actions`; games override it to
        give rule-specific reasons or to accept free amounts.
        """
        if action in self.legal_actions():
            return None
        return f"{action} is not legal now"

    # -- shared behaviour ---------------------------------------------------------

    @property
    def game(self) -> BaseGame:
        """The game this state plays."""
        return self._game

    @property
    def seed(self) -> int:
        """The seed every chance event of this state derives from."""
        return self._seed

    @property
    def history(self) -> list[Action]:
        """Every action applied so far (a copy)."""
        return list(self._history)

    def deck_order(self, deal_number: int = 0) -> list[Card]:
        """The deck for deal ``deal_number``: shuffled by ``derive_seed(seed, n)``.

        For deal 0 the caller's ``deal`` cards come first, in the given order, and the
        rest of the deck follows in its seeded shuffle order.
        """
        shuffled = shuffled_deck(self._game.deck_name, self._deck_seed(deal_number))
        if deal_number != 0 or not self._deal:
            return shuffled
        fixed = [Card(c) for c in self._deal]
        rest = Counter(shuffled) - Counter(fixed)
        tail = []
        for card in shuffled:
            if rest[card]:
                rest[card] -= 1
                tail.append(card)
        return fixed + tail

    def _deck_seed(self, deal_number: int) -> int:
        """The shuffle seed of deal ``deal_number``: sub-seed ``deal_number`` of the seed."""
        return derive_seed(self._seed, deal_number)

    def _deck_indices(self, deal_number: int = 0) -> bytes:
        """:meth:`deck_order` as card indices (``Card.index``), one byte a card: for
        games that sort a deal as small ints rather than as ``Card`` objects."""
        if deal_number != 0 or not self._deal:
            return shuffled_deck_indices(self._game.deck_name, self._deck_seed(deal_number))
        return bytes(card.index for card in self.deck_order(deal_number))

    def _check_deal(self, deal: str | Sequence[Any]) -> list[Card]:
        cards = parse_cards(deal)
        extra = Counter(cards) - Counter(deck(self._game.deck_name))
        if extra:
            names = " ".join(str(c) for c in sorted(extra.elements()))
            raise RuleOptionError(f"deal has cards the {self._game.deck_name} deck lacks: {names}")
        return cards

    def check_seat(self, seat: object) -> int:
        """``seat`` if it names a seat of this game, else :class:`InvalidSeatError`."""
        n = self._game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidSeatError(f"seat must be an int in 0..{n - 1}, got {shown(seat)}")
        return seat

    @_locked
    def is_legal(self, action: Action | str) -> bool:
        """Whether ``apply(action)`` would succeed; never raises, whatever ``action`` is."""
        if self.is_terminal:
            return False
        try:
            return self.illegal_reason(self._game.parse_action(action)) is None
        except CardkitError:
            # Text that does not parse, or an Action naming no card, is never legal.
            return False

    @_locked
    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no change.

        The check and the move happen under the state's lock, so threads sharing a
        state take turns: a move chosen before another thread moved is checked
        against the state as it is now.
        """
        if self.is_terminal:
            raise IllegalActionError(f"the game is over; {shown(action)} cannot be played")
        parsed = self._game.parse_action(action)
        reason = self.illegal_reason(parsed)
        if reason is not None:
            raise IllegalActionError(reason)
        self._apply(parsed)
        self._history.append(parsed)

    # -- the learning interface --------------------------------------------------

    @_locked
    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending, one per legal action."""
        ids = []
        for act in self.legal_actions():
            found = self._action_id(act)
            if found is None:
                raise AssertionError(f"{self._game.name} lists {act!r} without an id")
            ids.append(found)
        ids.sort()
        return ids

    @_locked
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A ``num_actions``-long bool array, true exactly at :meth:`legal_action_ids`."""
        import numpy as np

        mask = np.zeros(self._game.num_actions, dtype=np.bool_)
        mask[self.legal_action_ids()] = True
        return mask

    @_locked
    def action_to_id(self, action: Action | str) -> int:
        """The id of ``action`` in this position; text that names no action with an
        id raises :class:`IllegalActionError` saying why (the hooks only answer
        ``None``, so the reason is given here, once for every game)."""
        parsed = self._game.parse_action(action)
        found = self._action_id(parsed)
        if found is None:
            reason = self.illegal_reason(parsed)
            why = f": {reason}" if reason is not None else ""
            raise IllegalActionError(f"{shown(parsed.text)} has no action id now{why}")
        return found

    @_locked
    def id_to_action(self, action_id: int) -> Action:
        """The action ``action_id`` stands for in this position (legal whenever the id
        is in :meth:`legal_action_ids`)."""
        index = self._game.check_action_id(action_id)
        found = self._id_action(index)
        if found is None:
            raise IllegalActionError(f"action id {index} names no action in this position")
        return found

    @_locked
    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` may know now as a float32 array of the game's
        ``observation_shape`` (layout in the game's docs page)."""
        import numpy as np

        seat = self.check_seat(seat)
        out = np.zeros(self._game.observation_shape, dtype=np.float32)
        self._write_observation(seat, out)
        return out

    @_locked_clone
    def clone(self) -> BaseState:
        """An independent deep copy (games override this with cheaper copies)."""
        twin = object.__new__(type(self))
        memo = {id(self): twin}
        for key, value in self.__dict__.items():
            if key not in ("_lock", "_events"):
                twin.__dict__[key] = copy.deepcopy(value, memo)
        return twin

    def __copy__(self) -> BaseState:
        with self._lock:
            twin = object.__new__(type(self))
            twin.__dict__.update(self.__dict__)
        twin._own_lock()
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> BaseState:
        # The game's clone is a deep copy that knows its engine objects (which
        # deepcopy cannot copy) and gives the copy a lock of its own.
        twin = memo[id(self)] = self.clone()
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        # Locks and the engine's Rust objects do not pickle; the JSON save rebuilds
        # the state exactly (by replay) in the unpickling process.
        return (_restore, (self._game.name, self._game.options, self.to_json()))

    @_locked
    def events(self, seat: int | None = None) -> list[Event]:
        """The event log ``seat`` may see, oldest first (``None``: a spectator's,
        public events only). See :meth:`cardkit.api.State.events`."""
        viewer = None if seat is None else self.check_seat(seat)
        log = self._events
        if log is None:
            replica = self._game.new_state(seed=self._seed, deal=self._deal)
            log = self._events = _EventLog(replica)
            replica._event_start(log.emit)
            replica._emit_end(log.emit)
        history = self._history
        while log.applied < len(history):
            log.replica._event_step(history[log.applied], log.emit)
            log.replica._emit_end(log.emit)
            log.applied += 1
        return [json.loads(text) for seats, text in log.entries if seats is None or viewer in seats]

    def _emit_end(self, emit: Emit) -> None:
        """The ``end`` event, once the game is over."""
        if self.is_terminal:
            emit({"type": "end", "returns": self.returns(), "score": self._public_score()})

    def _public_score(self) -> dict[str, Any]:
        """The final score as every seat may see it; games whose breakdown names
        cards never shown override this."""
        return self.score_breakdown()

    def _emit_hands(self, emit: Emit, hands: Sequence[Sequence[Card]]) -> None:
        """One private ``hand`` event per seat holding cards: its whole hand."""
        for seat, hand in enumerate(hands):
            if hand:
                emit({"type": "hand", "seat": seat, "cards": [str(c) for c in hand]}, (seat,))

    @_locked
    def to_json(self) -> str:
        """The server-side save: seed, fixed deal, options and actions, enough to
        rebuild this exact state. It is secret (the seed rebuilds every hidden hand
        and every future card): never send it to a client; send ``events(seat)`` or
        ``observation(seat)``."""
        return json.dumps(
            {
                "game": self._game.name,
                "options": self._game.options,
                "seed": self._seed,
                "deal": self._deal,
                "history": [str(a) for a in self._history],
            }
        )

    def _identity(self) -> tuple[Any, ...]:
        """What makes two states equal, read under this state's lock: a copy of the
        history, so the other state is read after this lock is released."""
        with self._lock:
            return (type(self), self._game, self._seed, self._deal, list(self._history))

    def __eq__(self, other: object) -> bool:
        """Equal states play the same game (type and options) from the same seed and
        fixed deal through the same actions; the lock and event log are not compared.

        Each state's lock is taken in turn, never both at once, so two threads
        comparing ``a == b`` and ``b == a`` cannot deadlock.
        """
        if other is self:
            return True
        if not isinstance(other, BaseState):
            return NotImplemented
        return self._identity() == other._identity()

    # States are mutable: a hash would change with every move.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} seed={self._seed} moves={len(self._history)} "
            f"to_act={self.current_player}>"
        )
