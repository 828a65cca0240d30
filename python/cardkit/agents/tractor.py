"""Tractor agents: a rule agent (declares on strength, buries short side suits and
their points, leads tractors and pairs, feeds points to a partner who is winning
the trick, trumps tricks worth points) and a determinized search agent that plays
the rule agent's burying and scores each card-play choice by random Rust playouts
of hidden hands sampled from what it has seen; it declares like the rule agent or,
with ``declaring="search"``, from sampled deals played out from the declaring on
(:func:`declare_values`). Both read only their observation and the listed
actions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardkit._core import (
    Card,
    TractorDeal,
    deck,
    parse_cards,
    tractor_action_index,
    tractor_action_text,
    tractor_declare_values,
    tractor_rule_burial,
    tractor_rule_declare,
    tractor_trick_winner,
)
from cardkit._validate import (
    check_agent_seed,
    check_count,
    check_endgame,
    check_legal_actions,
    check_seed,
)
from cardkit.api import Action, Observation
from cardkit.errors import CardkitError, IllegalActionError, shown
from cardkit.games._base import check_choice

__all__ = ["DECLARINGS", "TractorRuleAgent", "TractorSearchAgent", "card_order", "declare_values"]

#: The search agent's declaring styles: the rule agent's trump count, or sampled play.
DECLARINGS = ("rule", "search")

_RANKS = "23456789TJQKA"
_INDEX = tractor_action_index()
_DECLARE_SINGLE, _DECLARE_PAIR, _DECLARE_BLACK, _DECLARE_RED, _BURY, _PLAY_CARD = _INDEX[1:7]
_PACK = Counter(deck("double108"))
_SUITS = "cdhs"


def card_order(card: Card, level: str, trump: str | None) -> tuple[int, int]:
    """``(is trump, strength)``: how strong a card is once trumps are known (trump
    suits as in docs/tractor.md; equal level cards share a strength)."""
    text = str(card)
    if text == "RJ":
        return (1, 100)
    if text == "BJ":
        return (1, 99)
    if text[0] == level:
        return (1, 98 if text[1] == trump else 97)
    return (int(text[1] == trump), _RANKS.index(text[0]))


def _suit(card: Card, level: str, trump: str | None) -> str:
    """The effective suit: ``"T"`` for trumps, else the suit letter."""
    return "T" if card_order(card, level, trump)[0] else card.suit or "T"


def _points(card: Card) -> int:
    return 5 if card.rank == "5" else 10 if card.rank in ("T", "K") else 0


def _speech_ids(level: str) -> dict[str, int]:
    """The action id of each speech text (``pass`` and the ten declarations) at ``level``."""
    return {str(tractor_action_text(i, level)): i for i in range(_BURY)}


def _declaration_id(declaration: dict[str, object]) -> int:
    """The action id of a declaration as the observation shows it."""
    name = declaration["declared"]
    if name == "black jokers":
        return int(_DECLARE_BLACK)
    if name == "red jokers":
        return int(_DECLARE_RED)
    base = _DECLARE_SINGLE if name == "level card" else _DECLARE_PAIR
    return int(base) + _SUITS.index(str(declaration["suit"]))


def _action_id(deal: TractorDeal, action: Action) -> int:
    """The card-play id of a listed ``play`` action in ``deal``: the lead id of its
    cards when a trick is to be led, else the id of its one follow card."""
    cards = parse_cards(action.args[0])
    if deal.lead is None:
        lead = deal.lead_id(cards)
        assert lead is not None  # a listed action names a legal play
        return lead
    return _PLAY_CARD + cards[0].index


def declare_values(
    observation: Observation, legal_actions: Sequence[Action], worlds: int, seed: int
) -> list[float]:
    """The seat's team's expected level result of each listed speech (``pass`` or a
    declaration), in the units of the game's return: the levels the deal gives the
    seat's team minus those it gives the other.

    Each of ``worlds`` sampled deals gives the cards the seat cannot see (the other
    hands and the kitty) at random, a seat that declared keeping the cards it
    showed; replays the speeches so far (passes between the declarations, from
    ``first_speaker``); makes the speech and plays the deal to its end in Rust with
    the playout policy: the speeches left as :class:`TractorRuleAgent` declares
    (so the others may overcall, and four passes expose the kitty), its burial, and
    the heuristic card play of :meth:`TractorDeal.heuristic_playout`. Every speech
    shares each world and each playout seed. Deterministic given ``seed``.

    The approximation (docs/tractor.md, "Declaring from search"): the passes so far
    say nothing about the passers' hands, and the seat itself, if it speaks again,
    speaks by the rule."""
    check_legal_actions(legal_actions)
    worlds = check_count("worlds", worlds, 1, 1_000_000)
    seed = check_seed("seed", seed) or 0
    if observation.get("phase") != "declare":
        raise IllegalActionError(
            f"declare_values needs a declaring observation, got phase "
            f"{shown(observation.get('phase'))}"
        )
    ids = _speech_ids(observation["level"])
    candidates = []
    for action in legal_actions:
        found = ids.get(action.text)
        if found is None:
            raise IllegalActionError(f"{shown(action.text)} is not a speech: pass or declare")
        candidates.append(found)
    seat = observation["seat"]
    declarations = [(d["seat"], _declaration_id(d)) for d in observation["declarations"]]
    return tractor_declare_values(
        seat,
        observation["hand"],
        list(observation["team_levels"]),
        observation["dealer"],
        observation["first_speaker"],
        declarations,
        candidates,
        worlds,
        seed,
    )


class TractorRuleAgent:
    """Rules of thumb for every phase of a Tractor deal (see the module docstring)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_agent_seed(seed))

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The chosen action among ``legal_actions``."""
        check_legal_actions(legal_actions)
        phase = observation.get("phase")
        if phase == "declare":
            return self._declare(observation, legal_actions)
        if phase == "bury":
            return self._bury(observation, legal_actions)
        if phase == "play":
            if not observation.get("trick") and not observation.get("chosen"):
                return self._lead(observation, legal_actions)
            return self._follow(observation, legal_actions)
        return legal_actions[self._rng.randrange(len(legal_actions))]

    # -- declaring and burying -----------------------------------------------------

    @staticmethod
    def _declare(observation: Observation, legal: Sequence[Action]) -> Action:
        """Declare the suit with the most trumps it would give, when that is at least
        ten of 25 cards (level cards and jokers count for every suit); joker pairs
        (no-trump) with six or more level cards and jokers. The rule lives in Rust
        (:func:`~cardkit._core.tractor_rule_declare`), where the declaring search's
        playouts use it too."""
        ids = _speech_ids(observation["level"])
        by_id = {ids[action.text]: action for action in legal}
        chosen = tractor_rule_declare(observation["hand"], observation["level"], list(by_id))
        return by_id.get(chosen, Action("pass"))

    @staticmethod
    def _bury(observation: Observation, legal: Sequence[Action]) -> Action:
        """Bury from the shortest side suit, its point cards first, then its low cards;
        never trumps, aces or pairs while other cards remain (the first card of
        :func:`~cardkit._core.tractor_rule_burial`, the rule the playouts bury by)."""
        plan = tractor_rule_burial(observation["hand"], observation["level"], observation["trump"])
        listed = {action.text: action for action in legal}
        # A game lists every card of the hand; a caller listing fewer gets the first
        # of the plan it lists.
        for card in plan:
            if (action := listed.get(f"bury {card}")) is not None:
                return action
        return legal[0]

    # -- the card play ---------------------------------------------------------------

    @staticmethod
    def _lead(observation: Observation, legal: Sequence[Action]) -> Action:
        """A tractor if it has one (side suits first), else a high pair, else a side
        ace or king, else the lowest side card without points, else the lowest card."""
        level, trump = observation["level"], observation["trump"]

        def shape_key(action: Action) -> tuple[int, int, int, int]:
            cards = parse_cards(action.args[0])
            is_trump, strength = card_order(cards[0], level, trump)
            size = len(cards)
            if size > 2:
                return (0, is_trump, -size, -strength)
            if size == 2:
                return (1, is_trump, 0, -strength) if strength >= 8 or is_trump else (4, 0, 0, 0)
            if not is_trump and strength >= 11:
                return (2, 0, 0, -strength)
            return (3, is_trump, _points(cards[0]), strength)

        return min(legal, key=shape_key)

    @staticmethod
    def _follow(observation: Observation, legal: Sequence[Action]) -> Action:
        """Feed points to a partner who is winning; trump or beat a single worth
        points when it can; otherwise the cheapest card."""
        seat = observation["seat"]
        level, trump = observation["level"], observation["trump"]
        trick = observation["trick"]
        plays = [cards for _, cards in trick]
        winner = trick[tractor_trick_winner(plays, level, trump)][0] if trick else None
        partner_wins = winner is not None and winner % 2 == seat % 2
        points = sum(_points(c) for cards in plays for c in parse_cards(cards))
        cards = [Card(a.args[0]) for a in legal]

        def cheap(card: Card) -> tuple[int, int, int]:
            is_trump, strength = card_order(card, level, trump)
            return (_points(card), is_trump, strength)

        if partner_wins:
            best = max(cards, key=lambda c: (_points(c), -card_order(c, level, trump)[0]))
            if _points(best) > 0:
                return Action(f"play {best}")
        single_led = len(parse_cards(plays[0])) == 1 if plays else False
        if single_led and not partner_wins and (points > 0 or len(plays) == 3):
            winning = [
                c
                for c in cards
                if tractor_trick_winner([*plays, str(c)], level, trump) == len(plays)
            ]
            if winning:
                chosen = min(winning, key=lambda c: card_order(c, level, trump))
                return Action(f"play {chosen}")
        return Action(f"play {min(cards, key=cheap)}")


class TractorSearchAgent:
    """Determinized search for the card play: for each of ``worlds`` samples of the
    unseen cards (spread over the other hands and, unless it buried it, the kitty,
    by their sizes), every listed action is played and the deal finished by random
    Rust playouts; the action with the best mean points for its team (the
    attackers' points, kitty bonus included, counted against the defenders) is
    chosen. Burying follows :class:`TractorRuleAgent`.

    ``endgame`` > 0 solves a world exactly instead of playing it out once the
    action leaves at most that many cards in the four hands, both teams playing
    their best with every hand known, each solve visiting at most
    ``endgame_nodes`` nodes (past that, the world is played out as before):
    :meth:`~cardkit._core.TractorDeal.action_points`, valuing a world by the
    playouts' own measure, one solver serving all the actions of a world.
    ``endgame=0`` (default) plays every world out.

    ``declaring="rule"`` (default) declares like the rule agent;
    ``declaring="search"`` makes the speech (``pass`` or a listed declaration) with
    the best expected level result for its team over ``declare_worlds`` sampled
    deals played out from the declaring on (:func:`declare_values`; ``pass`` on
    ties)."""

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 16,
        declaring: str = "rule",
        declare_worlds: int = 64,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self._worlds = check_count("worlds", worlds, 1, 10_000)
        self._rule = TractorRuleAgent(seed)
        self.declaring = check_choice("declaring", declaring, DECLARINGS)
        self.declare_worlds = check_count("declare_worlds", declare_worlds, 1, 1_000_000)
        self.endgame, self.endgame_nodes = check_endgame(endgame, endgame_nodes, 100)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The chosen action among ``legal_actions``."""
        check_legal_actions(legal_actions)
        phase = observation.get("phase")
        if phase == "declare" and self.declaring == "search" and len(legal_actions) > 1:
            seed = self._rng.getrandbits(64)
            values = declare_values(observation, legal_actions, self.declare_worlds, seed)
            return legal_actions[max(range(len(values)), key=values.__getitem__)]
        if phase != "play" or len(legal_actions) == 1:
            return self._rule.act(observation, legal_actions)
        seat = observation["seat"]
        dealer = observation["dealer"]
        attacking = seat % 2 != dealer % 2
        totals = [0.0] * len(legal_actions)
        ids: list[int] = []
        sampled = 0
        for _ in range(4 * self._worlds):
            found = self._world(observation)
            if found is None:
                continue
            world, kitty = found
            sampled += 1
            if not ids:
                # Every world shares the trick in progress and the trumps, so an
                # action's id is the same in all of them.
                ids = [_action_id(world, action) for action in legal_actions]
            seeds = [self._rng.getrandbits(64) for _ in legal_actions]
            points = world.action_points(
                ids, seeds, dealer, kitty, self.endgame, self.endgame_nodes
            )
            for i, p in enumerate(points):
                totals[i] += p if attacking else -p
            if sampled == self._worlds:
                break
        if not sampled:
            return self._rule.act(observation, legal_actions)
        best = max(range(len(legal_actions)), key=totals.__getitem__)
        return legal_actions[best]

    def _world(self, observation: Observation) -> tuple[TractorDeal, list[Card]] | None:
        """A deal of sampled hidden hands at the start of the trick in progress,
        replayed up to now, and the kitty of that world; None if the sample did not
        fit the play so far (a pair a follower did not supply, say)."""
        seat = observation["seat"]
        level, trump = observation["level"], observation["trump"]
        own = [Card(c) for c in observation["hand"]] + [Card(c) for c in observation["chosen"]]
        seen = Counter(own)
        # Effective suits each holder has shown out of (a follow short of the led suit).
        voids: list[set[str]] = [set(), set(), set(), set(), set()]
        orders = [
            [
                ((t["leader"] + k) % 4, parse_cards(t["cards"][(t["leader"] + k) % 4]))
                for k in range(4)
            ]
            for t in observation["tricks"]
        ]
        orders.append([(s, parse_cards(cards)) for s, cards in observation["trick"]])
        for order in orders:
            for _, cards in order:
                seen.update(cards)
            if not order:
                continue
            led = _suit(order[0][1][0], level, trump)
            size = len(order[0][1])
            for s, cards in order[1:]:
                if sum(_suit(c, level, trump) == led for c in cards) < size:
                    voids[s].add(led)
        buried = observation["buried"]
        if buried is not None:
            seen.update(Card(c) for c in buried)
        pool = list((_PACK - seen).elements())
        self._rng.shuffle(pool)
        room = list(observation["card_counts"])
        room[seat] = 0
        # The kitty, unless this seat buried it, is a fifth holder with no voids.
        room.append(0 if buried is not None else len(pool) - sum(room))
        hands: list[list[Card]] = [[], [], [], [], []]
        for card in pool:
            suit = _suit(card, level, trump)
            open_ = [h for h in range(5) if room[h] > 0 and suit not in voids[h]]
            if not open_:
                return None
            h = self._rng.choice(open_)
            hands[h].append(card)
            room[h] -= 1
        kitty = [Card(c) for c in buried] if buried is not None else hands[4]
        hands[seat] = own
        trick = [(s, parse_cards(cards)) for s, cards in observation["trick"]]
        for s, cards in trick:
            hands[s].extend(cards)
        deal = TractorDeal(hands[:4], level, trump, trick[0][0] if trick else seat)
        try:
            for k, (_, cards) in enumerate(trick):
                lead = deal.lead_id(cards) if k == 0 else None
                for action_id in (
                    [lead] if lead is not None else [_PLAY_CARD + c.index for c in cards]
                ):
                    deal.apply_id(action_id)
            for card in observation["chosen"]:
                deal.apply_id(_PLAY_CARD + Card(card).index)
        except CardkitError:
            return None
        return deal, kitty
