"""Zheng Shangyou (争上游, "race to be first"): three players, each for themselves.

The 48-card pack (no jokers, no heart ace, only the spade two), 16 cards each, no
kitty. The heart-three holder leads and the first play must hold the heart three;
turns pass in seat order. A player who can beat the table must (bombs included) and
may pass only when unable; after both opponents pass the last player leads again.
Plays are written as ranks (``play 3344``, ``play AAA``); the first card of a rank
a play takes is the heart three on the opening play, else the lowest suit.

Scoring when a player goes out: each opponent pays the winner a point per card left
(doubled if it never played), 10 for a held spade two and 10 per bomb still in hand.
A response bomb unbeaten for its round earns 20 (10 from each opponent); led bombs
and the heavenly bomb earn nothing; a finishing response bomb settles at once. See
``docs/zhengshangyou.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardkit._core import (
    Card,
    Combination,
    zhengshangyou_action_space_size,
    zhengshangyou_play_id,
    zhengshangyou_play_of_id,
)
from cardkit._validate import check_flag, check_text
from cardkit.api import Action, Observation
from cardkit.games import _climbing
from cardkit.games._base import Emit
from cardkit.games._climbing import ClimbingGame, ClimbingState
from cardkit.games._phase import StrEnum

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Phase",
    "ZhengShangyou",
    "ZhengShangyouState",
    "classify",
    "held_bombs",
    "legal_leads",
    "legal_responses",
]

RULES = "zhengshangyou"
HEART_THREE = Card("3h")
SPADE_TWO = Card("2s")
#: Size of the Rust action index: pass and every play of at most 16 cards.
_NUM_ACTIONS = zhengshangyou_action_space_size()
#: A loser's largest penalty: 16 cards never played (32), the spade two (10) and
#: four bombs (40: three fours and the three aces fill 15 of its 16 cards).
_MOST_PENALTY = 2 * 16 + 10 + 10 * 4
#: Both losers' largest penalties together: 64 for cards, the one spade two, and
#: eight bombs (four in each 16-card hand, so none beside the two in one of them).
_MOST_PENALTIES = 2 * 2 * 16 + 10 + 10 * 8
#: The largest bonus sum of one seat's response bombs: each takes at least three of
#: its 16 cards but only four bombs fit (20 each) ...
_MOST_BONUS = 20 * 4
#: ... and the most one seat pays for the others' bombs: four each, 10 apiece.
_MOST_BONUS_PAID = 10 * 8


class Phase(StrEnum):
    """Where a Zheng Shangyou deal stands; each member equals its lower-case value."""

    #: The card play, from the heart-three lead (ZSY-08).
    PLAY = "play"
    #: A player went out, which ends the deal at once (ZSY-04).
    OVER = "over"


def classify(cards: str | Sequence[Card | str], opening: bool = False) -> list[Combination]:
    """Every reading of ``cards`` as one Zheng Shangyou combination (empty if none);
    ``opening=True`` reads the deal's first play, where ``3333`` is the heavenly bomb."""
    return _climbing.classify(RULES, cards, check_flag("opening", opening))


def legal_leads(hand: str | Sequence[Card | str], opening: bool = False) -> list[Combination]:
    """Every combination ``hand`` can lead (``opening``: must hold a three)."""
    return _climbing.legal_leads(RULES, hand, check_flag("opening", opening))


def legal_responses(
    hand: str | Sequence[Card | str], table: Combination | str | Sequence[Card | str]
) -> list[Combination]:
    """Every combination from ``hand`` that beats ``table``; a player with any must play."""
    return _climbing.legal_responses(RULES, hand, table)


def held_bombs(ranks: str) -> int:
    """Bombs in a hand's ranks: each four of a kind, and the three aces."""
    check_text("ranks", ranks)
    fours = sum(1 for r in set(ranks) if ranks.count(r) >= 4)
    return fours + int(ranks.count("A") >= 3)


class ZhengShangyou(ClimbingGame):
    """Zheng Shangyou (no rule options: every rule is the text's)."""

    name = "zhengshangyou"
    zero_sum = True
    deck_name = "zhengshangyou48"
    rules = RULES
    _play_id = zhengshangyou_play_id
    _play_of_id = zhengshangyou_play_of_id
    # The opening flag, the pending-bomb flag, each seat's settled bonus / 20.
    _TAIL = 1 + 1 + 3

    def __init__(self) -> None:
        self.num_players = 3

    @property
    def max_game_length(self) -> int:
        """144: each play uses at least one of the 48 cards, and after a play at
        most the two other seats pass before its owner leads again."""
        return 48 * 3

    @property
    def options(self) -> dict[str, Any]:
        """The rule options (none)."""
        return {}

    @property
    def num_actions(self) -> int:
        """141: ``pass``, then every play (docs/zhengshangyou.md)."""
        return _NUM_ACTIONS

    @property
    def utility_range(self) -> tuple[float, float]:
        """Bounds from the scoring rules: a loser pays at most its largest penalty
        and 10 for each of the others' bonus bombs; the winner collects at most both
        losers' largest penalties and its own bombs' bonuses."""
        return (-float(_MOST_PENALTY + _MOST_BONUS_PAID), float(_MOST_PENALTIES + _MOST_BONUS))

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> ZhengShangyouState:
        """A new deal; ``deal`` fixes the top of the deck (16 cards per seat)."""
        return ZhengShangyouState(self, seed, deal)


