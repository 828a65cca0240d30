"""Hearts agents: a rule-based player (passing to void suits and shed danger,
ducking, Q♠ management, moon defence) and a search player that samples hidden
hands consistent with the play so far and scores each card by fast Rust
playouts. Both read only their observation."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence

from cardkit._core import hearts_moon_card, hearts_pass_search, hearts_search
from cardkit._validate import (
    check_agent_seed,
    check_count,
    check_endgame,
    check_legal_actions,
    check_real,
)
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError, RuleOptionError
from cardkit.games._tricks import NAMES, PLAY_INDEX, SUIT_MASKS, bits
from cardkit.games.hearts import PASS_DIRECTIONS, PASS_ONE, penalty_points

from ._trickview import INDEX, TrickView, check_time_per_move, mask_of_names, search_values

__all__ = [
    "DEAL_OBJECTIVES",
    "PLAYOUT_POLICIES",
    "STRONGEST",
    "HeartsRuleAgent",
    "HeartsSearchAgent",
    "queen_evidence",
]

#: The playout policies of :class:`HeartsSearchAgent`: ``plain`` ducks and dumps
#: without reading the cards out; ``counting`` reads the unplayed cards as a whole
#: (leads that cannot win, Q♠ still out, tricks won anyway); ``unloading`` counts
#: and also takes clean tricks as the last seat with its highest card and, void,
#: sheds singletons and hearts sooner (``docs/hearts.md``).
PLAYOUT_POLICIES = ("plain", "counting", "unloading")

#: What :class:`HeartsSearchAgent` values a single deal (and a match's first deal)
#: by: ``deal`` is ``mean points / 2 - own points``; ``own`` is ``-own points``, the
#: measure of a duplicate comparison (``benches/hearts_bench.py versus``).
DEAL_OBJECTIVES = ("deal", "own")

#: The strongest :class:`HeartsSearchAgent` settings measured (``docs/hearts.md``,
#: Agents): unloading playouts without random moves, Q♠ evidence, a searched pass,
#: 1,000 worlds and the endgame solver from 12 cards. ``benches/hearts_bench.py
#: versus --best`` plays them.
STRONGEST: dict[str, object] = {
    "worlds": 1000,
    "epsilon": 0.0,
    "policy": "unloading",
    "evidence": True,
    "pass_worlds": 500,
    "endgame": 12,
}

#: How many of the rule pass's most dangerous cards a searched pass chooses
#: three from by default (``pass_cards``): C(8, 3) = 56 candidates, the rule's own
#: pass among them.
PASS_SHORTLIST = 8

_QS = INDEX["Qs"]
_KS = INDEX["Ks"]
_AS = INDEX["As"]


def _rank(card: int) -> int:
    return card >> 2


def _by_danger(hand: int) -> list[int]:
    """The cards of ``hand``, the rule pass's first choice first: Q♠ and the top
    spades when spades are short, high hearts, and the cards of the shortest side
    suit so it can be voided."""
    cards = bits(hand)
    spades = (hand & SUIT_MASKS[3]).bit_count()
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]

    def danger(c: int) -> float:
        suit, rank = c & 3, _rank(c)
        score = float(rank)
        if c in (_QS, _KS, _AS):
            score += 20 if spades < 5 else -5
        elif suit == 3:
            score -= 6  # low spades protect against Q♠
        if suit == 2:
            score += 3 + rank / 2
        if suit in (0, 1) and lengths[suit] <= 3:
            score += 8 - 2 * lengths[suit]
        if c == 0:
            score -= 5
        return score

    return sorted(cards, key=danger, reverse=True)


def _choose_pass(hand: int) -> list[int]:
    """The rule pass: the three most dangerous cards (:func:`_by_danger`)."""
    return sorted(_by_danger(hand)[:3])


def _next_pass(
    observation: Observation, choose: Callable[[int], list[int]] = _choose_pass
) -> Action:
    """The next card of the pass ``choose`` makes from the dealt hand (passes are
    offered one card at a time)."""
    picked = mask_of_names(observation["my_pass"])
    for card in choose(mask_of_names(observation["hand"]) | picked):
        if not picked >> card & 1:
            return PASS_ONE[card]
    raise IllegalActionError("the pass is already complete")


def _moon_card(obs: Observation, view: TrickView) -> int | None:
    """The moon play (shoot, or stop the seat holding every point), from the
    same Rust policy the search's playouts use; ``None`` when no moon is on."""
    return hearts_moon_card(
        view.seat,
        view.hand,
        view.leader,
        view.trick,
        view.won_cards,
        obs["hearts_broken"],
        view.tricks_played,
    )


