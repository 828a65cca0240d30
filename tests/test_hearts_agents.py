"""Hearts agents and moons: the shared Rust moon policy (defence and shooting), the
search objectives, and the rule and search agents in constructed positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardkit
from cardkit import RuleOptionError, games
from cardkit._core import hearts_moon_card, hearts_pass_search, hearts_search, spades_search
from cardkit.agents import hearts as hearts_agents
from cardkit.agents._trickview import BATCH_WORLDS, search_values
from cardkit.agents.hearts import HeartsRuleAgent, HeartsSearchAgent, queen_evidence
from cardkit.agents.spades import SpadesSearchAgent
from cardkit.api import Action
from cardkit.games._tricks import NAMES, PLAY_INDEX

ALL = (1 << 52) - 1


def mask(text: str) -> int:
    return sum(1 << PLAY_INDEX[f"play {c}"] for c in text.split())


def names(bitset: int) -> list[str]:
    return [NAMES[i] for i in range(52) if bitset >> i & 1]


def observation(
    seat: int,
    hand: str,
    leader: int,
    trick: str,
    taken: list[int],
    broken: bool,
    scores: list[int] | None = None,
    deal: int = 0,
) -> dict[str, Any]:
    """A mid-deal Hearts observation whose completed tricks are the cards in
    ``taken``, four of one suit per trick where possible, led and won by their
    taker (the agents read only these fields)."""
    tricks: list[list[str]] = []
    leaders: list[int] = []
    for winner, cards in enumerate(taken):
        won = names(cards)
        won.sort(key=lambda n: "cdhs".index(n[1]))
        for k in range(0, len(won), 4):
            tricks.append(won[k : k + 4])
            leaders.append(winner)
    return {
        "game": "hearts",
        "seat": seat,
        "phase": "play",
        "deal": deal,
        "pass_direction": "hold",
        "hand": hand.split(),
        "my_pass": [],
        "passed": [],
        "received": [],
        "leader": leader,
        "trick": trick.split(),
        "tricks": tricks,
        "trick_leaders": leaders,
        "trick_winners": leaders,
        "hearts_broken": broken,
        "scores": scores or [0, 0, 0, 0],
        "target": 100,
    }


# Seat 0 took Q♠ and eight hearts (21 points) in eleven tricks; seat 2 led 5♥,
# seat 3 played 6♥, seat 0 9♥. Seat 1 holds T♥ 3♥: ducking with 3♥ lets seat 0
# win, lead its last card and take T♥ on it (every seat is void in the others'
# suits), a moon; T♥ takes the trick and stops it.
SHOOTER_TAKEN = ALL & ~mask("5h 6h 9h Th 3h 2c 2d 2s")
STOP = observation(1, "Th 3h", 2, "5h 6h 9h", [SHOOTER_TAKEN, 0, 0, 0], True)
STOP_LEGAL = [Action("play 3h"), Action("play Th")]
STOP_TRICK = [PLAY_INDEX[f"play {c}"] for c in ["5h", "6h", "9h"]]


@pytest.mark.rule("HRT-11", "HRT-12")
def test_moon_policy_takes_the_trick_that_stops_a_shooter() -> None:
    card = hearts_moon_card(1, mask("Th 3h"), 2, STOP_TRICK, [SHOOTER_TAKEN, 0, 0, 0], True, 11)
    assert card == PLAY_INDEX["play Th"]
    assert HeartsRuleAgent().act(STOP, STOP_LEGAL) == "play Th"


@pytest.mark.rule("HRT-11", "HRT-12")
def test_search_takes_the_trick_that_stops_a_shooter() -> None:
    for seed in range(3):
        assert HeartsSearchAgent(seed, worlds=50).act(STOP, STOP_LEGAL) == "play Th"


def _stop_values(objective: str, moon: bool, scores: list[int] | None = None) -> list[float]:
    """Search values of 3♥ and T♥ in STOP with every hand known."""
    return hearts_search(
        1,
        [mask("2s"), mask("Th 3h"), mask("2c"), mask("2d")],
        0,
        [1, 2, 1, 1],
        [0, 0, 0, 0],
        2,
        STOP_TRICK,
        [SHOOTER_TAKEN, 0, 0, 0],
        True,
        11,
        [PLAY_INDEX["play 3h"], PLAY_INDEX["play Th"]],
        4,
        1,
        0.0,
        objective=objective,
        scores=scores or [0, 0, 0, 0],
        target=100,
        moon=moon,
    )


@pytest.mark.rule("HRT-11", "HRT-12")
def test_objectives_value_a_moon_against_us() -> None:
    # Ducking lets seat 0 shoot (26 for us, 0 for it); T♥ then 3♥ costs us 5.
    assert _stop_values("deal", True) == [19.5 / 2 - 26, 6.5 / 2 - 5]
    # The zero-sum return rates the moon as only 6.5 worse than an average deal.
    assert _stop_values("zero_sum", False) == [19.5 - 26, 6.5 - 5]
    # Own points alone: the moon costs all 26.
    assert _stop_values("own", True) == [-26, -5]


@pytest.mark.rule("HRT-12", "HRT-13")
def test_match_objective_lets_a_moon_through_when_it_wins_the_match() -> None:
    # Before the deal seat 1 has 30, its nearest rival 40. Stopping: totals
    # 81 35 40 80, a lead of 5. The moon: 60 56 66 106 ends the match with seat 1
    # lowest (a lead of 4 and the win).
    assert _stop_values("match", True, [60, 30, 40, 80]) == [4 + 52, 5]
    # Without the ending the moon just costs the lead of the nearest rival.
    assert _stop_values("match", True, [60, 30, 40, 70]) == [4, 5]


@pytest.mark.rule("HRT-12")
def test_rule_agent_shoots_with_control() -> None:
    # Seat 0 holds Q♠, the top five hearts and winners beside, after a clean first
    # trick: it leads A♠ to run its winners; the plain rule leads low.
    hand = "Qs As Ks Ah Kh Qh Jh Th Ad Kd Qd Kc"
    obs = observation(0, hand, 0, "", [mask("2c Ac 9c Ts"), 0, 0, 0], False)
    legal = [Action(f"play {c}") for c in hand.split() if c[1] != "h"]
    taken = [mask("2c Ac 9c Ts"), 0, 0, 0]
    assert hearts_moon_card(0, mask(hand), 0, [], taken, False, 1) == PLAY_INDEX["play As"]
    assert HeartsRuleAgent().act(obs, legal) == "play As"
    # A point in another seat's tricks calls the shot off.
    taken[1] = mask("2h")
    assert hearts_moon_card(0, mask(hand), 0, [], taken, True, 1) is None


def test_moon_card_refuses_bad_positions() -> None:
    taken = [SHOOTER_TAKEN, 0, 0, 0]
    trick = STOP_TRICK
    with pytest.raises(RuleOptionError, match="not the seat to act"):
        hearts_moon_card(0, mask("Th 3h"), 2, trick, taken, True, 11)
    with pytest.raises(RuleOptionError, match="overlaps"):
        hearts_moon_card(1, mask("Th 3h Qs"), 2, trick, taken, True, 11)
    with pytest.raises(RuleOptionError):
        hearts_moon_card(1, 1 << 52, 2, trick, taken, True, 11)
    with pytest.raises(RuleOptionError):
        hearts_moon_card(1, mask("Th 3h"), 2, trick, taken, True, 13)
    with pytest.raises(RuleOptionError, match="objective"):
        _bad_objective()


def _bad_objective() -> None:
    hearts_search(
        1,
        [mask("2s"), mask("Th 3h"), mask("2c"), mask("2d")],
        0,
        [1, 2, 1, 1],
        [0, 0, 0, 0],
        2,
        STOP_TRICK,
        [SHOOTER_TAKEN, 0, 0, 0],
        True,
        11,
        [PLAY_INDEX["play 3h"]],
        1,
        1,
        objective="best",
    )


def test_search_agent_plays_legal_single_deals_in_every_direction() -> None:
    for name in ("left", "right", "across", "hold"):
        game = games.make("hearts", match=False, pass_direction=name)
        agents = [HeartsSearchAgent(s, worlds=4) if s % 2 else HeartsRuleAgent() for s in range(4)]
        state = cardkit.play(game, agents, seed=3)
        assert state.is_terminal and sum(state.scores) in (26, 78)


def test_time_per_move_searches_whole_batches_until_the_time_is_spent() -> None:
    calls: list[tuple[int, int]] = []

    def search(worlds: int, seed: int) -> list[float]:
        calls.append((worlds, seed))
        return [float(len(calls)), -float(len(calls))]

    ticks = iter(range(100))
    rng = random.Random(5)
    seeds = random.Random(5)
    # The clock reads 0 at the start, then 1, 2, 3 after each batch: a 2.5 s budget
    # runs three batches, and their values are averaged.
    values = search_values(search, 100, 2.5, rng, clock=lambda: float(next(ticks)))
    assert values == [2.0, -2.0]
    assert calls == [(BATCH_WORLDS, seeds.getrandbits(64)) for _ in range(3)]
    # Without a budget: one call of ``worlds``.
    calls.clear()
    assert search_values(search, 100, None, rng) == [1.0, -1.0]
    assert calls[0][0] == 100


@pytest.mark.parametrize("agent", [HeartsSearchAgent, SpadesSearchAgent])
def test_time_per_move_agents_play_legal_cards(agent: type) -> None:
    # A tiny budget still searches one batch: the same choice as BATCH_WORLDS worlds.
    game = games.make(agent.__name__[:-11].lower(), match=False)
    state = game.new_state(seed=9)
    timed = agent(4, time_per_move=1e-9)
    fixed = agent(4, worlds=BATCH_WORLDS)
    while not state.is_terminal:
        seat = state.current_player
        obs, legal = state.observation(seat), state.legal_actions()
        action = timed.act(obs, legal)
        assert action in legal
        assert fixed.act(obs, legal) == action
        state.apply(action)
    for bad in (0, -1.0, float("nan"), "1", 3601):
        with pytest.raises(RuleOptionError, match="time_per_move"):
            agent(1, time_per_move=bad)


# -- the endgame solver ---------------------------------------------------------------


def _queen_values(endgame_cards: int) -> list[float]:
    """Seat 0's values of A♠ and 2♣, two tricks left and every hand known: seat 1
    holds Q♠ 3♦, seat 2 took every heart."""
    return hearts_search(
        0,
        [mask("As 2c"), mask("Qs 3d"), mask("2s 4c"), mask("3s 5c")],
        0,
        [2, 2, 2, 2],
        [0, 0, 0, 0],
        0,
        [],
        [0, 0, mask(" ".join(f"{r}h" for r in "23456789TJQKA")), 0],
        True,
        11,
        [PLAY_INDEX["play As"], PLAY_INDEX["play 2c"]],
        4,
        1,
        0.0,
        objective="deal",
        moon=True,
        endgame_cards=endgame_cards,
    )


@pytest.mark.rule("HRT-11")
def test_endgame_solver_values_the_queen_seat_zero_cannot_escape() -> None:
    # Played out, seat 1's heuristic drops Q♠ on the club lead (3.25 for seat 0:
    # points 0 0 13 13); solved, the other seats play against seat 0, seat 1 keeps
    # the queen for the A♠ and seat 0 takes 13 either way (26 / 8 - 13).
    assert _queen_values(0) == [-9.75, 3.25]
    assert _queen_values(8) == [-9.75, -9.75]
    # Fewer cards left than the solver's threshold after the candidate: played out.
    assert _queen_values(6) == [-9.75, 3.25]


def _nil_set_values(**options: object) -> list[float]:
    """Seat 0's solved values of A♠ and 3♦ in a two-card ending against seat 1's nil
    (the line that sets it, and the one that lets it through)."""
    return spades_search(
        0,
        [mask("As 3d"), mask("Ks 4d"), mask("5d 5h"), mask("6h 7h")],
        0,
        [2, 2, 2, 2],
        [0, 0, 0, 0],
        0,
        [],
        0,
        [1, 0, 1, 2],
        [4, 0, 3, 4],
        [0, 0],
        True,
        [PLAY_INDEX["play As"], PLAY_INDEX["play 3d"]],
        4,
        1,
        0.0,
        endgame_cards=8,
        endgame_nodes=1000,
        **options,  # type: ignore[arg-type]
    )


@pytest.mark.rule("SPD-06", "SPD-08", "SPD-09")
def test_endgame_solver_finds_the_one_line_that_sets_the_nil() -> None:
    # Seat 1 bid nil with K♠ 4♦. A♠ draws the K♠ while the partner throws the 5♦;
    # then the 3♦ forces the 4♦ to win. Leading the 3♦ lets the partner's 5♦ win.
    # Team 0: 8 tricks on 2 (26) against a failed nil and 4 on 2 (-77): 103.
    # Team 0 after 3♦: 9 tricks (27) against a made nil and 4 on 2 (122): -95.
    assert _nil_set_values() == [103.0, -95.0]


@pytest.mark.rule("SPD-10")
def test_spades_match_objective_counts_the_match_a_deal_ends() -> None:
    # Nobody can reach 500 this deal: the deal objective.
    assert _nil_set_values(objective="match", scores=[100, 100]) == [103.0, -95.0]
    # Team 1 at 400 reaches 522 and wins if the nil goes through (-95 - 200).
    assert _nil_set_values(objective="match", scores=[0, 400]) == [103.0, -295.0]
    # Team 0 at 480 wins either way (+200); the target is a parameter.
    assert _nil_set_values(objective="match", scores=[480, 0]) == [303.0, 105.0]
    assert _nil_set_values(objective="match", scores=[480, 0], target=600) == [103.0, -95.0]


@pytest.mark.rule("SPD-10")
def test_spades_match_objective_ends_the_match_at_the_lose_at_floor() -> None:
    # Setting the nil leaves team 1 at -150 - 77 = -227: under a -200 floor the match
    # ends with team 0 ahead (+200); letting it through leaves team 1 at -28.
    assert _nil_set_values(objective="match", scores=[0, -150]) == [103.0, -95.0]
    assert _nil_set_values(objective="match", scores=[0, -150], lose_at=-200) == [303.0, -95.0]
    # Team 0 at -230 sinks to -204 or -203 either way under a -203 floor, behind.
    assert _nil_set_values(objective="match", scores=[-230, 0], lose_at=-203) == [-97.0, -295.0]
    # The floor is the match objective's: the deal objective ignores it.
    assert _nil_set_values(scores=[0, -150], lose_at=-200) == [103.0, -95.0]


def test_endgame_options_are_checked() -> None:
    for bad in (-1, 53, 1.5, "8", None):
        with pytest.raises(RuleOptionError, match="endgame"):
            HeartsSearchAgent(1, endgame=bad)  # type: ignore[arg-type]
        with pytest.raises(RuleOptionError, match="endgame"):
            SpadesSearchAgent(1, endgame=bad)  # type: ignore[arg-type]
    for bad in (0, -1, 10**9, 2.0):
        with pytest.raises(RuleOptionError, match="endgame_nodes"):
            HeartsSearchAgent(1, endgame_nodes=bad)  # type: ignore[arg-type]
        with pytest.raises(RuleOptionError, match="endgame_nodes"):
            SpadesSearchAgent(1, endgame_nodes=bad)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError, match="endgame_cards"):
        _queen_values(53)


@pytest.mark.parametrize("agent", [HeartsSearchAgent, SpadesSearchAgent])
def test_search_with_the_endgame_solver_plays_legal_replayable_deals(agent: type) -> None:
    game = games.make(agent.__name__[:-11].lower(), match=False)

    def table(seed: int) -> list[Any]:
        # A tiny node budget on two seats: their solves give up and fall back.
        return [
            agent(seed * 4 + s, worlds=8, endgame=16, endgame_nodes=50 if s % 2 else 20_000)
            for s in range(4)
        ]

    for seed in range(2):
        state = cardkit.play(game, table(seed), seed=seed)
        assert state.is_terminal
        assert cardkit.play(game, table(seed), seed=seed).history == state.history


def test_counting_options_are_checked() -> None:
    for bad in ("v2", "", None, 1):
        with pytest.raises(RuleOptionError, match="policy"):
            HeartsSearchAgent(1, policy=bad)  # type: ignore[arg-type]
    for bad_flag in (1, "yes", None):
        with pytest.raises(RuleOptionError, match="evidence"):
            HeartsSearchAgent(1, evidence=bad_flag)  # type: ignore[arg-type]
    for bad_worlds in (-1, 1.5, "8", 10**7):
        with pytest.raises(RuleOptionError, match="pass_worlds"):
            HeartsSearchAgent(1, pass_worlds=bad_worlds)  # type: ignore[arg-type]
    for bad_cards in (2, 14, 1.5, "8", None):
        with pytest.raises(RuleOptionError, match="pass_cards"):
            HeartsSearchAgent(1, pass_cards=bad_cards)  # type: ignore[arg-type]
    for bad_halving in (1, "yes", None):
        with pytest.raises(RuleOptionError, match="pass_halving"):
            HeartsSearchAgent(1, pass_halving=bad_halving)  # type: ignore[arg-type]
    for bad in ("zero_sum", "match", "", None):
        with pytest.raises(RuleOptionError, match="deal_objective"):
            HeartsSearchAgent(1, deal_objective=bad)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError, match="policy"):
        hearts_search(**{**_STOP_SEARCH, "policy": "v2"})
    with pytest.raises(RuleOptionError, match="avoid"):
        hearts_search(**{**_STOP_SEARCH, "avoid": [1 << 52, 0, 0, 0]})


_STOP_SEARCH: dict[str, Any] = {
    "seat": 1,
    "known": [mask("2s"), mask("Th 3h"), mask("2c"), mask("2d")],
    "unknown": 0,
    "sizes": [1, 2, 1, 1],
    "voids": [0, 0, 0, 0],
    "leader": 2,
    "trick": STOP_TRICK,
    "taken": [SHOOTER_TAKEN, 0, 0, 0],
    "broken": True,
    "tricks_played": 11,
    "candidates": [PLAY_INDEX["play 3h"], PLAY_INDEX["play Th"]],
    "worlds": 16,
    "seed": 1,
}


def _best_options(seed: int) -> HeartsSearchAgent:
    return HeartsSearchAgent(
        seed, worlds=16, epsilon=0.0, policy="counting", evidence=True, pass_worlds=8
    )


def test_counting_agent_plays_legal_replayable_deals_unlike_the_plain_one() -> None:
    differs = False
    for seed, direction in enumerate(("left", "right", "across", "hold")):
        game = games.make("hearts", match=False, pass_direction=direction)
        table = [_best_options(seed * 4 + s) if s % 2 else HeartsRuleAgent() for s in range(4)]
        state = cardkit.play(game, table, seed=seed)
        assert state.is_terminal and sum(state.scores) in (26, 78)
        again = [_best_options(seed * 4 + s) if s % 2 else HeartsRuleAgent() for s in range(4)]
        assert cardkit.play(game, again, seed=seed).history == state.history
        plain = [
            HeartsSearchAgent(seed * 4 + s, worlds=16) if s % 2 else HeartsRuleAgent()
            for s in range(4)
        ]
        differs |= cardkit.play(game, plain, seed=seed).history != state.history
    assert differs


def test_counting_policy_changes_search_values_and_plain_is_the_default() -> None:
    # Seat 0 to lead early in a deal: the two playout policies value its cards
    # differently; "plain" and zero evidence are the defaults, bit for bit.
    view = {
        "seat": 0,
        "known": [mask("2c 3c 9c Kc 4d Jd Ad 5h Qh Ah 3s Qs Ks"), 0, 0, 0],
        "unknown": ALL & ~mask("2c 3c 9c Kc 4d Jd Ad 5h Qh Ah 3s Qs Ks"),
        "sizes": [13, 13, 13, 13],
        "voids": [0, 0, 0, 0],
        "leader": 0,
        "trick": [],
        "taken": [0, 0, 0, 0],
        "broken": False,
        "tricks_played": 0,
        "candidates": [PLAY_INDEX["play 2c"]],
        "worlds": 50,
        "seed": 3,
        "objective": "deal",
        "moon": True,
    }
    plain = hearts_search(**view)
    assert hearts_search(**view, policy="plain", avoid=[0, 0, 0, 0]) == plain
    counting = hearts_search(**view, policy="counting")
    assert counting != plain
    assert hearts_search(**view, policy="unloading") not in (plain, counting)
    # Keeping A♠ out of seats 1 and 2 puts it with seat 3 in every world.
    moved = hearts_search(**view, avoid=[0, mask("As"), mask("As"), 0])
    assert moved != plain


def test_queen_evidence_reads_discards_and_ducks_while_the_queen_is_out() -> None:
    obs = observation(0, "2h", 0, "", [0, 0, 0, 0], True)
    obs["tricks"] = [
        ["2c", "3c", "4c", "5d"],  # first trick: seat 3's discard says nothing
        ["3d", "9h", "6d", "8d"],  # seat 1 void in diamonds kept Q♠ back
        ["4s", "Ks", "3s", "5s"],  # seats 2 and 3 ducked under K♠ without Q♠
    ]
    obs["trick_leaders"] = [0, 0, 0]
    obs["trick_winners"] = [2, 3, 1]
    obs["leader"] = 1
    obs["trick"] = []
    queen = mask("Qs")
    assert queen_evidence(obs) == [0, queen, queen, queen]
    # Once Q♠ is played, nothing more is read.
    obs["tricks"][1] = ["3d", "Qs", "6d", "8d"]
    assert queen_evidence(obs) == [0, 0, 0, 0]


def test_pass_search_prefers_shedding_an_unguarded_queen() -> None:
    hand = mask("Qs Ks As 2c 3c 4c 5c 5d 6d 7d 8h 9h Th")
    passes = [mask("Qs Ks As"), mask("2c 3c 4c")]
    values = hearts_pass_search(0, hand, passes, 1, 300, 5)
    assert values[0] > values[1]
    assert hearts_pass_search(0, hand, passes, 1, 300, 5) == values
    for bad in (
        {"offset": 0},
        {"passes": [mask("Qs Ks")]},
        {"passes": [mask("Qs Ks Ah")]},
        {"passes": [passes[0], passes[1], passes[0]]},
    ):
        with pytest.raises(RuleOptionError):
            hearts_pass_search(
                **{
                    "seat": 0,
                    "hand": hand,
                    "passes": passes,
                    "offset": 1,
                    "worlds": 2,
                    "seed": 1,
                    **bad,
                }
            )


@pytest.mark.rule("HRT-11", "HRT-12", "HRT-13")
def test_deal_objective_reaches_the_search_of_a_single_deal_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def recording(*args: Any, **kwargs: Any) -> list[float]:
        asked.append(kwargs["objective"])
        return hearts_search(*args, **kwargs)

    monkeypatch.setattr(hearts_agents, "hearts_search", recording)
    for objective in ("deal", "own"):
        agent = HeartsSearchAgent(1, worlds=4, deal_objective=objective)
        assert agent.act(STOP, STOP_LEGAL) == "play Th"
        # Later deals of a match value the standing whatever the option.
        assert agent.act({**STOP, "deal": 1, "scores": [30, 40, 50, 20]}, STOP_LEGAL)
    assert asked == ["deal", "match", "own", "match"]


def test_pass_halving_spends_the_budget_in_rounds_on_the_better_half(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rounds: list[tuple[int, int]] = []
    survivors: list[set[int]] = []
    totals: dict[int, float] = {}

    def recording(*args: Any, **kwargs: Any) -> list[float]:
        values = hearts_pass_search(*args, **kwargs)
        passes, worlds = args[2], args[4]
        if rounds:
            # Only the better half (over every deal so far) of the last round goes on.
            assert set(passes) <= survivors[-1]
        rounds.append((len(passes), worlds))
        for p, v in zip(passes, values, strict=True):
            totals[p] = totals.get(p, 0.0) + v * worlds
        ranked = sorted(passes, key=lambda p: -totals[p])
        survivors.append(set(ranked[: (len(passes) + 1) // 2]))
        return values

    monkeypatch.setattr(hearts_agents, "hearts_pass_search", recording)
    game = games.make("hearts", match=False, pass_direction="left")
    state = game.new_state(seed=4)
    agent = HeartsSearchAgent(2, worlds=4, policy="counting", pass_worlds=12, pass_halving=True)
    picked = []
    for _ in range(3):
        action = agent.act(state.observation(0), state.legal_actions())
        picked.append(action)
        state.apply(action)
    # 12 deals for each of 56 passes, a sixth a round: 112 // survivors deals each.
    assert rounds == [(56, 2), (28, 4), (14, 8), (7, 16), (4, 28), (2, 56)]
    chosen = sum(1 << PLAY_INDEX[f"play {a.text.split()[1]}"] for a in picked)
    assert chosen in survivors[-1]


def _first_pass(agent: HeartsRuleAgent | HeartsSearchAgent, seed: int) -> set[str]:
    game = games.make("hearts", match=False, pass_direction="left")
    state = game.new_state(seed=seed)
    picked = set()
    for _ in range(3):
        action = agent.act(state.observation(0), state.legal_actions())
        picked.add(action.text)
        state.apply(action)
    return picked


def test_pass_cards_sets_the_candidate_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[int] = []

    def recording(*args: Any, **kwargs: Any) -> list[float]:
        searched.append(len(args[2]))
        return hearts_pass_search(*args, **kwargs)

    monkeypatch.setattr(hearts_agents, "hearts_pass_search", recording)
    # Three cards leave one pass, the rule's own.
    for seed in range(3):
        rule = _first_pass(HeartsRuleAgent(), seed)
        assert _first_pass(HeartsSearchAgent(1, pass_worlds=4, pass_cards=3), seed) == rule
    # The whole hand: all 286 three-card sets, halved over ceil(log2(286)) = 9 rounds.
    searched.clear()
    _first_pass(HeartsSearchAgent(1, pass_worlds=4, pass_cards=13, pass_halving=True), 0)
    assert searched == [286, 143, 72, 36, 18, 9, 5, 3, 2]


def test_searched_pass_is_three_cards_chosen_once_per_hand() -> None:
    game = games.make("hearts", match=False, pass_direction="left")
    state = game.new_state(seed=4)
    agent = HeartsSearchAgent(2, worlds=4, policy="counting", pass_worlds=16)
    picked = []
    for _ in range(3):
        action = agent.act(state.observation(0), state.legal_actions())
        picked.append(action)
        state.apply(action)
    assert len({a.text for a in picked}) == 3 and all(a.kind == "pass" for a in picked)


_READ_HAND = "3c 9c 4d Jd Ad 5h Qh Ah 3s Qs Ks 7c"
_READ_VIEW: dict[str, Any] = {
    # Seat 0 led 2♣, seat 1 took it with K♣ and led 3♦; seats 2 and 3 followed
    # with 9♦ and 2♦; seat 0 is to play.
    "seat": 0,
    "known": [mask(_READ_HAND), 0, 0, 0],
    "unknown": ALL & ~mask(_READ_HAND + " 2c Kc 5c 4c 3d 9d 2d"),
    "sizes": [12, 11, 11, 11],
    "voids": [0, 0, 0, 0],
    "leader": 1,
    "trick": [PLAY_INDEX[f"play {c}"] for c in ("3d", "9d", "2d")],
    "taken": [0, mask("2c Kc 5c 4c"), 0, 0],
    "broken": False,
    "tricks_played": 1,
    "candidates": [PLAY_INDEX[f"play {c}"] for c in ("4d", "Jd", "Ad")],
    "worlds": 200,
    "seed": 7,
    "epsilon": 0.0,
    "objective": "deal",
    "moon": True,
    "policy": "unloading",
}
_READ_HISTORY = [PLAY_INDEX[f"play {c}"] for c in ("2c", "Kc", "5c", "4c", "3d", "9d", "2d")]


def test_reading_off_changes_nothing_and_on_reweighs_the_worlds() -> None:
    plain = hearts_search(**_READ_VIEW)
    # Off (the default), a history changes nothing: the same worlds, the same values.
    assert hearts_search(**_READ_VIEW, history=_READ_HISTORY) == plain
    assert hearts_search(**_READ_VIEW, history=_READ_HISTORY, reading=0.0) == plain
    # On, the worlds where K♣, 5♣, 4♣ and 9♦, 2♦ are what the policy plays count
    # for more, and the values move.
    read = hearts_search(**_READ_VIEW, history=_READ_HISTORY, reading=2.0)
    assert read != plain


def test_reading_refuses_bad_strengths_and_histories() -> None:
    for strength in (-0.5, 10.5, float("nan")):
        with pytest.raises(RuleOptionError, match="reading"):
            hearts_search(**_READ_VIEW, history=_READ_HISTORY, reading=strength)
    # Without a history a reading has nothing to read, past the first card.
    with pytest.raises(RuleOptionError, match="history"):
        hearts_search(**_READ_VIEW, reading=1.0)
    for bad in (
        _READ_HISTORY[:-1],  # the current trick's last card missing
        _READ_HISTORY[1:4] + _READ_HISTORY[:1] + _READ_HISTORY[4:],  # not led by 2♣
        [*_READ_HISTORY[:4], _READ_HISTORY[5], _READ_HISTORY[4], _READ_HISTORY[6]],  # not `trick`
        [*_READ_HISTORY[:6], 52],  # outside the pack
    ):
        with pytest.raises(RuleOptionError):
            hearts_search(**_READ_VIEW, history=bad, reading=1.0)
    # The first trick said to be seat 2's: K♣'s seat leads now, so it took it.
    elsewhere = {**_READ_VIEW, "taken": [0, 0, mask("2c Kc 5c 4c"), 0]}
    with pytest.raises(RuleOptionError, match="took"):
        hearts_search(**elsewhere, history=_READ_HISTORY, reading=1.0)
    for bad_reading in (-1, 11, "1", None, float("inf")):
        with pytest.raises(RuleOptionError, match="reading"):
            HeartsSearchAgent(1, reading=bad_reading)  # type: ignore[arg-type]


def test_reading_agent_plays_whole_deals_and_plays_differently() -> None:
    # The agent hands the search every card played so far, in order, at every
    # decision of every pass direction (a wrong history is refused); reading
    # the plays changes some cards.
    differs = False
    for seed, direction in enumerate(("left", "right", "across", "hold")):
        game = games.make("hearts", match=False, pass_direction=direction)

        def table(reading: float, seed: int = seed) -> list[Any]:
            return [
                HeartsSearchAgent(seed * 4 + s, worlds=24, epsilon=0.0, reading=reading)
                if s % 2
                else HeartsRuleAgent()
                for s in range(4)
            ]

        state = cardkit.play(game, table(1.5), seed=seed)
        assert state.is_terminal and sum(state.scores) in (26, 78)
        differs |= cardkit.play(game, table(0.0), seed=seed).history != state.history
    assert differs