class ZhengShangyouState(ClimbingState):
    """One Zheng Shangyou deal."""

    _game: ZhengShangyou

    def _start(self) -> None:
        order = self.deck_order()
        hands = [order[0:16], order[16:32], order[32:48]]
        leader = next(s for s in range(3) if HEART_THREE in hands[s])
        # The engine deal settles bombs (ZSY-28..31): only a bomb played over another
        # player's cards earns the bonus, when its round ends or it finishes the hand.
        self._start_play(hands, leader)

    @property
    def bomb_bonus(self) -> list[int]:
        """Settled bomb bonuses per seat."""
        return self._play.bonus

    @property
    def bonus_log(self) -> list[tuple[int, str]]:
        """(seat, ranks) of every bomb bonus settled."""
        return self._play.bonus_log()

    @property
    def pending_bomb(self) -> bool:
        """The table is a response bomb whose bonus is not settled yet."""
        return self._play.pending_bomb

    # -- protocol -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The deal is all card play: ``PLAY`` until a hand is empty, then ``OVER``
        (the engine deal ends itself, so the phase is read from it)."""
        return Phase.OVER if self._play.over else Phase.PLAY

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once a hand is empty."""
        return self._play.to_move

    @property
    def is_terminal(self) -> bool:
        """True once a player has gone out."""
        return self._play.over

    def legal_actions(self) -> list[Action]:
        """Every beating play, or ``pass`` alone when there is none; leads when leading."""
        return self._play.legal_actions()

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the current player; illegal -> IllegalActionError, no change.

        A listed action goes straight to the engine; anything else (shorthands such as
        ``"3344"``, illegal moves) takes the validating path.
        """
        if not self._fast_apply(action):
            super().apply(action)

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        return self._play_reason(action)

    def _apply(self, action: Action) -> None:
        self._apply_play(action)

    # -- the event log ------------------------------------------------------------------

    def _event_start(self, emit: Emit) -> None:
        # The leader is public: the heart-three holder leads it.
        self._emit_deal(emit, deal=0, leader=self.to_move)

    def _event_step(self, action: Action, emit: Emit) -> None:
        settled = len(self.bonus_log)
        self._emit_action(action, emit)
        for seat, ranks in self.bonus_log[settled:]:
            emit({"type": "bomb_bonus", "seat": seat, "ranks": ranks})

    # -- scoring ----------------------------------------------------------------------

    def penalties(self) -> list[int]:
        """Each loser's card penalty (0 for the winner and before the end)."""
        out = [0, 0, 0]
        if self.winner is None:
            return out
        for s in range(3):
            if s == self.winner:
                continue
            cards = len(self.hands[s]) * (2 if self.plays_made[s] == 0 else 1)
            two = 10 if SPADE_TWO in self.hands[s] else 0
            out[s] = cards + two + 10 * held_bombs(self.hand_ranks[s])
        return out

    def returns(self) -> list[float]:
        """Bomb bonuses plus card penalties, all paid to the winner (zero-sum)."""
        if self.winner is None:
            return [0.0, 0.0, 0.0]
        pen = self.penalties()
        total = sum(pen)
        return [
            float(self.bomb_bonus[s] + (total if s == self.winner else -pen[s])) for s in range(3)
        ]

    def score_breakdown(self) -> dict[str, Any]:
        """Per seat: cards left, never played, spade two, bombs held, penalty, bonus."""
        seats = []
        for s in range(3):
            seats.append(
                {
                    "cards_left": len(self.hands[s]),
                    "never_played": self.plays_made[s] == 0,
                    "spade_two": SPADE_TWO in self.hands[s],
                    "bombs_held": held_bombs(self.hand_ranks[s]),
                }
            )
        return {
            "winner": self.winner,
            "seats": seats,
            "penalties": self.penalties(),
            "bomb_bonus": list(self.bomb_bonus),
            "bonus_bombs": [[s, r] for s, r in self.bonus_log],
            "returns": self.returns(),
        }

    # -- information --------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Own hand, plays, card counts, the table and settled bonuses."""
        seat = self.check_seat(seat)
        obs = self._play_observation(seat)
        obs.update(
            {
                "opening": self._play.opening,
                "pending_bomb": self.pending_bomb,
                "bomb_bonus": list(self.bomb_bonus),
                "holds_heart_three": HEART_THREE in self.hands[seat],
            }
        )
        return obs

    def _write_observation(self, seat: int, out: npt.NDArray[np.float32]) -> None:
        """The card play, then the opening and pending-bomb flags and each seat's
        settled bomb bonus in units of 20 (docs/zhengshangyou.md)."""
        at = self._write_card_play(seat, out)
        play = self._play
        out[at] = float(play.opening)
        out[at + 1] = float(play.pending_bomb)
        bonus = play.bonus
        for rel in range(3):
            out[at + 2 + rel] = bonus[(seat + rel) % 3] / 20

    def private_cards(self, seat: int) -> list[Card]:
        """The seat's hand."""
        return list(self.hands[self.check_seat(seat)])

    def zones(self) -> dict[str, list[Card]]:
        """Hands and each seat's played cards."""
        zones = {f"hand{s}": list(self.hands[s]) for s in range(3)}
        for s in range(3):
            zones[f"played{s}"] = list(self.played[s])
        return zones