def _rule_play(obs: Observation, legal: int) -> int:
    view = TrickView.from_observation(obs)
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    moon = _moon_card(obs, view)
    if moon is not None and legal >> moon & 1:
        return moon
    if not view.trick:
        # Lead low from a suit where we are safe; low spades flush Q♠ when we do
        # not hold it or its guards.
        spade_ok = not view.hand >> _QS & 1 and not (view.hand >> _KS & 1 or view.hand >> _AS & 1)

        def lead_key(c: int) -> tuple[int, int]:
            suit = c & 3
            length = (view.hand & SUIT_MASKS[suit]).bit_count()
            penalty = 2 if suit == 2 else 0
            if suit == 3 and not spade_ok:
                penalty = 3
            return (penalty, _rank(c) - length)

        return min(cards, key=lead_key)
    led = view.trick[0] & 3
    best = max(c for c in view.trick if c & 3 == led)
    trick_points = penalty_points(sum(1 << c for c in view.trick))
    following = bool(legal & SUIT_MASKS[led])
    if following:
        if legal >> _QS & 1 and best in (_KS, _AS):
            return _QS
        under = [c for c in cards if c < best and c != _QS]
        if under:
            return max(under)
        if len(view.trick) == 3 and trick_points == 0:
            safe = [c for c in cards if c != _QS]
            return max(safe) if safe else cards[-1]
        safe = [c for c in cards if c != _QS]
        return min(safe) if safe else cards[0]
    # Void: shed danger.
    if legal >> _QS & 1:
        return _QS
    for danger in (_AS, _KS):
        if legal >> danger & 1:
            return danger
    hearts = [c for c in cards if c & 3 == 2]
    if hearts:
        return max(hearts)
    return max(cards, key=_rank)


def queen_evidence(obs: Observation) -> list[int]:
    """Per seat, ``1 << Q♠`` when its play shows it almost surely does not hold
    Q♠ (else 0): while Q♠ was still out, it discarded another card when void in
    the suit led after the first trick (where Q♠ may not be discarded), or followed
    a spade led under a winning A♠ or K♠ with another spade (where Q♠ goes
    safely). Seats shed Q♠ at those chances, so holding it back is rare (a moon
    try). Reads only the public tricks."""
    avoid = [0, 0, 0, 0]
    played_queen = False
    history = zip(obs["tricks"], obs["trick_leaders"], strict=True)
    current = [(obs["trick"], obs["leader"])] if obs["leader"] is not None else []
    for number, (cards, leader) in enumerate([*history, *current]):
        indices = [INDEX[n] for n in cards]
        for pos, card in enumerate(indices):
            if played_queen:
                return avoid
            if card == _QS:
                played_queen = True
                continue
            seat = (leader + pos) % 4
            led = indices[0] & 3
            if pos and card & 3 != led and number > 0:
                avoid[seat] = 1 << _QS
            elif pos and led == 3 and card & 3 == 3:
                winning = max(c for c in indices[:pos] if c & 3 == led)
                if winning in (_KS, _AS):
                    avoid[seat] = 1 << _QS
    return avoid


class HeartsRuleAgent:
    """Rule-based Hearts: passes danger and short suits, ducks, manages Q♠ and
    defends against a moon shot. Deterministic: the same observation gives the
    same action."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The rule's choice among ``legal_actions``."""
        check_legal_actions(legal_actions)
        if legal_actions[0].kind == "pass":
            return _next_pass(observation)
        legal = 0
        for a in legal_actions:
            legal |= 1 << PLAY_INDEX[a.text]
        return Action(f"play {NAMES[_rule_play(observation, legal)]}")


