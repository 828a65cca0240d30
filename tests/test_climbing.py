"""The climbing combination engine through its Python face, and the cross-check of
Dou Dizhu leads and responses against DouZero's move generator."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

import pytest

import cardkit
from cardkit.agents._climbing import FULL_RANKS
from cardkit.games import doudizhu, zhengshangyou

DDZ_DECK = FULL_RANKS["doudizhu"]


@pytest.mark.rule("DDZ-06", "ZSY-06")
def assert_seeded_search(
    game: cardkit.api.Game,
    agents: Callable[[int], list[cardkit.agents.Agent]],
    seeds: Iterable[int] = range(3),
) -> None:
    """Games of the agents ``agents(seed)`` makes end zero-sum and, played again from
    the same seeds, move for move the same: an option reached the search and kept it
    legal and seeded (the search's own choices are checked in the Rust tests)."""
    for seed in seeds:
        state = cardkit.play(game, agents(seed), seed=seed)
        assert state.is_terminal and sum(state.returns()) == 0
        assert cardkit.play(game, agents(seed), seed=seed).history == state.history


def test_packs_are_read_from_the_named_decks() -> None:
    # Written out here once as the rule texts give them: the code reads the packs
    # from `cardkit.cards.deck`.
    assert Counter(FULL_RANKS["doudizhu"]) == Counter(
        {**dict.fromkeys("3456789TJQKA2", 4), "B": 1, "R": 1}
    )
    assert Counter(FULL_RANKS["zhengshangyou"]) == Counter(
        {**dict.fromkeys("3456789TJQK", 4), "A": 3, "2": 1}
    )


def _types(cards: str) -> list[tuple[str, str, int]]:
    return [(c.type, c.main_rank, c.length) for c in doudizhu.classify(cards)]


@pytest.mark.rule("DDZ-23", "DDZ-24", "DDZ-25", "DDZ-26", "DDZ-27")
def test_ddz_shapes_from_python() -> None:
    assert _types("3") == [("single", "3", 1)]
    assert _types("BR") == [("rocket", "R", 1)]
    assert _types("3334") == [("triple_single", "3", 1)]
    assert _types("33344") == [("triple_pair", "3", 1)]
    assert _types("TJQKA") == [("straight", "A", 5)]
    assert _types("JQKA2") == []
    assert _types("334455") == [("pair_run", "5", 3)]
    assert _types("3344") == []
    assert _types("333444") == [("airplane", "4", 2)]
    assert _types("AAA222") == []
    combo = doudizhu.classify("33344456")[0]
    assert (combo.type, combo.main_rank, combo.length, combo.cards) == (
        "airplane_singles",
        "4",
        2,
        "33344456",
    )
    assert combo.size == 8 and not combo.is_bomb


@pytest.mark.rule("DDZ-28", "DDZ-29", "DDZ-30")
def test_ddz_airplane_wing_violations() -> None:
    assert _types("33344455") == [("airplane_singles", "4", 2)]  # single wings may pair
    assert _types("3334445566") == [("airplane_pairs", "4", 2)]
    assert _types("33334445") == []  # core rank as a wing
    assert _types("333444555777") == [] or all(
        t[0] != "airplane_singles" for t in _types("333444555777")
    )  # a triple as wings
    assert _types("333444BR") == []  # both jokers
    assert _types("3334445555") == []  # a bomb as wings / repeated pair rank
    assert _types("333444555TTTT") == []
    assert _types("3333444455") == []


@pytest.mark.rule("DDZ-31", "DDZ-32", "DDZ-33", "DDZ-34")
def test_ddz_four_with_two() -> None:
    assert _types("555567") == [("four_two_singles", "5", 1)]
    assert _types("555577") == [("four_two_singles", "5", 1)]
    assert _types("5555BR") == []
    assert _types("55557799") == [("four_two_pairs", "5", 1)]
    assert _types("55557777") == []
    assert _types("33334444") == []  # not a combination at all
    four_two = doudizhu.classify("555567")[0]
    assert not four_two.is_bomb
    assert doudizhu.legal_responses("3333", four_two)[0].type == "bomb"


@pytest.mark.rule("DDZ-14", "DDZ-16", "DDZ-17", "DDZ-18", "DDZ-19", "DDZ-20", "DDZ-21", "DDZ-22")
def test_ddz_responses() -> None:
    hand = "3456789TJQKA2BR4444"
    got = [c.cards for c in doudizhu.legal_responses(hand, "34567")]
    assert "45678" in got and "4444" in got and "BR" in got and "34567" not in got
    assert [c.cards for c in doudizhu.legal_responses("2BR", "A")] == ["2", "B", "R", "BR"]
    assert [c.cards for c in doudizhu.legal_responses("33334444BR", "3333")] == ["4444", "BR"]
    assert doudizhu.legal_responses("2222BR", "BR") == []
    # Cards lists work too, suits ignored.
    assert [c.cards for c in doudizhu.legal_responses(["4s", "4h", "5c"], ["3d", "3c"])] == ["44"]
    # Attachments do not decide strength.
    assert [c.cards for c in doudizhu.legal_responses("4443", "333A")] == ["3444"]


def test_bad_input_is_a_typed_error() -> None:
    with pytest.raises(cardkit.InvalidCardError):
        doudizhu.classify("33X")
    with pytest.raises(cardkit.InvalidCardError):
        doudizhu.legal_leads(42)  # type: ignore[arg-type]
    with pytest.raises(cardkit.IllegalActionError):
        doudizhu.legal_responses("3456", "34")


def test_leads_are_the_classified_sub_multisets() -> None:
    rng = random.Random(3)
    for _ in range(30):
        hand = "".join(rng.sample(DDZ_DECK, 12))
        leads = {c.cards for c in doudizhu.legal_leads(hand)}
        for lead in leads:
            assert doudizhu.classify(lead)
            assert not Counter(lead) - Counter(hand)


@pytest.mark.rule("ZSY-17", "ZSY-18", "ZSY-19", "ZSY-20", "ZSY-21", "ZSY-22", "ZSY-23")
def test_zsy_shapes_from_python() -> None:
    types = lambda s, o=False: [c.type for c in zhengshangyou.classify(s, o)]  # noqa: E731
    assert types("3344") == ["pair_run"]
    assert types("TJQKA") == ["straight"]
    assert types("JQKA2") == []
    assert types("3334") == [] and types("333444") == [] and types("444456") == []
    assert types("7777") == ["bomb"]
    assert types("AAA") == ["ace_bomb"]
    assert types("3333", True) == ["heavenly_bomb"]
    assert types("3333") == ["bomb"]
    assert [c.cards for c in zhengshangyou.legal_responses("AAA5555", "4444")] == ["5555", "AAA"]
    assert zhengshangyou.legal_responses("AAAKKKK", zhengshangyou.classify("3333", True)[0]) == []
    assert all("3" in c.cards for c in zhengshangyou.legal_leads("3456789", opening=True))


def test_action_index_round_trips_every_play() -> None:
    size = doudizhu.action_space_size()
    assert size == 24643
    for action_id in range(size):
        action = doudizhu.id_to_action(action_id)
        assert doudizhu.action_to_id(action) == action_id
    assert doudizhu.id_to_action(0) == "pass"
    assert doudizhu.id_to_action(3) == "bid 3"
    assert doudizhu.action_to_id("play 3") == 4
    with pytest.raises(cardkit.IllegalActionError):
        doudizhu.id_to_action(size)
    with pytest.raises(cardkit.IllegalActionError):
        doudizhu.action_to_id("play 34")


def test_every_legal_action_of_random_playouts_has_an_id() -> None:
    game = cardkit.games.make("doudizhu")
    for seed in range(20):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            for action in legal:
                assert doudizhu.id_to_action(doudizhu.action_to_id(action)) == action
            state.apply(rng.choice(legal))


# -- cross-check against DouZero ------------------------------------------------------

_DZ_RANK = {**{str(i): i for i in range(3, 10)}, "T": 10, "J": 11, "Q": 12, "K": 13}
_DZ_RANK.update({"A": 14, "2": 17, "B": 20, "R": 30})
_FROM_DZ = {v: k for k, v in _DZ_RANK.items()}
_ORDER = "3456789TJQKA2BR"


def _text(move: list[int]) -> str:
    return "".join(sorted((_FROM_DZ[c] for c in move), key=_ORDER.index))


def _douzero_leads(hand: str) -> set[str]:
    from douzero.env.move_generator import MovesGener

    moves = MovesGener([_DZ_RANK[r] for r in hand]).gen_moves()
    return {_text(m) for m in moves}


def _outside_our_rules(move: str) -> bool:
    """The documented differences: DouZero lets the single wings of an airplane be a
    triple, a bomb or both jokers, and four-with-two take both jokers (its generator
    never puts a core rank in the wings, so that needs no exception)."""
    counts = Counter(move)
    both_jokers = counts["B"] > 0 and counts["R"] > 0
    if len(move) == 6 and 4 in counts.values():
        return both_jokers
    length = len(move) // 4
    if len(move) % 4 or length < 2:
        return False
    for top in range(length - 1, 12):
        core = _ORDER[top + 1 - length : top + 1]
        if all(counts[r] >= 3 for r in core):
            wings = counts - Counter(core * 3)
            if both_jokers or any(n >= 3 for n in wings.values()):
                return True
    return False


def _douzero_responses(hand: str, table: str) -> set[str]:
    from douzero.env.move_detector import get_move_type

    kind = get_move_type([_DZ_RANK[r] for r in table])
    out = set()
    for move in _douzero_leads(hand):
        mt = get_move_type([_DZ_RANK[r] for r in move])
        if mt["type"] == 5:  # rocket, over anything but a rocket
            if kind["type"] != 5:
                out.add(move)
        elif mt["type"] == 4:  # bomb
            if (kind["type"] == 4 and mt["rank"] > kind["rank"]) or kind["type"] not in (4, 5):
                out.add(move)
        elif (
            mt["type"] == kind["type"]
            and mt.get("len", 1) == kind.get("len", 1)
            and mt["rank"] > kind["rank"]
        ):
            out.add(move)
    return out


def _cross_check(hands: int, seed: int) -> None:
    # DouZero's package metadata requires torch, so it is not a test extra; its move
    # generator imports without torch: `pip install --no-deps douzero==1.1.0`.
    pytest.importorskip("douzero")
    rng = random.Random(seed)
    for _ in range(hands):
        hand = "".join(rng.sample(DDZ_DECK, rng.choice((17, 20))))
        ours = {c.cards for c in doudizhu.legal_leads(hand)}
        theirs = _douzero_leads(hand)
        assert ours <= theirs, (hand, ours - theirs)
        extra = theirs - ours
        assert all(_outside_our_rules(m) for m in extra), (hand, extra)
        table = rng.choice(sorted(ours))
        if doudizhu.classify(table)[0].type in ("airplane_singles", "four_two_singles"):
            continue  # DouZero's detector types these by its looser wing rules
        other = "".join(rng.sample(DDZ_DECK, 17))
        mine = {c.cards for c in doudizhu.legal_responses(other, table)}
        theirs_r = {m for m in _douzero_responses(other, table) if not _outside_our_rules(m)}
        assert mine == theirs_r, (other, table, mine ^ theirs_r)


def test_cross_check_douzero_sample() -> None:
    _cross_check(300, seed=1)


@pytest.mark.exhaustive
def test_cross_check_douzero_100k() -> None:
    _cross_check(100_000, seed=2)


def test_batch_legal_ids_match_the_game() -> None:
    game = cardkit.games.make("doudizhu")
    hands, tables, expected = [], [], []
    for seed in range(15):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.phase == "play":
                seat = state.current_player
                assert seat is not None
                hands.append(state.hand_ranks[seat])
                tables.append(state.table)
                expected.append(sorted(doudizhu.action_to_id(a) for a in state.legal_actions()))
            state.apply(rng.choice(state.legal_actions()))
    packed = doudizhu.legal_action_ids_batch(hands, tables)
    for blob, want in zip(packed, expected, strict=True):
        ids = [int.from_bytes(blob[i : i + 2], "little") for i in range(0, len(blob), 2)]
        assert sorted(ids) == want
    with pytest.raises(cardkit.IllegalActionError):
        doudizhu.legal_action_ids_batch(["33"], [None, None])


def test_batch_plays_are_the_leads_and_responses() -> None:
    rng = random.Random(8)
    hands = ["".join(rng.sample(DDZ_DECK, rng.choice((1, 17, 20)))) for _ in range(40)]
    tables = [
        None if i % 2 else doudizhu.classify(rng.choice("3456789TJQKA2"))[0] for i in range(40)
    ]
    plays, ends = doudizhu.legal_plays_batch(hands, tables)
    keys = [int.from_bytes(plays[i : i + 8], "little") for i in range(0, len(plays), 8)]
    offsets = [int.from_bytes(ends[i : i + 8], "little") for i in range(0, len(ends), 8)]
    assert offsets[0] == 0 and offsets[-1] == len(keys) and len(offsets) == len(hands) + 1
    for i, (hand, table) in enumerate(zip(hands, tables, strict=True)):
        got = [doudizhu.key_ranks(k) for k in keys[offsets[i] : offsets[i + 1]]]
        if table is None:
            want = [c.cards for c in doudizhu.legal_leads(hand)]
        else:
            want = ["", *(c.cards for c in doudizhu.legal_responses(hand, table))]
        assert got == want
    assert doudizhu.legal_plays_batch([]) == (b"", bytes(8))
    with pytest.raises(cardkit.InvalidCardError):
        doudizhu.key_ranks(-1)


def test_batch_results_do_not_depend_on_threads() -> None:
    rng = random.Random(9)
    hands = ["".join(rng.sample(DDZ_DECK, 20)) for _ in range(1500)]
    leads = [c for c in doudizhu.legal_leads(hands[0]) if not c.is_bomb]
    tables = [rng.choice(leads) if i % 3 else None for i in range(len(hands))]
    one = doudizhu.legal_plays_batch(hands, tables, threads=1)
    for threads in (2, 3, 0, None):
        assert doudizhu.legal_plays_batch(hands, tables, threads=threads) == one
        assert doudizhu.legal_action_ids_batch(
            tuple(hands), tuple(tables), threads=threads
        ) == doudizhu.legal_action_ids_batch(hands, tables, threads=1)
    # Rank text is parsed as everywhere else: `10` for T, any case, spaces ignored.
    assert doudizhu.legal_plays_batch(["10 j q k a"]) == doudizhu.legal_plays_batch(["TJQKA"])
    for bad in (-1, 257, 1.5, True, "2"):
        with pytest.raises(cardkit.RuleOptionError):
            doudizhu.legal_plays_batch(["33"], threads=bad)  # type: ignore[arg-type]
    with pytest.raises(cardkit.InvalidCardError, match="a hand must be a rank string"):
        doudizhu.legal_plays_batch(["33", 33])  # type: ignore[list-item]
    with pytest.raises(cardkit.InvalidCardError, match="invalid rank"):
        doudizhu.legal_plays_batch(["33", "3X"])
    with pytest.raises(cardkit.IllegalActionError, match="a table must be a Combination"):
        doudizhu.legal_plays_batch(["33"], ["33"])  # type: ignore[list-item]
    with pytest.raises(cardkit.IllegalActionError, match="one to one"):
        doudizhu.legal_plays_batch(["33"], [None, None])


@pytest.mark.parametrize("name", ["doudizhu", "zhengshangyou"])
def test_rust_playout_view_agrees_with_the_python_flow(name: str) -> None:
    """The Rust deal state the agents search from lists the same legal moves as the
    Python game at every card-play step (must-beat, passes and openings included)."""
    from cardkit.agents._climbing import view_of

    game = cardkit.games.make(name)
    for seed in range(10):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            if obs.get("phase", "play") == "play":
                rust = {"pass" if m is None else f"play {m}" for m in view_of(name, obs).legal()}
                assert rust == {a.text for a in state.legal_actions()}
            state.apply(rng.choice(state.legal_actions()))
