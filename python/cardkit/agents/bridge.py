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
from typing import Any

from cardkit._validate import check_agent_seed, check_count, check_legal_actions
from cardkit.api import Action, Observation
from cardkit.cards import Card
from cardkit.games.bridge import STRAINS

__all__ = ["BridgeRuleAgent", "BridgeSearchAgent", "hand_shape", "natural_call", "rule_card"]

_SUITS = "cdhs"
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


def natural_call(obs: Observation) -> str:
    """The call of the natural system (module docstring) for the seat of ``obs``."""
    seat = obs["seat"]
    partner = (seat + 2) % 4
    hcp, lengths, balanced = hand_shape(obs["hand"])
    auction: list[dict[str, Any]] = obs["auction"]
    bids = _bids(auction)
    last = None if not bids else (bids[-1]["level"], STRAINS.index(bids[-1]["strain"]))
    ours = [b for b in bids if b["seat"] % 2 == seat % 2]
    theirs = [b for b in bids if b["seat"] % 2 != seat % 2]
    mine = [b for b in bids if b["seat"] == seat]
    partners = [b for b in bids if b["seat"] == partner]
    longest = max(range(4), key=lambda s: (lengths[s], s))

    if not bids:
        return _opening(hcp, lengths, balanced)
    opened_by_us = bids[0]["seat"] % 2 == seat % 2
    if not opened_by_us:
        return _competitive(obs, hcp, lengths, balanced, bids, last, ours, theirs, partners)
    if theirs:
        # They came in over our opening: a penalty double or pass in this system.
        return _penalty_double(obs, hcp, lengths, theirs, last) or "pass"
    first = bids[0]
    if first["seat"] == partner and not mine:
        return _respond(hcp, lengths, balanced, first, last)
    if first["seat"] == seat and len(mine) == 1 and len(partners) == 1:
        return _rebid(hcp, lengths, balanced, first, partners[0], last)
    if first["seat"] == partner and len(mine) == 1:
        return _responder_again(hcp, lengths, first, mine[0], partners, last)
    if first["seat"] == seat and first["strain"] == "C" and first["level"] == 2:
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
    deals. For each card decision it deals the cards it cannot see (``samples``
    deals, each consistent with the cards seen and the suits each seat has shown
    out of), solves every deal double dummy (``cardkit.bridge.dd_solve_many``, one
    thread) and plays the card whose side takes the most tricks in total (ties: the
    lowest card). Reproducible from ``seed``."""

    def __init__(self, seed: int | None = None, samples: int = 16) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self._samples = check_count("samples", samples, 1, 1000)
        self._rule = BridgeRuleAgent()

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule call in the auction; else the card with the best double-dummy
        total over sampled deals."""
        check_legal_actions(legal_actions)
        if observation["phase"] != "play" or len(legal_actions) == 1:
            return self._rule.act(observation, legal_actions)
        from cardkit.bridge import Position, dd_solve_many

        positions = [
            Position(hands, STRAINS.index(observation["contract"]["strain"]), leader, trick)
            for hands, leader, trick in self._worlds(observation)
        ]
        totals: dict[Card, int] = {}
        for solved in dd_solve_many(positions, threads=1):
            for card, tricks in solved.items():
                totals[card] = totals.get(card, 0) + tricks
        by_card = {Card(a.text[5:]): a for a in legal_actions}
        best = max(by_card, key=lambda c: (totals.get(c, -1), -c.index))
        return by_card[best]

    def _worlds(
        self, obs: Observation
    ) -> list[tuple[tuple[tuple[Card, ...], ...], int, tuple[Card, ...]]]:
        """``samples`` deals of the unseen cards: (hands, current leader, trick)."""
        seat, to_play = obs["seat"], obs["hand_to_play"]
        dummy = obs["contract"]["dummy"]
        known: dict[int, list[Card]] = {to_play: [Card(c) for c in _own_hand(obs)]}
        if obs["dummy_hand"]:
            known[dummy] = [Card(c) for c in obs["dummy_hand"]]
        if to_play != seat:  # declarer playing dummy also sees its own hand
            known[seat] = [Card(c) for c in obs["hand"]]
        played = [0, 0, 0, 0]
        void: list[set[str]] = [set(), set(), set(), set()]
        seen: set[Card] = {c for cards in known.values() for c in cards}
        tricks = [*obs["tricks"], obs["trick"]]
        leaders = [*obs["trick_leaders"], obs["leader"]]
        for cards, leader in zip(tricks, leaders, strict=True):
            for k, text in enumerate(cards):
                who = (leader + k) % 4
                played[who] += 1
                seen.add(Card(text))
                if text[1] != cards[0][1]:
                    void[who].add(cards[0][1])
        hidden = [s for s in range(4) if s not in known]
        room = {s: 13 - played[s] for s in hidden}
        unseen = [c for c in _DECK if c not in seen]
        trick = tuple(Card(c) for c in obs["trick"])
        worlds = []
        for _ in range(self._samples):
            dealt = _deal_unseen(unseen, hidden, room, void, self._rng)
            hands = tuple(tuple(known[s] if s in known else dealt[s]) for s in range(4))
            worlds.append((hands, obs["leader"], trick))
        return worlds


_DECK = [Card(r + s) for s in _SUITS for r in _RANKS]


def _own_hand(obs: Observation) -> list[str]:
    """The cards of the hand to play: dummy's when declarer plays them."""
    cards: list[str] = obs["dummy_hand"] if obs["hand_to_play"] != obs["seat"] else obs["hand"]
    return cards


def _deal_unseen(
    unseen: list[Card],
    hidden: list[int],
    room: dict[int, int],
    void: list[set[str]],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """The unseen cards dealt to the hidden seats, each given its number of cards
    and none of a suit it has shown out of when the cards allow it: cards of the
    suits fewest seats may hold go first, each to a random seat that may hold it."""
    cards = list(unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(str(c)[1] not in void[s] for s in hidden))
    left = dict(room)
    dealt: dict[int, list[Card]] = {s: [] for s in hidden}
    for card in cards:
        open_seats = [s for s in hidden if left[s] and str(card)[1] not in void[s]]
        # Shown-out information can be inconsistent with the counts only through a
        # sampling dead end; then any seat with room takes the card.
        choices = open_seats or [s for s in hidden if left[s]]
        seat = rng.choice(choices)
        dealt[seat].append(card)
        left[seat] -= 1
    return dealt