class HeartsSearchAgent:
    """Determinized search: samples ``worlds`` deals consistent with the play so
    far (shown voids, the cards this seat passed) and plays each candidate card
    out in Rust with a heuristic policy (``epsilon`` random moves) that shoots the
    moon with a controlling hand and stops a seat that holds every point so far;
    picks the card with the best average objective. A single deal (and the first
    deal of a match, where everyone stands level) values ``mean points / 2 - own
    points``, so an opponent's moon costs more than stopping it; later deals of a
    match value the standing (``docs/hearts.md``, Agents). Passes like the rule
    agent.

    ``time_per_move`` (seconds) replaces the fixed ``worlds``: the agent searches
    batches of 16 worlds until the time is spent (at least one batch).

    With ``endgame`` > 0, a sampled world with at most that many cards left in the
    hands (once the candidate is played) is solved exactly instead of played out:
    alpha-beta with the three other seats playing against this seat's objective
    (``docs/hearts.md``, Endgame solver), each solve capped at ``endgame_nodes``
    nodes (past that, the world is played out as without it). Off by default.

    ``policy="counting"`` plays the playouts with the card-counting heuristic (every
    seat reads the unplayed cards as a whole) instead of the plain one, and
    ``policy="unloading"`` with the counting heuristic that also unloads high
    cards, singletons and hearts sooner;
    ``evidence=True`` keeps Q♠ out of the sampled hands of seats whose play shows
    they do not hold it (:func:`queen_evidence`); ``pass_worlds`` > 0 chooses the
    pass by playouts from the first lead over that many deals
    (``hearts_pass_search``) instead of the rule pass. All off by default;
    :data:`STRONGEST` holds the strongest settings measured (``docs/hearts.md``).

    ``deal_objective="own"`` values a single deal (and a match's first deal) by own
    points alone instead of ``mean points / 2 - own points`` (:data:`DEAL_OBJECTIVES`):
    an opponent's moon then costs all 26 and our own moon is worth no more than a
    clean deal, as a duplicate comparison scores them. ``pass_halving=True`` spends
    the searched pass's budget (``pass_worlds`` deals for each candidate pass) in
    rounds of successive halving (:meth:`_searched_pass`), so the close passes get
    most of the deals; ``pass_cards`` (3 to 13, default :data:`PASS_SHORTLIST`) is
    how many of the hand's most dangerous cards the pass is chosen from (13: all 286
    three-card sets).

    ``reading`` > 0 (at most 10) reads the opponents' plays so far as evidence
    about their hands: each sampled world is replayed from the first lead with the
    playout policy, and every opponent card the policy would not have played with
    that world's hand divides the world's weight by ``exp(reading)``; the
    candidates' values are the weighted averages (``docs/hearts.md``, Agents).
    Off (0) by default."""

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 100,
        epsilon: float = 0.1,
        time_per_move: float | None = None,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
        policy: str = "plain",
        evidence: bool = False,
        pass_worlds: int = 0,
        deal_objective: str = "deal",
        pass_halving: bool = False,
        pass_cards: int = PASS_SHORTLIST,
        reading: float = 0.0,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.worlds = check_count("worlds", worlds, 1, 1_000_000)
        self.epsilon = check_real("epsilon", epsilon, 0.0, 1.0)
        self.time_per_move = check_time_per_move(time_per_move)
        self.endgame, self.endgame_nodes = check_endgame(endgame, endgame_nodes, 52)
        if policy not in PLAYOUT_POLICIES:
            raise RuleOptionError(f"policy {policy!r} must be one of {', '.join(PLAYOUT_POLICIES)}")
        self.policy = policy
        if not isinstance(evidence, bool):
            raise RuleOptionError(f"evidence must be True or False, got {evidence!r}")
        self.evidence = evidence
        self.pass_worlds = check_count("pass_worlds", pass_worlds, 0, 1_000_000)
        if deal_objective not in DEAL_OBJECTIVES:
            raise RuleOptionError(
                f"deal_objective {deal_objective!r} must be one of {', '.join(DEAL_OBJECTIVES)}"
            )
        self.deal_objective = deal_objective
        if not isinstance(pass_halving, bool):
            raise RuleOptionError(f"pass_halving must be True or False, got {pass_halving!r}")
        self.pass_halving = pass_halving
        self.pass_cards = check_count("pass_cards", pass_cards, 3, 13)
        self.reading = check_real("reading", reading, 0.0, 10.0)
        self._pass: tuple[int, list[int]] | None = None

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The searched choice among ``legal_actions``."""
        check_legal_actions(legal_actions)
        if legal_actions[0].kind == "pass":
            if not self.pass_worlds:
                return _next_pass(observation)
            return _next_pass(observation, lambda hand: self._searched_pass(observation, hand))
        if len(legal_actions) == 1:
            return legal_actions[0]
        view = TrickView.from_observation(observation)
        known = [0, 0, 0, 0]
        offset = dict(PASS_DIRECTIONS)[observation["pass_direction"]]
        if offset and observation["passed"]:
            receiver = (view.seat + offset) % 4
            known[receiver] = mask_of_names(observation["passed"]) & ~view.played
        known, unknown, sizes = view.hidden(known)
        candidates = [PLAY_INDEX[a.text] for a in legal_actions]
        scores = observation["scores"]
        standing = observation["deal"] > 0 or any(scores)
        avoid = queen_evidence(observation) if self.evidence else [0, 0, 0, 0]
        avoid[view.seat] = 0
        history: list[int] = []
        if self.reading:
            history = [INDEX[n] for cards in observation["tricks"] for n in cards]
            history += view.trick

        def search(worlds: int, seed: int) -> list[float]:
            return hearts_search(
                view.seat,
                known,
                unknown,
                sizes,
                view.voids,
                view.leader,
                view.trick,
                view.won_cards,
                observation["hearts_broken"],
                view.tricks_played,
                candidates,
                worlds,
                seed,
                self.epsilon,
                objective="match" if standing else self.deal_objective,
                scores=scores,
                target=observation["target"],
                moon=True,
                endgame_cards=self.endgame,
                endgame_nodes=self.endgame_nodes,
                policy=self.policy,
                avoid=avoid,
                history=history,
                reading=self.reading,
            )

        values = search_values(search, self.worlds, self.time_per_move, self._rng)
        best = max(range(len(values)), key=lambda i: values[i])
        return legal_actions[best]

    def _searched_pass(self, observation: Observation, hand: int) -> list[int]:
        """The pass with the best average objective over deals played out from the
        first lead (``hearts_pass_search``), among the three-card sets of the rule
        pass's ``pass_cards`` most dangerous cards; chosen once per dealt
        hand, then passed card by card. Every pass meets ``pass_worlds`` deals, or
        with ``pass_halving`` the same number of playouts goes to rounds of
        successive halving: each of ``ceil(log2(passes))`` rounds (6 for the 56
        passes of 8 cards) spends an equal share of it on fresh deals for the
        surviving passes and keeps the better half by their average over every deal
        they met (the same deals for all survivors), so the passes that are clearly
        worse stop early and the close ones are told apart on many more deals."""
        if self._pass is not None and self._pass[0] == hand:
            return self._pass[1]
        shortlist = _by_danger(hand)[: self.pass_cards]
        passes = [sorted(trio) for trio in itertools.combinations(shortlist, 3)]
        scores = observation["scores"]
        standing = observation["deal"] > 0 or any(scores)

        def search(alive: list[int], worlds: int) -> list[float]:
            return hearts_pass_search(
                observation["seat"],
                hand,
                [sum(1 << c for c in passes[i]) for i in alive],
                dict(PASS_DIRECTIONS)[observation["pass_direction"]],
                worlds,
                self._rng.getrandbits(64),
                self.epsilon,
                objective="match" if standing else self.deal_objective,
                scores=scores,
                target=observation["target"],
                policy=self.policy,
            )

        alive = list(range(len(passes)))
        if not self.pass_halving:
            values = search(alive, self.pass_worlds)
            best = passes[max(alive, key=lambda i: values[i])]
        else:
            rounds = math.ceil(math.log2(len(passes)))
            budget = self.pass_worlds * len(passes)
            totals = [0.0] * len(passes)
            while len(alive) > 1:
                worlds = max(1, budget // (rounds * len(alive)))
                for i, v in zip(alive, search(alive, worlds), strict=True):
                    totals[i] += v * worlds
                alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
            best = passes[alive[0]]
        self._pass = (hand, best)
        return best
