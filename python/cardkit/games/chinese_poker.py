"""13-card Chinese Poker (十三张): set front / middle / back, compare pair by pair.

Rules: the Chinese Poker part of ``004_b4f6f7483e8a959c.txt`` (clauses ``CP-*``),
with the poker rankings of the same file. See ``docs/chinese_poker.md``.

- 52 cards, 13 to each of four positions even when fewer play (2-4 players).
- Each player either sets his hand, ``set AhKdQd / 9s9h5d5c2s / TcJcQcKcAc``
  (front 3 / middle 5 / back 5; spaces optional), or declares an automatic win it
  qualifies for: ``declare dragon``, ``declare six_pairs``, ``declare three_flushes``,
  ``declare three_straights``. Sets are simultaneous: seats act in turn, but no
  observation shows another seat's set until every seat has acted.
- A set with the wrong number of cards in a segment is rejected; a set out of ranking
  order is accepted as improperly set and pays four points to every other player.
- ``legal_actions()`` lists a representative handful (every qualifying declaration,
  a few properly set arrangements spread over the 72,072 splits and one misordered
  set); ``apply``/``is_legal`` accept any set of the player's 13 cards.

:func:`score` scores a list of set strings without a game (analysis, apps) and
:func:`breakdown` explains it pair by pair, segment by segment.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    ChinesePokerRules,
    chinese_poker_automatic_wins,
    chinese_poker_rank_set,
    chinese_poker_sample_sets,
    parse_cards,
)
from cardkit._validate import is_sequence
from cardkit.api import Action, Observation
from cardkit.errors import CardkitError, IllegalActionError, RuleOptionError, shown
from cardkit.games._base import BaseGame, BaseState, Emit, action_text, check_choice, check_int
from cardkit.games._phase import StrEnum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "AUTOMATIC_WINS",
    "NUM_SPLITS",
    "SEGMENTS",
    "VARIANTS",
    "ChinesePoker",
    "ChinesePokerState",
    "ParsedSet",
    "Phase",
    "breakdown",
    "parse_set",
    "score",
]

#: The point systems of the seed text.
VARIANTS = ("basic", "eastern", "western", "mandarin")
#: Declarable automatic wins, strongest first (only the Dragon outranks the rest).
AUTOMATIC_WINS = ("dragon", "six_pairs", "three_flushes", "three_straights")
#: The three parts of a set, in the order of the set string.
SEGMENTS = ("front", "middle", "back")
#: What an improperly set hand pays to every other player (CP-30).
IMPROPER_PENALTY = 4
#: Positions dealt every hand, occupied or not (CP-04).
POSITIONS = 4
HAND_SIZE = 13
SEGMENT_SIZES = (3, 5, 5)

# The eastern bonus table (CP-33..CP-35), by segment and bonus class.
_BONUS = {
    ("back", "straight_flush"): 5,
    ("back", "quads"): 4,
    ("middle", "straight_flush"): 10,
    ("middle", "quads"): 8,
    ("middle", "full_house"): 2,
    ("front", "trips"): 3,
}

# How many representative proper sets ``legal_actions`` lists.
_LISTED_SETS = 6

# The split index (docs/chinese_poker.md, "Learning interface"): the front's
# positions in the sorted hand, then the middle's among the ten left, each in
# lexicographic order (the order of the engine's split table).
_FRONTS = list(combinations(range(HAND_SIZE), SEGMENT_SIZES[0]))
_MIDDLES = list(combinations(range(HAND_SIZE - SEGMENT_SIZES[0]), SEGMENT_SIZES[1]))
_FRONT_RANK = {front: i for i, front in enumerate(_FRONTS)}
_MIDDLE_RANK = {middle: i for i, middle in enumerate(_MIDDLES)}
#: Ways to split 13 cards into a front of 3, a middle of 5 and a back of 5: the
#: ids ``0 .. 72,071``; the declarations of :data:`AUTOMATIC_WINS` follow.
NUM_SPLITS = len(_FRONTS) * len(_MIDDLES)

#: One block of the observation tensor per seat (observer first, then by seat
#: number after it): acted, front, middle, back, the declaration, improper, points.
_ACTED, _SEGMENT_PLANES, _DECLARED = 0, 1, 1 + 3 * 52
_IMPROPER = _DECLARED + len(AUTOMATIC_WINS)
_POINTS = _IMPROPER + 1
_BLOCK = _POINTS + 1


class Phase(StrEnum):
    """Where a Chinese Poker deal stands; each member equals its lower-case value."""

    #: Each seat in turn sets its hand front / middle / back (CP-05) or declares
    #: an automatic win (CP-19); no seat sees another's set yet.
    SET = "set"
    #: Every seat has acted: the hands are opened and each pair is compared (CP-11).
    SHOWDOWN = "showdown"


def _segment_text(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in sorted(cards, reverse=True))


@dataclass(frozen=True)
class ParsedSet:
    """A set as three card groups (sizes unchecked), highest card first in each."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    @property
    def segments(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        """Front, middle and back."""
        return (self.front, self.middle, self.back)

    @property
    def cards(self) -> list[Card]:
        """All cards of the set."""
        return [*self.front, *self.middle, *self.back]

    @property
    def text(self) -> str:
        """Canonical form: ``AhKdQd / 9s9h5d5c2s / AcKcQcJcTc``."""
        return " / ".join(_segment_text(s) for s in self.segments)

    @property
    def sized(self) -> bool:
        """Whether the segments hold 3, 5 and 5 cards."""
        return tuple(len(s) for s in self.segments) == SEGMENT_SIZES


def parse_set(text: str) -> ParsedSet:
    """Parse ``"[set ]F / M / B"``; bad cards or shape raise :class:`IllegalActionError`
    (as does text longer than any set, before it is read)."""
    body = action_text(text).strip()
    if body.startswith("set"):
        body = body[3:]
    parts = body.split("/")
    if len(parts) != 3:
        raise IllegalActionError(
            f"a set is front / middle / back separated by '/', got {shown(text)}"
        )
    try:
        groups = [tuple(sorted(parse_cards(p), reverse=True)) for p in parts]
    except CardkitError as exc:
        raise IllegalActionError(f"bad card in the set: {exc}") from exc
    return ParsedSet(groups[0], groups[1], groups[2])


# -- scoring ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    """What one player brings to the showdown."""

    kind: str  # "set", "improper" or "declared"
    text: str
    values: tuple[int, ...] = ()
    categories: tuple[str, ...] = ()
    made: tuple[str, ...] = ()
    declared: str | None = None


def _rank_entry(parsed: ParsedSet) -> _Entry:
    if not parsed.sized:
        # CP-29: the wrong number of cards in a part is an improperly set hand.
        return _Entry("improper", parsed.text)
    values, categories, made, proper = chinese_poker_rank_set(*parsed.segments)
    return _Entry(
        "set" if proper else "improper",
        parsed.text,
        tuple(values),
        tuple(categories),
        tuple(made),
    )


def _rules(variant: str, options: dict[str, Any]) -> ChinesePokerRules:
    check_choice("variant", variant, VARIANTS)
    try:
        return ChinesePokerRules(variant=variant, **options)
    except TypeError as exc:
        raise RuleOptionError(f"bad Chinese Poker scoring option: {exc}") from exc


def _segment_points(rules: ChinesePokerRules, segment: str, made: str) -> tuple[int, int]:
    """(regular value, added bonus) the winner of ``segment`` earns with ``made``."""
    bonus = _BONUS.get((segment, made))
    if rules.variant == "basic" or (rules.variant == "western" and not rules.western_bonus):
        return 1, 0
    if rules.variant in ("eastern", "western"):
        # CP-37: when a bonus hand wins, it earns only its bonus points.
        return (bonus if bonus is not None else 1), 0
    # Mandarin: front trips triple the point value (CP-43); other bonuses add on (CP-45).
    if segment == "front":
        return (3 if made == "trips" else 1), 0
    return 1, bonus or 0


def _has_majority(rules: ChinesePokerRules, won: int, lost: int) -> bool:
    if rules.majority == "two_of_three":
        return won >= 2
    return won > lost


def _side(
    rules: ChinesePokerRules, entry: _Entry, won: list[str], lost: int, home_run: bool
) -> dict[str, Any]:
    """One side's gross points against one opponent, itemised."""
    regular = bonus = 0
    for seg in won:
        r, b = _segment_points(rules, seg, entry.made[SEGMENTS.index(seg)])
        regular += r
        bonus += b
    item: dict[str, Any] = {"segments_won": won, "regular": regular, "bonus": bonus}
    total = regular + bonus
    if rules.variant in ("basic", "western"):
        majority = _has_majority(rules, len(won), lost)
        item["majority"] = int(majority)
        total += int(majority)
    elif rules.variant == "mandarin":
        shot = len(won) == 3
        item["shot"] = shot
        item["home_run"] = home_run
        add = rules.shot == "add"
        if home_run:
            factor = 4 if add else 3
        elif shot:
            factor = 3 if add else 2
        else:
            factor = 1
        total = regular * factor + bonus
    item["total"] = total
    return item


def _automatic_points(rules: ChinesePokerRules, name: str) -> int:
    return rules.dragon_points if name == "dragon" else rules.automatic_win_points


def _improper_net(a: _Entry, b: _Entry) -> int:
    """What ``b`` pays ``a`` for improper sets alone: four from each improper set to
    every other player (CP-30), so two improper sets exchange nothing."""
    return (b.kind == "improper") * IMPROPER_PENALTY - (a.kind == "improper") * IMPROPER_PENALTY


def _pair(
    rules: ChinesePokerRules, a: _Entry, b: _Entry, home_runs: tuple[bool, bool]
) -> dict[str, Any]:
    """How ``a`` and ``b`` settle; ``net`` is what ``b`` pays ``a``."""
    if a.declared is not None or b.declared is not None:
        # A declaration settles the pair before the hands are opened (CP-19, CP-20),
        # and an improper set still pays its four to the declarer, one of "all of
        # the other players" (CP-30): the declarer collects both.
        level_a = -1 if a.declared is None else int(a.declared == "dragon")
        level_b = -1 if b.declared is None else int(b.declared == "dragon")
        if level_a > level_b:
            assert a.declared is not None
            net = _automatic_points(rules, a.declared)
        elif level_b > level_a:
            assert b.declared is not None
            net = -_automatic_points(rules, b.declared)
        else:
            net = 0  # equal declarations: the rules rank only the Dragon above the rest
        return {"settled_by": "automatic_win", "net": net + _improper_net(a, b)}
    if a.kind == "improper" or b.kind == "improper":
        return {"settled_by": "improper_set", "net": _improper_net(a, b)}
    segments = []
    won_a: list[str] = []
    won_b: list[str] = []
    for i, seg in enumerate(SEGMENTS):
        va, vb = a.values[i], b.values[i]
        winner = 0 if va > vb else 1 if vb > va else None
        if winner == 0:
            won_a.append(seg)
        elif winner == 1:
            won_b.append(seg)
        segments.append(
            {
                "segment": seg,
                "hands": [a.categories[i], b.categories[i]],
                "winner": winner,
            }
        )
    side_a = _side(rules, a, won_a, len(won_b), home_runs[0])
    side_b = _side(rules, b, won_b, len(won_a), home_runs[1])
    return {
        "settled_by": "showdown",
        "segments": segments,
        "sides": [side_a, side_b],
        "net": side_a["total"] - side_b["total"],
    }


def _sweeps(a: _Entry, b: _Entry) -> bool:
    if a.kind != "set" or b.kind != "set":
        return False
    return all(x > y for x, y in zip(a.values, b.values, strict=True))


def _settle(rules: ChinesePokerRules, entries: Sequence[_Entry]) -> dict[str, Any]:
    n = len(entries)
    # CP-48: a home run needs four hands and three sweeps on the showdown.
    home_runs = [
        rules.variant == "mandarin"
        and n == 4
        and all(_sweeps(e, o) for j, o in enumerate(entries) if j != i)
        for i, e in enumerate(entries)
    ]
    totals = [0] * n
    pairs = []
    for i in range(n):
        for j in range(i + 1, n):
            result = _pair(rules, entries[i], entries[j], (home_runs[i], home_runs[j]))
            totals[i] += result["net"]
            totals[j] -= result["net"]
            pairs.append({"seats": [i, j], **result})
    return {
        "variant": rules.variant,
        "entries": [
            {
                "seat": i,
                "status": e.kind,
                "set": e.text,
                "declared": e.declared,
                "hands": list(e.categories),
            }
            for i, e in enumerate(entries)
        ],
        "home_runs": home_runs,
        "pairs": pairs,
        "points": totals,
    }


def _entry_of(text: str) -> _Entry:
    words = text.split()
    if words and words[0] == "declare":
        if len(words) < 2 or words[1] not in AUTOMATIC_WINS:
            raise IllegalActionError(
                f"{shown(text)}: declare one of {', '.join(AUTOMATIC_WINS)} "
                "followed by the 13 cards"
            )
        try:
            hand = parse_cards(" ".join(words[2:]).replace("/", " "))
        except CardkitError as exc:
            raise IllegalActionError(f"bad card in the declared hand: {exc}") from exc
        if words[1] not in chinese_poker_automatic_wins(hand):
            raise IllegalActionError(f"{shown(text)}: the hand does not qualify for {words[1]}")
        return _Entry("declared", _segment_text(hand), declared=words[1])
    parsed = parse_set(text)
    if len(parsed.cards) != HAND_SIZE or len(set(parsed.cards)) != HAND_SIZE:
        raise IllegalActionError(f"{shown(text)}: a set uses 13 distinct cards")
    return _rank_entry(parsed)


def _table(sets: Sequence[str]) -> list[_Entry]:
    if not is_sequence(sets) or not 2 <= len(sets) <= POSITIONS:
        raise RuleOptionError(f"score a list of 2 to 4 set strings, got {shown(sets)}")
    entries = [_entry_of(action_text(s)) for s in sets]
    seen: list[Card] = []
    for e in entries:
        seen.extend(parse_cards(e.text.replace("/", " ")))
    if len(seen) != len(set(seen)):
        raise IllegalActionError("the sets share a card")
    return entries


def breakdown(sets: Sequence[str], variant: str = "basic", **options: Any) -> dict[str, Any]:
    """Every pairwise comparison, segment by segment, with bonuses and totals.

    ``sets`` holds one string per player: ``"AhKdQd / 9s9h5d5c2s / TcJcQcKcAc"``
    (a leading ``set`` is allowed) or ``"declare dragon <13 cards>"``. A set of 13
    cards with wrong segment sizes is scored as improperly set (CP-29). ``options``
    are the scoring options of :class:`ChinesePoker`.
    """
    return _settle(_rules(variant, options), _table(sets))


def score(sets: Sequence[str], variant: str = "basic", **options: Any) -> list[int]:
    """Points per player for ``sets`` (see :func:`breakdown`); they sum to zero."""
    points: list[int] = breakdown(sets, variant, **options)["points"]
    return points


# -- the game ----------------------------------------------------------------------


class ChinesePoker(BaseGame):
    """13-card Chinese Poker for 2-4 players with one of four point systems.

    Options (defaults in brackets): ``players`` [4]; ``variant`` [basic]: basic,
    eastern, western or mandarin; ``automatic_win_points`` [3] and ``dragon_points``
    [13]: what a declared automatic win takes from each opponent; ``majority``
    [two_of_three] or more_segments; ``western_bonus`` [False]: western also pays
    the eastern bonus hands; ``shot`` [multiply] or add: how the mandarin shot and
    home run apply to the regular points; ``point_value`` [1]: what one point is
    worth in this game (CP-10), so ``returns()`` are points times it.
    """

    name = "chinese_poker"
    zero_sum = True
    deck_name = "standard52"

    def __init__(
        self,
        players: int = 4,
        variant: str = "basic",
        automatic_win_points: int = 3,
        dragon_points: int = 13,
        majority: str = "two_of_three",
        western_bonus: bool = False,
        shot: str = "multiply",
        point_value: int = 1,
    ) -> None:
        self.num_players = check_int("players", players, 2, POSITIONS)
        self.variant = check_choice("variant", variant, VARIANTS)
        self.automatic_win_points = check_int("automatic_win_points", automatic_win_points, 0, 1000)
        self.dragon_points = check_int("dragon_points", dragon_points, 0, 1000)
        self.majority = check_choice("majority", majority, ("two_of_three", "more_segments"))
        if not isinstance(western_bonus, bool):
            raise RuleOptionError(
                f"option western_bonus must be a bool, got {shown(western_bonus)}"
            )
        self.western_bonus = western_bonus
        self.shot = check_choice("shot", shot, ("multiply", "add"))
        self.point_value = check_int("point_value", point_value, 1, 1_000_000)
        self.rules = ChinesePokerRules(
            variant=self.variant,
            automatic_win_points=self.automatic_win_points,
            dragon_points=self.dragon_points,
            majority=self.majority,
            western_bonus=self.western_bonus,
            shot=self.shot,
        )

    @property
    def max_game_length(self) -> int:
        """Each seat sets or declares once, so a deal is one action per player."""
        return self.num_players

    @property
    def num_actions(self) -> int:
        """72,076 ids whatever the options: the 72,072 splits of the hand in play,
        then ``declare <name>`` for each of :data:`AUTOMATIC_WINS`."""
        return NUM_SPLITS + len(AUTOMATIC_WINS)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(52 + 163 * players,)``: the own hand, then one block per seat."""
        return (52 + _BLOCK * self.num_players,)

    def pair_bound(self) -> int:
        """The most points one seat can take from one other under these rules.

        A showdown pays at most every segment's best: one point each plus the
        majority point (basic, western); the bonus of trips in front, a straight
        flush in the middle and one at the back (eastern, western with bonuses,
        plus the majority point); in mandarin front trips triple that segment's
        point and the regular points are multiplied by the home run (four
        players) or the shot, the middle and back bonuses added. A declaration
        takes the larger of the automatic win's points, plus four from an
        improperly set opponent; an improper set alone pays four.
        """
        best = {seg: max(v for (s, _), v in _BONUS.items() if s == seg) for seg in SEGMENTS}
        variant = self.variant
        if variant == "basic" or (variant == "western" and not self.western_bonus):
            showdown = len(SEGMENTS) + 1
        elif variant in ("eastern", "western"):
            showdown = sum(best.values()) + (variant == "western")
        else:
            add = self.shot == "add"
            factor = (4 if add else 3) if self.num_players == POSITIONS else (3 if add else 2)
            regular = best["front"] + len(SEGMENTS) - 1
            showdown = regular * factor + best["middle"] + best["back"]
        declared = max(self.dragon_points, self.automatic_win_points) + IMPROPER_PENALTY
        return max(showdown, declared, IMPROPER_PENALTY)

    @property
    def utility_range(self) -> tuple[float, float]:
        """Each of the other seats pays at most :meth:`pair_bound` points (and is
        paid as much at worst), times ``point_value``."""
        bound = float(self.pair_bound() * (self.num_players - 1) * self.point_value)
        return (-bound, bound)

    def _action_id(self, action: Action) -> int | None:
        args = action.args
        if action.kind == "declare" and len(args) == 1 and args[0] in AUTOMATIC_WINS:
            return NUM_SPLITS + AUTOMATIC_WINS.index(args[0])
        return None

    def _id_action(self, action_id: int) -> Action | None:
        if action_id >= NUM_SPLITS:
            return Action(f"declare {AUTOMATIC_WINS[action_id - NUM_SPLITS]}")
        return None

    @property
    def options(self) -> dict[str, Any]:
        """The rule options, as keyword arguments that ``make`` accepts."""
        return {
            "players": self.num_players,
            "variant": self.variant,
            "automatic_win_points": self.automatic_win_points,
            "dragon_points": self.dragon_points,
            "majority": self.majority,
            "western_bonus": self.western_bonus,
            "shot": self.shot,
            "point_value": self.point_value,
        }

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> ChinesePokerState:
        """A fresh deal; ``deal`` fixes the top of the deck (dealt one card at a time)."""
        return ChinesePokerState(self, seed, deal)

    def parse_action(self, text: Action | str) -> Action:
        """Canonical ``set F / M / B`` (highest card first) or ``declare <name>``."""
        raw = action_text(text)
        words = raw.split()
        if not words:
            raise IllegalActionError("empty action")
        if words[0] == "declare":
            return Action(raw)
        if words[0].startswith("set"):
            return Action(f"set {parse_set(raw).text}")
        raise IllegalActionError(f"unknown action {shown(raw)}: expected set ... or declare ...")


class ChinesePokerState(BaseState):
    """One deal: each seat sets or declares, then every pair is compared."""

    _game: ChinesePoker

    def _start(self) -> None:
        order = self.deck_order()
        # Thirteen cards to each of the four positions, one at a time in rotation.
        self.hands: list[list[Card]] = [
            sorted(order[p : POSITIONS * HAND_SIZE : POSITIONS]) for p in range(POSITIONS)
        ]
        self.sets: list[ParsedSet | None] = [None] * self._game.num_players
        self.declared: list[str | None] = [None] * self._game.num_players
        self._listed: dict[int, list[Action]] = {}
        self._listed_ids: dict[int, list[int]] = {}
        self._phase = Phase.SET

    def clone(self) -> ChinesePokerState:
        """A cheap independent copy (cards and parsed sets are immutable)."""
        # The listed-actions cache depends only on the dealt hands, so clones share it.
        twin = copy.copy(self)
        twin._history = list(self._history)
        twin.sets = list(self.sets)
        twin.declared = list(self.declared)
        return twin

    def _acted(self, seat: int) -> bool:
        return self.sets[seat] is not None or self.declared[seat] is not None

    @property
    def phase(self) -> Phase:
        """Setting the hands, or the showdown once every seat has acted."""
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The next seat that has not set or declared, ``None`` once all have."""
        if self._phase is Phase.SHOWDOWN:
            return None
        return next(s for s in range(self._game.num_players) if not self._acted(s))

    @property
    def is_terminal(self) -> bool:
        """True once every seat has set or declared."""
        return self._phase is Phase.SHOWDOWN

    def legal_actions(self) -> list[Action]:
        """Qualifying declarations, a few proper sets and one misordered set."""
        seat = self.current_player
        if seat is None:
            return []
        if seat not in self._listed:
            hand = self.hands[seat]
            declarations = [Action(f"declare {w}") for w in chinese_poker_automatic_wins(hand)]
            sets = [
                Action(f"set {f} / {m} / {b}")
                for f, m, b in chinese_poker_sample_sets(hand, _LISTED_SETS, improper=True)
            ]
            self._listed[seat] = declarations + sets
        return list(self._listed[seat])

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` cannot be played by the current player, or ``None``."""
        seat = self.current_player
        if seat is None:
            return "the hands are already set"
        hand = self.hands[seat]
        if action.kind == "declare":
            if len(action.args) != 1 or action.args[0] not in AUTOMATIC_WINS:
                return f"declare one of {', '.join(AUTOMATIC_WINS)}"
            if action.args[0] not in chinese_poker_automatic_wins(hand):
                return f"the hand does not qualify for {action.args[0]}"
            return None
        if action.kind != "set":
            return f"unknown action {shown(action.text)}"
        try:
            parsed = parse_set(action.text)
        except IllegalActionError as exc:
            return str(exc)
        for seg, cards, size in zip(SEGMENTS, parsed.segments, SEGMENT_SIZES, strict=True):
            if len(cards) != size:
                return f"the {seg} must hold {size} cards, got {len(cards)}"
        missing = [str(c) for c in parsed.cards if c not in hand]
        if missing:
            return f"{' '.join(missing)} not in the hand"
        if len(set(parsed.cards)) != HAND_SIZE:
            return "a set cannot use the same card twice"
        return None

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None  # apply() rejects actions on a finished deal
        if action.kind == "declare":
            self.declared[seat] = action.args[0]
        else:
            self.sets[seat] = parse_set(action.text)
        self._advance()

    def _advance(self) -> None:
        """The phase machine, after each set or declaration."""
        if all(self._acted(s) for s in range(self._game.num_players)):
            # CP-20: declarations come before the hands are opened; once every
            # seat has acted they are opened (CP-11).
            self._phase = Phase.SHOWDOWN

    # -- the learning interface -------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The ids of :meth:`legal_actions`, ascending (cached per seat, as the listing)."""
        seat = self.current_player
        if seat is None:
            return []
        ids = self._listed_ids.get(seat)
        if ids is None:
            # Listed actions are legal: their ids need no checking.
            found = [
                self._split_id(seat, act) if act.kind == "set" else self._game._action_id(act)
                for act in self.legal_actions()
            ]
            ids = self._listed_ids[seat] = sorted(i for i in found if i is not None)
            assert len(ids) == len(found), "every listed declaration has a fixed id"
        return ids[:]

    def _action_id(self, action: Action) -> int | None:
        """A declaration's fixed id, or the split id of any legal set of the hand in
        play (docs/chinese_poker.md); ``None`` for anything else."""
        if action.kind == "declare":
            found = self._game._action_id(action)
            if found is not None:
                return found
        if self.illegal_reason(action) is not None:
            return None
        seat = self.current_player
        assert seat is not None  # a legal set has a seat to play it
        return self._split_id(seat, action)

    def _split_id(self, seat: int, action: Action) -> int:
        """The split id of ``action``, a legal set of ``seat``'s hand."""
        parsed = parse_set(action.text)
        position = {card: i for i, card in enumerate(self.hands[seat])}
        front = tuple(sorted(position[c] for c in parsed.front))
        rest = [p for p in range(HAND_SIZE) if p not in front]
        middle = tuple(sorted(rest.index(position[c]) for c in parsed.middle))
        return _FRONT_RANK[front] * len(_MIDDLES) + _MIDDLE_RANK[middle]

    def _id_action(self, action_id: int) -> Action | None:
        if action_id >= NUM_SPLITS:
            return self._game._id_action(action_id)
        seat = self.current_player
        if seat is None:
            return None
        hand = self.hands[seat]
        front_rank, middle_rank = divmod(action_id, len(_MIDDLES))
        front = _FRONTS[front_rank]
        rest = [p for p in range(HAND_SIZE) if p not in front]
        middle = [rest[i] for i in _MIDDLES[middle_rank]]
        back = [p for p in rest if p not in middle]
        segments = (front, middle, back)
        return Action(
            "set " + " / ".join(_segment_text([hand[p] for p in seg]) for seg in segments)
        )

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        n = self._game.num_players
        out[[c.index for c in self.hands[seat]]] = 1.0
        blocks = out[52:].reshape(n, _BLOCK)
        shown = self.score_breakdown() if self.is_terminal else None
        scale = self._game.pair_bound() * (n - 1)
        for k in range(n):
            other = (seat + k) % n
            block = blocks[k]
            block[_ACTED] = self._acted(other)
            if other != seat and shown is None:
                continue  # another seat's set stays hidden until the showdown
            parsed = self.sets[other]
            if parsed is not None:
                for i, cards in enumerate(parsed.segments):
                    block[[_SEGMENT_PLANES + 52 * i + c.index for c in cards]] = 1.0
            declared = self.declared[other]
            if declared is not None:
                block[_DECLARED + AUTOMATIC_WINS.index(declared)] = 1.0
            if shown is not None:
                block[_IMPROPER] = shown["entries"][other]["status"] == "improper"
                block[_POINTS] = shown["points"][other] / scale

    def _event_start(self, emit: Emit) -> None:
        emit({"type": "deal", "deal": 0, "players": self._game.num_players})
        self._emit_hands(emit, self.hands[: self._game.num_players])

    def _event_step(self, action: Action, emit: Emit) -> None:
        seat = self.current_player
        assert seat is not None  # the replica only replays legal moves
        self.apply(action)
        # Sets are simultaneous: until the showdown (the end event's score) the
        # table sees only that the seat has set, not how or whether it declared.
        emit({"type": "action", "seat": seat, "action": "set", "hidden": True})
        emit({"type": "private_action", "seat": seat, "action": action.text}, (seat,))

    def _entries(self) -> list[_Entry]:
        entries = []
        for seat in range(self._game.num_players):
            name = self.declared[seat]
            parsed = self.sets[seat]
            if name is not None:
                entries.append(_Entry("declared", _segment_text(self.hands[seat]), declared=name))
            else:
                assert parsed is not None  # only called once every seat has acted
                entries.append(_rank_entry(parsed))
        return entries

    def score_breakdown(self) -> dict[str, Any]:
        """Every pairwise comparison with segments, bonuses and points (empty until the end)."""
        if not self.is_terminal:
            return {"variant": self._game.variant, "pairs": [], "points": []}
        return _settle(self._game.rules, self._entries())

    def returns(self) -> list[float]:
        """Points per seat times the game's ``point_value`` once every seat has
        acted (zero-sum), zeros before."""
        if not self.is_terminal:
            return [0.0] * self._game.num_players
        value = self._game.point_value
        return [float(p * value) for p in self.score_breakdown()["points"]]

    def observation(self, seat: int) -> Observation:
        """The seat's own hand and set; the others' sets only once all have acted."""
        seat = self.check_seat(seat)
        own_set = self.sets[seat]
        obs: Observation = {
            "seat": seat,
            "players": self._game.num_players,
            "rules": dict(self._game.options),
            "hand": [str(c) for c in self.hands[seat]],
            "set": own_set.text if own_set is not None else None,
            "declared": self.declared[seat],
            "acted": [self._acted(s) for s in range(self._game.num_players)],
            "to_act": self.current_player,
        }
        if self.is_terminal:
            shown = self.score_breakdown()
            obs["showdown"] = shown["entries"]
            obs["points"] = shown["points"]
        return obs

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hand until the showdown opens every hand."""
        seat = self.check_seat(seat)
        return [] if self.is_terminal else list(self.hands[seat])

    def zones(self) -> dict[str, list[Card]]:
        """The four dealt positions (vacant ones included)."""
        return {f"position{p}": list(self.hands[p]) for p in range(POSITIONS)}
