"""Bridge agents: a natural bidding system and rule card play, reading only the
observation (``docs/bridge.md``, "Agents", lists the system).

Bidding (:func:`natural_call`), points are high-card points (A 4, K 3, Q 2, J 1):

- Openings: 15-17 balanced 1NT; 20-21 balanced 2NT; 22+ 2C (artificial); 12-21
  with a five-card major one of the longer major (spades with 5-5); otherwise one
  of the longer minor (diamonds with 4-4, clubs with 3-3); 6-10 with a six-card
  diamond, heart or spade suit a weak two; else pass.
- Over partner's 1NT: a five-card major is transferred (2D for hearts, 2H for
  spades; opener completes it); 8+ with a four-card major is Stayman (2C; opener
  answers 2D, 2H, 2S); then 8-9 invites (2NT, or three of the fit) and 10-15
  bids game (3NT, or four of the fit); opener accepts an invitation with 16-17.
- Over partner's one of a suit: 6+ raise a major with four-card support (2 with
  6-9, 3 with 10-12, 4 with 13+); a four-card major at the one level; 6-10 1NT;
  11-12 balanced 2NT; 13-15 balanced 3NT; otherwise a raise of a minor or pass.
  Opener rebids: raise responder's major with four (by strength), 1NT with 12-14
  balanced, 2NT with 18-19 balanced, else two of the opened suit; over a single
  raise of its major game with 19+, an invitation with 16-18 (accepted with 8+).
  Responder with 13+ bids game on its second turn (four of a major fit, else 3NT).
- Over partner's 2C: 2D waiting; the 2C opener then bids its longest suit or NT
  at the cheapest level and the pair stops in game.
- Competition (the opponents opened): an overcall of a five-card suit with 8-16
  (two-level 10+), 1NT with 15-18 balanced, a takeout double with 12+ and at most
  two cards in their suit; advancing partner's overcall: raise with three-card
  support and 8+; advancing a takeout double: the longest unbid suit at the
  cheapest level. Penalty double: an opponents' contract at the three level or
  higher when the hand holds four trumps with two top honours or 15+ points.
- Anything else: pass. A call that is not legal falls back to pass.

Card play (:func:`rule_card`), for declarer (both hands) and the defenders: lead
the top of a sequence (AK, KQ, QJ, JT), else fourth best of the longest side suit
(against a suit contract a singleton side suit when holding trumps); second hand
low; with partner winning play low; otherwise win as cheaply as possible (a ruff
with the lowest trump when void); when nothing wins, discard the lowest card of
the weakest suit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from cardkit._core import bridge_sample_deals, dd_solve_many, derive_seed
from cardkit._validate import check_agent_seed, check_count, check_flag, check_legal_actions
from cardkit.api import Action, Observation
from cardkit.errors import RuleOptionError
from cardkit.games.bridge import STRAINS, score

from ._trickview import INDEX, mask_of_names

__all__ = [
    "BridgeRuleAgent",
    "BridgeSearchAgent",
    "HandConstraint",
    "auction_constraints",
    "call_constraint",
    "hand_shape",
    "natural_call",
    "rule_card",
]

_SUITS = "cdhs"
#: Each suit's cards as a card set (card index = 4 x rank + suit).
_SUIT_MASKS = [sum(1 << (4 * rank + suit) for rank in range(13)) for suit in range(4)]
_RANKS = "23456789TJQKA"
_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def hand_shape(hand: Sequence[str]) -> tuple[int, list[int], bool]:
    """High-card points, the suit lengths (clubs, diamonds, hearts, spades) and
    whether the hand is balanced (4333, 4432 or 5332)."""
    hcp = sum(_POINTS.get(c[0], 0) for c in hand)
    lengths = [sum(1 for c in hand if c[1] == s) for s in _SUITS]
    shape = sorted(lengths)
    balanced = shape in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])
    return hcp, lengths, balanced


def _bid(level: int, strain: int) -> str:
    return f"{level}{STRAINS[strain]}"


def _bids(auction: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in auction if c["call"] == "bid"]


def _cheapest(strain: int, above: tuple[int, int] | None) -> int:
    """The lowest level at which ``strain`` outranks the bid ``above``."""
    if above is None:
        return 1
    level, s = above
    return level if strain > s else level + 1


class _Context(NamedTuple):
    """Where a seat's call stands in the system: the stage (which part of the
    system answers it) and the bids it reads. Shared by :func:`natural_call` and
    :func:`call_constraint`, so a call and its reading follow one dispatch."""

    stage: str
    bids: list[dict[str, Any]]
    last: tuple[int, int] | None
    ours: list[dict[str, Any]]
    theirs: list[dict[str, Any]]
    mine: list[dict[str, Any]]
    partners: list[dict[str, Any]]


def _context(seat: int, auction: list[dict[str, Any]]) -> _Context:
    """The stage of ``seat``'s next call after ``auction``: ``open`` (no bid yet),
    ``compete`` (the opponents opened), ``contested`` (we opened, they bid),
    ``respond``, ``rebid`` (opener's second call), ``again`` (responder's second
    call), ``force`` (the strong 2C opener later on) or ``done`` (pass)."""
    partner = (seat + 2) % 4
    bids = _bids(auction)
    last = None if not bids else (bids[-1]["level"], STRAINS.index(bids[-1]["strain"]))
    ours = [b for b in bids if b["seat"] % 2 == seat % 2]
    theirs = [b for b in bids if b["seat"] % 2 != seat % 2]
    mine = [b for b in bids if b["seat"] == seat]
    partners = [b for b in bids if b["seat"] == partner]
    if not bids:
        stage = "open"
    elif bids[0]["seat"] % 2 != seat % 2:
        stage = "compete"
    elif theirs:
        stage = "contested"
    elif bids[0]["seat"] == partner and not mine:
        stage = "respond"
    elif bids[0]["seat"] == seat and len(mine) == 1 and len(partners) == 1:
        stage = "rebid"
    elif bids[0]["seat"] == partner and len(mine) == 1:
        stage = "again"
    elif bids[0]["seat"] == seat and (bids[0]["level"], bids[0]["strain"]) == (2, "C"):
        stage = "force"
    else:
        stage = "done"
    return _Context(stage, bids, last, ours, theirs, mine, partners)


def natural_call(obs: Observation) -> str:
    """The call of the natural system (module docstring) for the seat of ``obs``."""
    seat = obs["seat"]
    hcp, lengths, balanced = hand_shape(obs["hand"])
    ctx = _context(seat, obs["auction"])
    bids, last, ours, theirs, mine, partners = ctx[1:]
    longest = max(range(4), key=lambda s: (lengths[s], s))
    if ctx.stage == "open":
        return _opening(hcp, lengths, balanced)
    if ctx.stage == "compete":
        return _competitive(obs, hcp, lengths, balanced, bids, last, ours, theirs, partners)
    if ctx.stage == "contested":
        # They came in over our opening: a penalty double or pass in this system.
        return _penalty_double(obs, hcp, lengths, theirs, last) or "pass"
    if ctx.stage == "respond":
        return _respond(hcp, lengths, balanced, bids[0], last)
    if ctx.stage == "rebid":
        return _rebid(hcp, lengths, balanced, bids[0], partners[0], last)
    if ctx.stage == "again":
        return _responder_again(hcp, lengths, bids[0], mine[0], partners, last)
    if ctx.stage == "force":
        # After the strong 2C: bid the longest suit, then game.
        return _force_to_game(lengths, longest, last, ours)
    return "pass"


def _opening(hcp: int, lengths: list[int], balanced: bool) -> str:
    if balanced and 15 <= hcp <= 17:
        return "1NT"
    if balanced and 20 <= hcp <= 21:
        return "2NT"
    if hcp >= 22:
        return "2C"
    if hcp >= 12:
        if lengths[3] >= 5 and lengths[3] >= lengths[2]:
            return "1S"
        if lengths[2] >= 5:
            return "1H"
        return "1D" if lengths[1] >= 4 and lengths[1] >= lengths[0] else "1C"
    if 6 <= hcp <= 10:
        for suit in (3, 2, 1):
            if lengths[suit] >= 6:
                return _bid(2, suit)
    return "pass"


def _respond(
    hcp: int,
    lengths: list[int],
    balanced: bool,
    opening: dict[str, Any],
    last: tuple[int, int] | None,
) -> str:
    level, strain = opening["level"], STRAINS.index(opening["strain"])
    if (level, strain) == (1, 4):
        if lengths[2] >= 5 or lengths[3] >= 5:
            return "2D" if lengths[2] > lengths[3] else "2H"  # transfers
        if hcp >= 8 and (lengths[2] == 4 or lengths[3] == 4):
            return "2C"  # Stayman
        if 8 <= hcp <= 9:
            return "2NT"
        return "3NT" if 10 <= hcp <= 15 else "pass"
    if (level, strain) == (2, 0):
        return "2D"
    if level == 2 and strain == 4:
        return "3NT" if hcp >= 4 else "pass"
    if level != 1 or hcp < 6:
        return "pass"
    if strain >= 2 and lengths[strain] >= 4:
        raise_to = 2 if hcp <= 9 else 3 if hcp <= 12 else 4
        return _bid(raise_to, strain)
    for major in (2, 3) if lengths[2] >= lengths[3] else (3, 2):
        if lengths[major] >= 4 and major > strain:
            return _bid(1, major)
    if hcp <= 10:
        if strain < 2 and lengths[strain] >= 5 and hcp <= 9:
            return _bid(2, strain)
        return "1NT"
    if balanced:
        return "2NT" if hcp <= 12 else "3NT"
    longest = max(range(4), key=lambda s: (lengths[s], s))
    return _bid(_cheapest(longest, last), longest)


def _rebid(
    hcp: int,
    lengths: list[int],
    balanced: bool,
    opening: dict[str, Any],
    response: dict[str, Any],
    last: tuple[int, int] | None,
) -> str:
    own = STRAINS.index(opening["strain"])
    level, strain = response["level"], STRAINS.index(response["strain"])
    if opening["strain"] == "NT" and opening["level"] == 1:
        if (level, strain) == (2, 0):  # Stayman
            return "2H" if lengths[2] >= 4 else "2S" if lengths[3] >= 4 else "2D"
        if (level, strain) == (2, 1):
            return "2H"
        if (level, strain) == (2, 2):
            return "2S"
        if (level, strain) == (2, 4):
            return "3NT" if hcp >= 16 else "pass"
        return "pass"
    if opening["strain"] == "C" and opening["level"] == 2:
        longest = max(range(4), key=lambda s: (lengths[s], s))
        if balanced:
            return "2NT"
        return _bid(_cheapest(longest, last), longest)
    if level >= 3 or (level == 2 and strain == own) or (strain == 4 and level >= 2):
        # A raise of a major: game with the values for it (a single raise shows
        # 6-9, a limit raise 10-12), an invitation with 16-18 opposite a single
        # raise; any other raise or game bid: pass.
        major = strain == own and 2 <= own <= 3
        if major and level == 3 and hcp >= 14:
            return _bid(4, own)
        if major and level == 2:
            return _bid(4, own) if hcp >= 19 else _bid(3, own) if hcp >= 16 else "pass"
        if strain == 4 and own < 4 and level == 2 and hcp >= 13:
            return "3NT"
        return "pass"
    if 2 <= strain <= 3 and lengths[strain] >= 4:
        target = 2 if hcp <= 15 else 3 if hcp <= 18 else 4
        return _bid(max(target, _cheapest(strain, last)), strain)
    if balanced and 12 <= hcp <= 14 and _cheapest(4, last) == 1:
        return "1NT"
    if balanced and 18 <= hcp <= 19:
        return _bid(_cheapest(4, last) + 1, 4) if _cheapest(4, last) <= 2 else "3NT"
    if strain == 4:
        return "pass" if lengths[own] < 6 else _bid(2, own)
    return _bid(_cheapest(own, last), own)


def _responder_again(
    hcp: int,
    lengths: list[int],
    opening: dict[str, Any],
    first: dict[str, Any],
    partners: list[dict[str, Any]],
    last: tuple[int, int] | None,
) -> str:
    if (opening["level"], opening["strain"]) == (2, "C"):
        # Partner's strong 2C: game, in partner's suit with three-card support.
        strain = STRAINS.index(partners[-1]["strain"])
        if last is not None and (last[0] >= 4 or last == (3, 4)):
            return "pass"
        if strain < 4 and lengths[strain] >= 3 and _cheapest(strain, last) <= 4:
            return _bid(4 if strain >= 2 else 5, strain)
        return "3NT" if _cheapest(4, last) <= 3 else "pass"
    if opening["level"] == 1 and opening["strain"] != "NT" and len(partners) == 2:
        return _after_opener_rebid(hcp, lengths, opening, first, partners[1], last)
    if len(partners) != 2 or opening["strain"] != "NT" or opening["level"] != 1:
        return "pass"
    answer = partners[1]
    strain = STRAINS.index(answer["strain"])
    if (first["level"], first["strain"]) == (2, "C"):  # after Stayman
        if strain in (2, 3) and lengths[strain] >= 4:
            return _bid(4 if hcp >= 10 else 3, strain)
        return "3NT" if hcp >= 10 else "2NT"
    if first["level"] == 2 and first["strain"] in ("D", "H"):  # after a transfer
        major = 2 if first["strain"] == "D" else 3
        if hcp < 8:
            return "pass"
        if lengths[major] >= 6:
            return _bid(4 if hcp >= 10 else 3, major)
        return "3NT" if hcp >= 10 else "2NT"
    return "pass"


def _after_opener_rebid(
    hcp: int,
    lengths: list[int],
    opening: dict[str, Any],
    response: dict[str, Any],
    rebid: dict[str, Any],
    last: tuple[int, int] | None,
) -> str:
    """Responder's second call over a one-of-a-suit opening: accept an invitation
    to game in a major, else with 13+ bid game (four of a major fit, else 3NT)."""
    strain = STRAINS.index(rebid["strain"])
    opened = STRAINS.index(opening["strain"])
    if rebid["level"] >= 4 or (rebid["level"], strain) == (3, 4):
        return "pass"
    if rebid["level"] == 3 and strain >= 2 and strain == STRAINS.index(response["strain"]):
        # Opener invites in responder's major (or its own after a raise).
        return _bid(4, strain) if hcp >= 8 else "pass"
    if rebid["level"] == 3 and strain == opened and strain >= 2 and response["level"] == 2:
        return _bid(4, strain) if hcp >= 8 else "pass"
    if hcp < 13 or response["level"] >= 3:
        return "pass"
    for major in (opened, strain):
        if 2 <= major <= 3 and lengths[major] >= 3 and _cheapest(major, last) <= 4:
            return _bid(4, major)
    return "3NT" if _cheapest(4, last) <= 3 else "pass"


def _force_to_game(
    lengths: list[int], longest: int, last: tuple[int, int] | None, ours: list[dict[str, Any]]
) -> str:
    if last is not None and (last[0] >= 4 or (last[0] == 3 and last[1] == 4)):
        return "pass"
    if any(b["level"] >= 3 for b in ours):
        return "3NT" if _cheapest(4, last) <= 3 else "pass"
    strain = longest if lengths[longest] >= 5 else 4
    return _bid(_cheapest(strain, last), strain)


def _competitive(
    obs: Observation,
    hcp: int,
    lengths: list[int],
    balanced: bool,
    bids: list[dict[str, Any]],
    last: tuple[int, int] | None,
    ours: list[dict[str, Any]],
    theirs: list[dict[str, Any]],
    partners: list[dict[str, Any]],
) -> str:
    seat = obs["seat"]
    partner = (seat + 2) % 4
    doubled = obs["auction"][-1]["call"] == "double" if obs["auction"] else False
    penalty = _penalty_double(obs, hcp, lengths, theirs, last)
    if penalty:
        return penalty
    their_suit = STRAINS.index(theirs[0]["strain"])
    partner_doubled = any(c["seat"] == partner and c["call"] == "double" for c in obs["auction"])
    if not ours and not partner_doubled:
        if any(c["seat"] == seat and c["call"] != "pass" for c in obs["auction"]):
            return "pass"
        if last is None or last[0] > 2 or doubled:
            return "pass"
        if balanced and 15 <= hcp <= 18 and last <= (1, 3):
            return "1NT"
        for suit in sorted(range(4), key=lambda s: -lengths[s]):
            if suit == their_suit or lengths[suit] < 5:
                continue
            level = _cheapest(suit, last)
            if 8 <= hcp <= 16 and (level == 1 or (level == 2 and hcp >= 10)):
                return _bid(level, suit)
        if hcp >= 12 and their_suit < 4 and lengths[their_suit] <= 2 and last[0] <= 2:
            return "X"
        return "pass"
    if partner_doubled and not [b for b in ours if b["seat"] == seat]:
        if last is not None and last[0] >= 3:
            return "pass"
        unbid = [s for s in range(4) if s != their_suit]
        suit = max(unbid, key=lambda s: (lengths[s], s))
        return _bid(_cheapest(suit, last), suit)
    if partners and len(ours) == 1 and not [b for b in ours if b["seat"] == seat]:
        strain = STRAINS.index(partners[0]["strain"])
        if strain < 4 and lengths[strain] >= 3 and hcp >= 8:
            level = _cheapest(strain, last)
            if level <= 3:
                return _bid(level, strain)
    return "pass"


def _penalty_double(
    obs: Observation,
    hcp: int,
    lengths: list[int],
    theirs: list[dict[str, Any]],
    last: tuple[int, int] | None,
) -> str | None:
    """``X`` when the opponents hold the last bid undoubled at the three level or
    higher and this hand stops it; else ``None``."""
    if not theirs or last is None or last[0] < 3 or theirs[-1] is not _last_bid(obs):
        return None
    if any(c["call"] in ("double", "redouble") for c in obs["auction"][-3:]):
        return None
    strain = last[1]
    honours = 0
    if strain < 4:
        suit = _SUITS[strain]
        honours = sum(1 for c in obs["hand"] if c[1] == suit and c[0] in "AKQ")
    strong_trumps = strain < 4 and lengths[strain] >= 4 and honours >= 2
    return "X" if strong_trumps or hcp >= 15 else None


def _last_bid(obs: Observation) -> dict[str, Any] | None:
    bids = _bids(obs["auction"])
    return bids[-1] if bids else None


# --- Reading the auction: what each call of the system shows -------------------

#: Any hand: no high-card point or length limits.
_OPEN = (0, 13)


@dataclass(frozen=True)
class HandConstraint:
    """What the auction shows about one seat's thirteen cards (as dealt): a range of
    high-card points, a range of length for each suit (clubs, diamonds, hearts,
    spades) and whether the hand is balanced (4333, 4432, 5332)."""

    hcp: tuple[int, int] = (0, 37)
    lengths: tuple[tuple[int, int], ...] = (_OPEN, _OPEN, _OPEN, _OPEN)
    balanced: bool = False

    def meet(self, other: HandConstraint) -> HandConstraint:
        """Both constraints at once (ranges intersected; may admit no hand)."""
        return HandConstraint(
            (max(self.hcp[0], other.hcp[0]), min(self.hcp[1], other.hcp[1])),
            tuple(
                (max(a[0], b[0]), min(a[1], b[1]))
                for a, b in zip(self.lengths, other.lengths, strict=True)
            ),
            self.balanced or other.balanced,
        )

    def admits(self, hand: Sequence[str]) -> bool:
        """Whether the thirteen cards ``hand`` (texts like ``As``) fit."""
        hcp, lengths, balanced = hand_shape(hand)
        return (
            self.hcp[0] <= hcp <= self.hcp[1]
            and all(lo <= n <= hi for n, (lo, hi) in zip(lengths, self.lengths, strict=True))
            and (balanced or not self.balanced)
        )


def _shows(hcp: tuple[int, int] = (0, 37), **suits: tuple[int, int]) -> HandConstraint:
    """A constraint from keyword suit ranges: ``_shows((12, 21), s=(5, 13))``."""
    return HandConstraint(hcp, tuple(suits.get(k, _OPEN) for k in _SUITS))


def _balanced(hcp: tuple[int, int], **suits: tuple[int, int]) -> HandConstraint:
    """:func:`_shows` of a balanced hand."""
    return HandConstraint(hcp, _shows(hcp, **suits).lengths, True)


_ANY = HandConstraint()
_NO_MAJOR = {"h": (0, 3), "s": (0, 3)}


def _call_text(record: dict[str, Any]) -> str:
    if record["call"] == "bid":
        return f"{record['level']}{record['strain']}"
    return {"pass": "pass", "double": "X", "redouble": "XX"}[record["call"]]


def call_constraint(seat: int, auction: list[dict[str, Any]], call: str) -> HandConstraint:
    """What ``call`` (``pass``, ``1C``..``7NT``, ``X``, ``XX``) by ``seat`` after
    ``auction`` shows under the natural system (module docstring): the reading of
    :func:`natural_call`, dispatched by the same stages.

    Calls with several meanings give the widest ranges covering their main ones
    (a pass over partner's 1NT reads 0-7, the hand with 16+ and no major being
    left out); calls the system does not read (later competition, the rest of a
    2C auction) show nothing.
    """
    ctx = _context(seat, auction)
    if ctx.stage == "open":
        return _OPENINGS.get(call, _ANY)
    if ctx.stage == "respond":
        return _response_shows(ctx.bids[0], call)
    if ctx.stage == "rebid":
        return _rebid_shows(ctx.bids[0], ctx.partners[0], ctx.last, call)
    if ctx.stage == "again":
        return _again_shows(ctx.bids[0], ctx.mine[0], ctx.partners, call)
    if ctx.stage in ("compete", "contested"):
        return _competition_shows(seat, auction, ctx, call)
    return _ANY


_OPENINGS = {
    "1NT": _balanced((15, 17)),
    "2NT": _balanced((20, 21)),
    "2C": _shows((22, 37)),
    "1S": _shows((12, 21), s=(5, 13)),
    "1H": _shows((12, 21), h=(5, 13)),
    "1D": _shows((12, 21), d=(4, 13), h=(0, 4), s=(0, 4)),
    "1C": _shows((12, 21), h=(0, 4), s=(0, 4)),
    "2S": _shows((6, 10), s=(6, 13)),
    "2H": _shows((6, 10), h=(6, 13), s=(0, 5)),
    "2D": _shows((6, 10), d=(6, 13), h=(0, 5), s=(0, 5)),
    "pass": _shows((0, 11)),
}

_OVER_1NT = {
    "2D": _shows(h=(5, 13)),
    "2H": _shows(s=(5, 13)),
    "2C": _shows((8, 37), h=(0, 4), s=(0, 4)),
    "2NT": _shows((8, 9), **_NO_MAJOR),
    "3NT": _shows((10, 15), **_NO_MAJOR),
    "pass": _shows((0, 7), h=(0, 4), s=(0, 4)),
}


def _response_shows(opening: dict[str, Any], call: str) -> HandConstraint:
    level, strain = opening["level"], STRAINS.index(opening["strain"])
    if (level, strain) == (1, 4):
        return _OVER_1NT.get(call, _ANY)
    if (level, strain) == (2, 4):
        return _shows((4, 37)) if call == "3NT" else _shows((0, 3))
    if level != 1:
        return _ANY
    if call == "pass":
        return _shows((0, 5))
    suit = _SUITS[strain]
    # No fit for a major opening and no four-card major that could be bid at
    # the one level, for every response but the raise and the major it names.
    no_fit = {_SUITS[m]: (0, 3) for m in (2, 3) if m >= strain and call != f"1{_SUITS[m].upper()}"}
    if strain >= 2 and call[1:] == opening["strain"]:
        points = {"2": (6, 9), "3": (10, 12), "4": (13, 37)}[call[0]]
        return _shows(points, **{suit: (4, 13)})
    if call == "1H":
        return _shows((6, 37), h=(4, 13))
    if call == "1S":
        return _shows((6, 37), s=(4, 13), **({"h": (0, 3)} if strain == 2 else {}))
    if call == "1NT":
        return _shows((6, 10), **no_fit)
    if call in ("2NT", "3NT"):
        return _balanced((11, 12) if call == "2NT" else (13, 37), **no_fit)
    # A raise of a minor (6-9, five cards) or the longest suit of an
    # unbalanced 11+: six or more points and four or more cards either way.
    return _shows((6, 37), **{**no_fit, call[1:].lower(): (4, 13)})


def _rebid_shows(
    opening: dict[str, Any],
    response: dict[str, Any],
    last: tuple[int, int] | None,
    call: str,
) -> HandConstraint:
    own = STRAINS.index(opening["strain"])
    level, strain = response["level"], STRAINS.index(response["strain"])
    if (opening["level"], own) == (1, 4):
        if (level, strain) == (2, 0):  # answering Stayman
            return {"2H": _shows(h=(4, 13)), "2S": _shows(h=(0, 3), s=(4, 13))}.get(
                call, _shows(**_NO_MAJOR)
            )
        if (level, strain) == (2, 4):
            return _shows((16, 17)) if call == "3NT" else _shows((15, 15))
        return _ANY
    if opening["level"] != 1:
        return _ANY
    if level >= 3 or (level == 2 and strain == own) or (strain == 4 and level >= 2):
        if strain == own and own >= 2 and level == 3:
            return _shows((14, 37)) if call[0] == "4" else _shows((0, 13))
        if strain == own and own >= 2 and level == 2:
            ranges = {"4": (19, 37), "3": (16, 18)}
            return _shows(ranges.get(call[0], (0, 15)))
        if strain == 4 and own < 4 and level == 2:
            return _shows((13, 37)) if call == "3NT" else _shows((0, 12))
        return _ANY
    if 2 <= strain <= 3:
        if call[1:] == response["strain"]:
            # By strength: 2 with up to 15, 3 with 16-18, 4 with 19+, but never
            # below the cheapest level, which then takes every weaker hand too.
            level = int(call[0])
            top = {2: 15, 3: 18}.get(level, 37)
            low = {2: 0, 3: 16}.get(level, 19) if level > _cheapest(strain, last) else 0
            return _shows((low, top), **{_SUITS[strain]: (4, 13)})
        no_fit = {_SUITS[strain]: (0, 3)}
    else:
        no_fit = {}
    if call.endswith("NT"):
        cheap = _cheapest(4, last)
        return _balanced((12, 14) if int(call[0]) == cheap else (18, 19), **no_fit)
    if strain == 4 and call == "pass":
        return _shows(**{_SUITS[own]: (0, 5)})
    return _shows(**no_fit)


def _again_shows(
    opening: dict[str, Any],
    first: dict[str, Any],
    partners: list[dict[str, Any]],
    call: str,
) -> HandConstraint:
    """Responder's second call after 1NT: the strength after Stayman or a transfer."""
    stayman = (first["level"], first["strain"]) == (2, "C")
    transfer = first["level"] == 2 and first["strain"] in ("D", "H")
    if (opening["level"], opening["strain"]) != (1, "NT") or len(partners) != 2:
        return _ANY
    if call == "pass" and transfer:
        return _shows((0, 7))
    if (stayman or transfer) and call in ("2NT", "3NT", "3H", "3S", "4H", "4S"):
        points = (8, 9) if call in ("2NT", "3H", "3S") else (10, 37)
        if call.endswith("NT"):
            return _shows(points)
        return _shows(points, **{call[1].lower(): (4 if stayman else 6, 13)})
    return _ANY


