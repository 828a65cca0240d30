"""Write the seed corpora of fuzz/corpus/<target>/: a few small valid inputs per target,
encoded the way each target reads its bytes (see fuzz/targets.py).

    python fuzz/make_corpus.py      # rewrites fuzz/corpus from fixed seeds
"""

from __future__ import annotations

import hashlib
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from targets import GAMES, OPTIONS  # noqa: E402

from cardkit import Card, phh  # noqa: E402
from cardkit.bridge import pbn  # noqa: E402
from cardkit.games import make  # noqa: E402

CARDS = ["As", "10h Kd 2c", "AsKdTc", "A♠ 10♥ BJ RJ", "Qh, Jc", "", "9s9s9s"]
RANGES = ["QQ+, AKs", "A5s-A2s, KQo, T9s+", "AhKh", "22-55, AKo:0.5", "random", "JJ-99:0.25"]
ACTION_TEXTS = [
    "pass",
    "bid 2",
    "play 33",
    "play 3h",
    "nil",
    "bid 5",
    "fold",
    "raise 60",
    "lock",
    "play 3456 W=7",
    "play 3s4s5s6s W=7s",
    "return 7h",
    "declare 2h",
    "declare BJBJ",
    "bury 3c",
    "play AsAs",
    "1NT",
    "XX",
    "play Ad",
]


def _played(name: str, options: dict[str, object], seed: int, moves: int) -> object:
    """A state of ``name`` after up to ``moves`` random legal actions."""
    state = make(name, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _bridge_board(seed: int) -> pbn.Board:
    """A seeded Bridge deal bid and played to the end by random legal moves, as a board."""
    vulnerability = ("none", "ns", "ew", "both")[seed % 4]
    state = make("bridge", vulnerability=vulnerability).new_state(seed=seed)
    dealer = state.current_player
    deal = tuple(tuple(state.private_cards(seat)) for seat in range(4))  # type: ignore[attr-defined]
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    moves = [str(a) for a in state.history]
    result = state.score_breakdown()  # type: ignore[attr-defined]
    return pbn.Board(
        deal=deal,
        board=seed,
        dealer=dealer,
        vulnerability=result["vulnerability"],
        auction=[m for m in moves if not m.startswith("play ")],
        contract="pass" if result["passed_out"] else result["contract"],
        declarer=None if result["passed_out"] else result["declarer"],
        result=None if result["passed_out"] else result["declarer_tricks"],
        play=[Card(m[5:]) for m in moves if m.startswith("play ")],
        tags={"Event": "cardkit fuzz seed"},
    )


def _apply_seed(name: str, option: int, seed: int, picks: int) -> bytes:
    """Choices that play ``picks`` legal actions (mode byte < 200, then the index)."""
    rng = random.Random(seed)
    body = b"".join(bytes([rng.randrange(200), rng.randrange(256)]) for _ in range(picks))
    return bytes([option, seed >> 8, seed & 0xFF]) + body


def seeds() -> dict[str, list[bytes]]:
    """Every target's seed inputs."""
    corpus: dict[str, list[bytes]] = {
        "cards": [text.encode() for text in CARDS],
        "ranges": [bytes([4]) + b"AsKd" + text.encode() for text in RANGES],
        "actions": [],
        "saves": [],
        "phh_loads": [],
        "pbn_loads": [pbn.dumps([_bridge_board(seed)]).encode() for seed in (1, 2, 3)],
    }
    for g, name in enumerate(GAMES):
        for k, text in enumerate(ACTION_TEXTS):
            corpus["actions"].append(bytes([g, 0, k, k * 3]) + text.encode())
        for seed, moves in ((1, 0), (2, 8), (3, 1000)):
            state = _played(name, {}, seed, moves)
            corpus["saves"].append(bytes([g]) + state.to_json().encode())  # type: ignore[attr-defined]
        corpus[f"apply_{name}"] = [
            _apply_seed(name, option, 7 + option, picks)
            for option in range(len(OPTIONS[name]))
            for picks in (4, 60)
        ]
    for players, seed in ((2, 1), (3, 5), (6, 9)):
        state = _played("holdem", {"match": False, "players": players}, seed, 1000)
        corpus["phh_loads"].append(phh.dumps(state).encode())  # type: ignore[arg-type]
    return corpus


def main() -> None:
    """Rewrite fuzz/corpus (file names are content hashes, as libFuzzer names them)."""
    root = HERE / "corpus"
    shutil.rmtree(root, ignore_errors=True)
    for target, inputs in seeds().items():
        folder = root / target
        folder.mkdir(parents=True)
        for data in inputs:
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


if __name__ == "__main__":
    main()