def _competition_shows(
    seat: int, auction: list[dict[str, Any]], ctx: _Context, call: str
) -> HandConstraint:
    """Overcalls, takeout doubles, raises of an overcall and penalty doubles."""
    theirs, last = ctx.theirs, ctx.last
    if call == "X" and last is not None and last[0] >= 3:
        # A penalty double: four trumps with two honours, or 15+ (always at NT).
        return _shows((15, 37)) if last[1] == 4 else _ANY
    if ctx.stage != "compete" or last is None:
        return _ANY
    partner = (seat + 2) % 4
    partner_doubled = any(c["seat"] == partner and c["call"] == "double" for c in auction)
    acted = any(c["seat"] == seat and c["call"] != "pass" for c in auction)
    their_suit = STRAINS.index(theirs[0]["strain"])
    if not ctx.ours and not partner_doubled and not acted:
        if call == "1NT":
            return _balanced((15, 18))
        if call == "X" and their_suit < 4:
            return _shows((12, 37), **{_SUITS[their_suit]: (0, 2)})
        if call != "pass" and call[1:] != "NT" and call not in ("X", "XX"):
            points = (8, 16) if call[0] == "1" else (10, 16)
            return _shows(points, **{call[1].lower(): (5, 13)})
        return _ANY
    overcalled = ctx.partners and len(ctx.ours) == 1 and not ctx.mine and not partner_doubled
    if overcalled and call[1:] == ctx.partners[0]["strain"] and call[1:] != "NT":
        return _shows((8, 37), **{call[1].lower(): (3, 13)})
    return _ANY


def auction_constraints(auction: list[dict[str, Any]]) -> list[HandConstraint]:
    """What the whole ``auction`` (call records as observations give them) shows
    about each seat N, E, S, W: every call's :func:`call_constraint`, met."""
    found = [_ANY] * 4
    for k, record in enumerate(auction):
        seat = record["seat"]
        found[seat] = found[seat].meet(call_constraint(seat, auction[:k], _call_text(record)))
    return found


def _beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return _RANKS.index(card[0]) > _RANKS.index(best[0])
    return card[1] == trump


def rule_card(obs: Observation, legal: Sequence[str]) -> str:
    """The rule play (module docstring) of one of the ``legal`` cards (texts like
    ``As``) for the hand to play in ``obs``."""
    contract = obs["contract"]
    trump = None if contract["strain"] == "NT" else contract["strain"].lower()
    hand = obs["hand_to_play"]
    trick: list[str] = obs["trick"]
    rank = _RANKS.index

    def lowest(cards: Sequence[str]) -> str:
        return min(cards, key=lambda c: (rank(c[0]), c[1] == trump))

    if not trick:
        return _lead(list(legal), trump)
    leader = obs["leader"]
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], trump):
            best = i
    partner_wins = (leader + best) % 4 == (hand + 2) % 4
    winners = [c for c in legal if _beats(c, trick[best], trump)]
    if partner_wins or not winners or (len(trick) == 1 and trick[0][1] == legal[0][1]):
        if legal[0][1] == trick[0][1] or all(c[1] == legal[0][1] for c in legal):
            return lowest(legal)
        # A discard: the lowest card of the shortest side suit.
        side = [c for c in legal if c[1] != trump] or list(legal)
        return min(side, key=lambda c: (sum(1 for d in legal if d[1] == c[1]), rank(c[0])))
    return lowest(winners)


def _lead(legal: list[str], trump: str | None) -> str:
    rank = _RANKS.index
    by_suit: dict[str, list[str]] = {}
    for c in legal:
        by_suit.setdefault(c[1], []).append(c)
    for cards in by_suit.values():
        cards.sort(key=lambda c: -rank(c[0]))
    for cards in by_suit.values():
        if (
            len(cards) >= 2
            and rank(cards[0][0]) >= 9
            and rank(cards[0][0]) - rank(cards[1][0]) == 1
        ):
            return cards[0]
    side = {s: cs for s, cs in by_suit.items() if s != trump} or by_suit
    if trump is not None and trump in by_suit:
        singles = [cs[0] for s, cs in side.items() if len(cs) == 1 and rank(cs[0][0]) < 11]
        if singles:
            return singles[0]
    longest = max(side.values(), key=lambda cs: (len(cs), -rank(cs[0][0])))
    return longest[3] if len(longest) >= 4 else longest[-1]


class BridgeRuleAgent:
    """Bids the natural system and plays by rule (:func:`natural_call`,
    :func:`rule_card`). Deterministic: the same observation gives the same action;
    a system call that is not legal becomes a pass."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A call of the system during the auction, else a rule card."""
        check_legal_actions(legal_actions)
        by_text = {a.text: a for a in legal_actions}
        if observation["phase"] == "auction":
            call = natural_call(observation)
            return by_text.get(call) or by_text["pass"]
        cards = [a.text[5:] for a in legal_actions]
        return by_text["play " + rule_card(observation, cards)]


class BridgeSearchAgent:
    """Bids as :class:`BridgeRuleAgent`; plays cards by double dummy over sampled
    deals. For each card decision it deals the cards it cannot see ``samples``
    times (``cardkit._core.bridge_sample_deals``: uniform over the deals that fit
    the cards seen, the suits each seat has shown out of and what the auction
    shows, :func:`auction_constraints`), solves every deal double dummy in one call
    (``dd_solve_many`` on ``threads`` threads, None: every core) and plays the card
    that is best over the deals: with ``objective="tricks"`` the most tricks for
    its side in total, ties broken by the expected score of the contract; with
    ``"score"`` the other way round; remaining ties the lowest card.

    With ``read_defence`` (declarer's search only; off by default, as it has not
    shown a gain yet, ``docs/bridge.md``) a deal is kept only if each card a
    defender has played to the trick in progress was a double-dummy best card for
    the defence in it (:func:`_fit_the_defence`); rejected deals are drawn again,
    in draws of ``samples``. With ``weigh_defence`` (a floor in (0, 1]; None,
    the default: off) each deal counts instead by how likely a double-dummy
    defence was to play those cards if it is the real one (1/k for a card that was
    one of k best, ``weigh_defence`` for one that was not;
    :func:`_defence_likelihoods`); the two cannot be combined. Both read the
    trick in progress unless ``read_tricks`` (1 to 13, with either of them) says
    how many tricks back to read, counting the one in progress: 13 reads every
    card the defence has played, the opening lead included (a solve per
    defender's card and deal). With
    ``ties="most_best"`` cards still tied after both measures go to the one that
    keeps the most tricks of any card in the most deals (by weight), before the
    lowest card.

    A close decision gets more deals: while the best card's lead over the next
    best (by the objective, paired deal by deal) is under twice the root mean
    square of the per-deal differences, another ``samples`` deals are drawn and
    solved, until ``max_samples`` deals are kept (None: four times ``samples``;
    equal to ``samples``: one draw, when no deal is rejected; the last draw may
    go over by its kept deals), and at most twice the draws that takes (when no
    deal of them fits, the last draw is searched whole). A decision where the
    two lead on every deal alike stops at once. With ``rival="distinct"`` (the
    default) the card to lead is the best one taking other tricks than the best
    card in some deal, not its equal (touching cards take the same tricks in
    every deal); with ``rival="next"`` it is the next best card, so a best card
    with an equal stops the draws at once however close the next different card
    is. The defaults (32 deals a decision, up to 128 where it is close, the
    distinct rival) are the best estimate measured (``docs/bridge.md``).
    Cards of one suit with nothing
    left in play between them are played low without a search (they take the
    same tricks in every deal).

    Each decision's deals come from a seed derived from ``seed`` and the number
    of cards played, so the card chosen depends only on ``seed`` and the
    observation, never on ``threads`` or the decisions before it.

    ``stats`` counts, over the agent's life, the card ``decisions`` searched, the
    ``deals`` solved for them, the decisions settled as ``equal`` cards without a
    search, the deals ``rejected`` for not fitting the defence, and the searched
    decisions whose deals had to drop the auction's point ranges
    (``relaxed_points``) or its shapes too (``relaxed_shapes``): the sampler found
    no deal fitting all the evidence within its budget (a player left the
    system); :attr:`relaxed_decisions` is their sum."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 32,
        threads: int | None = None,
        objective: str = "tricks",
        max_samples: int | None = None,
        read_defence: bool = False,
        weigh_defence: float | None = None,
        ties: str = "lowest",
        rival: str = "distinct",
        read_tricks: int = 1,
    ) -> None:
        self._read_defence = check_flag("read_defence", read_defence)
        if weigh_defence is not None and (
            not isinstance(weigh_defence, (int, float))
            or isinstance(weigh_defence, bool)
            or not 0 < weigh_defence <= 1
        ):
            raise RuleOptionError(
                f"weigh_defence must be None or a number in (0, 1], got {weigh_defence!r}"
            )
        if weigh_defence is not None and read_defence:
            raise RuleOptionError("read_defence and weigh_defence read the same cards: pick one")
        self._weigh_defence = None if weigh_defence is None else float(weigh_defence)
        self._read_tricks = check_count("read_tricks", read_tricks, 1, 13)
        if self._read_tricks != 1 and not read_defence and weigh_defence is None:
            raise RuleOptionError(
                "read_tricks says how far read_defence or weigh_defence reads: give one of them"
            )
        if ties not in ("lowest", "most_best"):
            raise RuleOptionError(f"ties must be 'lowest' or 'most_best', got {ties!r}")
        self._ties = ties
        if rival not in ("next", "distinct"):
            raise RuleOptionError(f"rival must be 'next' or 'distinct', got {rival!r}")
        self._rival = rival
        self._key = random.Random(check_agent_seed(seed)).getrandbits(64)
        self._samples = check_count("samples", samples, 1, 1000)
        self._max_samples = (
            4 * self._samples
            if max_samples is None
            else check_count("max_samples", max_samples, self._samples, 4000)
        )
        self._threads = None if threads is None else check_count("threads", threads, 1, 256)
        if objective not in ("tricks", "score"):
            raise RuleOptionError(f"objective must be 'tricks' or 'score', got {objective!r}")
        self._objective = objective
        self._rule = BridgeRuleAgent()
        self.stats: dict[str, int] = dict.fromkeys(
            ("decisions", "deals", "equal", "relaxed_points", "relaxed_shapes", "rejected"), 0
        )

    @property
    def relaxed_decisions(self) -> int:
        """The searched decisions whose deals dropped some of the auction's
        evidence (``stats``: point ranges only, or shapes too)."""
        return self.stats["relaxed_points"] + self.stats["relaxed_shapes"]

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule call in the auction; else the card best over sampled deals
        solved double dummy (class docstring)."""
        check_legal_actions(legal_actions)
        if observation["phase"] != "play" or len(legal_actions) == 1:
            return self._rule.act(observation, legal_actions)
        equal = _equal_cards(observation, legal_actions)
        if equal is not None:
            self.stats["equal"] += 1
            return equal
        obs = observation
        contract = obs["contract"]
        strain = STRAINS.index(contract["strain"])
        trick = [INDEX[c] for c in obs["trick"]]
        # The contract's score for declarer's side by the tricks its side takes
        # from here on, seen from the side to play.
        declarer = contract["declarer"]
        ours = obs["hand_to_play"] % 2 == declarer % 2
        left = 13 - len(obs["tricks"])
        vulnerable = obs["vulnerable"][declarer % 2]
        doubling = {"": 0, "X": 1, "XX": 2}[contract["doubling"]]
        values = []
        for taken in range(left + 1):
            total = obs["declarer_tricks"] + (taken if ours else left - taken)
            value = score(contract["level"], strain, doubling, vulnerable, total)["total"]
            values.append(value if ours else -value)
        by_card = {INDEX[a.text[5:]]: a for a in legal_actions}
        # Per card, the tricks it keeps in each deal solved so far, in deal order,
        # and each deal's weight (how likely the defence's cards make it).
        taken_in: dict[int, list[int]] = {c: [] for c in by_card}
        weights: list[float] = []
        relaxed = 0
        draws = 0
        # Deals the defence's cards reject cost a draw each: twice the draws
        # max_samples needs, so a defence that fits few deals cannot draw on
        # without end.
        most_draws = 2 * -(-self._max_samples // self._samples)
        while True:
            worlds, level = self._worlds(obs, draws * self._samples)
            draws += 1
            relaxed = max(relaxed, level)
            fitting = (
                _fit_the_defence(obs, worlds, strain, self._threads, self._read_tricks)
                if self._read_defence
                else worlds
            )
            self.stats["rejected"] += len(worlds) - len(fitting)
            if fitting or draws < most_draws or taken_in[next(iter(by_card))]:
                # When no deal of any draw fits, the last draw is searched whole.
                worlds = fitting
            if self._weigh_defence is not None:
                weights += _defence_likelihoods(
                    obs, worlds, strain, self._threads, self._weigh_defence, self._read_tricks
                )
            else:
                weights += [1.0] * len(worlds)
            solved = dd_solve_many(
                worlds,
                [strain] * len(worlds),
                [obs["leader"]] * len(worlds),
                [trick] * len(worlds),
                self._threads,
            )
            for plays in solved:
                found = dict(plays)
                for c in by_card:
                    taken_in[c].append(found[c])
            # The per-deal best of any card matters only to ties="most_best".
            most = (
                [max(ts) for ts in zip(*taken_in.values(), strict=True)]
                if self._ties == "most_best"
                else []
            )
            ranked = sorted(
                by_card, key=lambda c: self._merit(taken_in[c], values, c, weights, most)
            )
            count = len(taken_in[ranked[-1]])
            if not count:
                continue
            if count >= self._max_samples or draws >= most_draws:
                break
            if count >= self._samples and _clear(
                self._primary(taken_in[ranked[-1]], values),
                self._primary(taken_in[self._rival_of(ranked, taken_in)], values),
                weights,
            ):
                break
        self.stats["decisions"] += 1
        self.stats["deals"] += len(taken_in[ranked[-1]])
        if relaxed:
            self.stats["relaxed_points" if relaxed == 1 else "relaxed_shapes"] += 1
        return by_card[ranked[-1]]

    def _rival_of(self, ranked: list[int], taken_in: dict[int, list[int]]) -> int:
        """The card the best one (``ranked[-1]``) must lead clearly: the next
        best, or with ``rival="distinct"`` the best card that takes other tricks
        than it in some deal (its equals, KQ in one hand or cards made equal by
        the ones played, take the same tricks in every deal, and leading them
        says nothing about the other cards; when every card is its equal, the
        next best, which it leads on no deal)."""
        if self._rival == "distinct":
            best = taken_in[ranked[-1]]
            for card in reversed(ranked[:-1]):
                if taken_in[card] != best:
                    return card
        return ranked[-2]

    def _primary(self, taken: list[int], values: list[int]) -> list[int]:
        """Per deal, what the objective ranks first: tricks or the score."""
        return taken if self._objective == "tricks" else [values[t] for t in taken]

    def _merit(
        self,
        taken: list[int],
        values: list[int],
        card: int,
        weights: list[float],
        most: list[int],
    ) -> tuple[float, float, float, int]:
        """The sort key of a card over the deals (each counting its weight): the
        objective, the other measure, with ``ties="most_best"`` the weight of the
        deals in which the card keeps the ``most`` tricks of any card, then the
        lower card."""
        if self._weigh_defence is None:  # every weight is 1: plain sums, as fast as before
            tricks: float = sum(taken)
            points: float = sum(map(values.__getitem__, taken))
        else:
            tricks = sum(w * t for w, t in zip(weights, taken, strict=True))
            points = sum(w * values[t] for w, t in zip(weights, taken, strict=True))
        best = 0.0
        if self._ties == "most_best":
            best = sum(w for w, t, m in zip(weights, taken, most, strict=True) if t == m)
        if self._objective == "tricks":
            return tricks, points, best, -card
        return points, tricks, best, -card

    def _worlds(self, obs: Observation, drawn: int = 0) -> tuple[list[list[int]], int]:
        """``samples`` deals of the position, each as the four remaining hands
        (card-set ints, N, E, S, W), and how far the auction's evidence had to be
        relaxed for them (0 none, 1 points, 2 shapes). ``drawn``: the deals this
        decision already has; each draw of the decision gets its own seed."""
        seat, to_play = obs["seat"], obs["hand_to_play"]
        dummy = obs["contract"]["dummy"]
        known: dict[int, list[str]] = {to_play: _own_hand(obs)}
        if obs["dummy_hand"]:
            known[dummy] = obs["dummy_hand"]
        if to_play != seat:  # declarer playing dummy also sees its own hand
            known[seat] = obs["hand"]
        played = [0, 0, 0, 0]
        voids = [0, 0, 0, 0]
        tricks = [*obs["tricks"], obs["trick"]]
        leaders = [*obs["trick_leaders"], obs["leader"]]
        for cards, leader in zip(tricks, leaders, strict=True):
            for k, text in enumerate(cards):
                who = (leader + k) % 4
                played[who] |= 1 << INDEX[text]
                if text[1] != cards[0][1]:
                    voids[who] |= 1 << _SUITS.index(cards[0][1])
        masks = [mask_of_names(known[s]) if s in known else 0 for s in range(4)]
        seen = 0
        for m in [*masks, *played]:
            seen |= m
        hidden = [s for s in range(4) if s not in known]
        shows = auction_constraints(obs["auction"])
        # One stream per decision (the cards played so far name it) and draw.
        stream = 52 * (drawn // self._samples) + 4 * len(obs["tricks"]) + len(obs["trick"])
        deals, relaxed = bridge_sample_deals(
            ((1 << 52) - 1) & ~seen,
            [played[s] for s in hidden],
            [voids[s] for s in hidden],
            [shows[s].hcp for s in hidden],
            [list(shows[s].lengths) for s in hidden],
            [shows[s].balanced for s in hidden],
            self._samples,
            derive_seed(self._key, stream),
        )
        worlds = []
        for dealt in deals:
            hands = list(masks)
            for s, hand in zip(hidden, dealt, strict=True):
                hands[s] = hand
            worlds.append(hands)
        return worlds, relaxed


def _clear(best: list[int], second: list[int], weights: list[float]) -> bool:
    """Whether ``best`` leads ``second`` clearly over the same deals, each deal
    counting its weight: by at least twice the root of the sum of the squared
    weighted per-deal differences (a paired z of 2, on the safe side; with equal
    weights twice their root mean square times the square root of their number),
    or not at all on any deal of some weight (more deals would seldom part them)."""
    diffs = [w * (b - s) for w, b, s in zip(weights, best, second, strict=True)]
    squares = sum(d * d for d in diffs)
    lead = sum(diffs)
    return squares == 0 or (lead > 0 and lead * lead >= 4 * squares)


def _equal_cards(obs: Observation, legal_actions: Sequence[Action]) -> Action | None:
    """The lowest legal card when every legal card is of one suit with no card
    still in play between them: such cards take the same tricks in every deal,
    so the search would play the lowest anyway.

    Gone from play are the cards of completed tricks, and those of the trick in
    progress when its winning card so far beats every legal card (none of them
    can win it, so which is played decides nothing now, and a card of the trick
    between two of them can never divide them later). A card still held by any
    other hand, partner's or dummy's included, divides them: playing the higher
    one can block the suit (overtake partner's card, or leave the lower one to
    be forced under it), so the two are not alike."""
    cards = [a.text[5:] for a in legal_actions]
    if len({c[1] for c in cards}) != 1:
        return None
    suit = cards[0][1]
    ranks = sorted(_RANKS.index(c[0]) for c in cards)
    gone = {c for t in obs["tricks"] for c in t if c[1] == suit}
    trick: list[str] = obs["trick"]
    if trick:
        contract = obs["contract"]
        trump = None if contract["strain"] == "NT" else contract["strain"].lower()
        best = trick[0]
        for c in trick[1:]:
            if _beats(c, best, trump):
                best = c
        if not any(_beats(c, best, trump) for c in cards):
            gone.update(c for c in trick if c[1] == suit)
    held = set(ranks)
    for r in range(ranks[0], ranks[-1] + 1):
        if r not in held and _RANKS[r] + suit not in gone:
            return None
    low = _RANKS[ranks[0]] + suit
    return next(a for a in legal_actions if a.text[5:] == low)


def _own_hand(obs: Observation) -> list[str]:
    """The cards of the hand to play: dummy's when declarer plays them."""
    cards: list[str] = obs["dummy_hand"] if obs["hand_to_play"] != obs["seat"] else obs["hand"]
    return cards


def _defence_likelihoods(
    obs: Observation,
    worlds: list[list[int]],
    strain: int,
    threads: int | None,
    floor: float,
    tricks: int = 1,
) -> list[float]:
    """Per deal of ``worlds``, how likely a double-dummy defence was to play the
    cards the defenders have played in the last ``tricks`` tricks (1: the trick
    in progress; 13: the whole play, the opening lead included), if that deal is
    the real one: the product over those cards of 1/k when the card was one of
    the k double-dummy best cards for the defence in the position before it,
    else ``floor`` (1.0 for every deal of a defender's search, or with no
    defender's card read).

    The sampler deals the unseen cards as if the defenders' cards told nothing
    but their suits; a strong defence's choices do tell more. A defender who
    leads a low diamond into dummy's A Q seldom holds the king when another
    lead costs nothing; second hand low rarely holds the card that beats
    dummy's. Deals in which the defence's card gave a trick away are the ones a
    finesse or a drop is guessed wrongly on. A solve per defender's card read,
    on the deals before the decision's own solve; the position before a card is
    the deal with every card played from it on back in the hands that played
    them."""
    likely = [1.0] * len(worlds)
    declarer = obs["contract"]["declarer"]
    if obs["hand_to_play"] % 2 != declarer % 2:
        return likely
    # The tricks read, oldest first, the one in progress last.
    done = list(zip(obs["tricks"], obs["trick_leaders"], strict=True)) if tricks > 1 else []
    history = [*done[max(0, len(done) - tricks + 1) :], (obs["trick"], obs["leader"])]
    # Every card played in them, in order: its trick's leader, the trick's cards
    # before it, the seat that played it and the card.
    plays = [
        (leader, [INDEX[c] for c in cards[:k]], (leader + k) % 4, INDEX[text])
        for cards, leader in history
        for k, text in enumerate(cards)
    ]
    # back[i][s]: the cards seat s played from play i on, which it held before it.
    back = [[0, 0, 0, 0]]
    for _, _, seat, card in reversed(plays):
        hands = list(back[-1])
        hands[seat] |= 1 << card
        back.append(hands)
    back.reverse()
    # Deals already ruled out (no floor) are not solved again.
    alive = list(range(len(worlds)))
    for i, (leader, prefix, seat, card) in enumerate(plays):
        if seat % 2 == declarer % 2 or not alive:
            continue
        # A defender following with its only card of the suit led had no choice
        # (1/1): only the deals where it had several, or none (a discard), are solved.
        led = _SUIT_MASKS[prefix[0] % 4] if prefix else 0
        chose = [
            j
            for j in alive
            if not led or ((worlds[j][seat] | back[i][seat]) & led).bit_count() != 1
        ]
        if not chose:
            continue
        before = [
            [held | again for held, again in zip(worlds[j], back[i], strict=True)] for j in chose
        ]
        solved = dd_solve_many(
            before, [strain] * len(before), [leader] * len(before), [prefix] * len(before), threads
        )
        for j, plays_there in zip(chose, solved, strict=True):
            most = max(t for _, t in plays_there)
            best = [c for c, t in plays_there if t == most]
            likely[j] *= 1 / len(best) if card in best else floor
        alive = [j for j in alive if likely[j] > 0]
    return likely


def _fit_the_defence(
    obs: Observation, worlds: list[list[int]], strain: int, threads: int | None, tricks: int = 1
) -> list[list[int]]:
    """The ``worlds`` in which every card a defender has played in the last
    ``tricks`` tricks (1: the trick in progress) was a double-dummy best card for
    the defence (worlds of a defender's search, or with no defender's card read:
    all of them); see :func:`_defence_likelihoods`, here with no floor."""
    likely = _defence_likelihoods(obs, worlds, strain, threads, 0.0, tricks)
    return [hands for hands, weight in zip(worlds, likely, strict=True) if weight > 0]
