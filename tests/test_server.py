"""The rooms server over real sockets: a uvicorn child process on a SQLite file,
clients speaking its WebSocket protocol. People and agents share a Hearts table,
tokens and hidden cards stay where they belong, bad input gets typed error frames,
and a server killed with SIGKILL comes back with every room intact."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardkit import games
from cardkit.cli import main
from cardkit.errors import RuleOptionError
from cardkit.server import RoomError, Rooms, ServerConfig, Store
from cardkit.server.rooms import Client

from .scripts import load_script
from .server_harness import GAME_TIMEOUT, Person, Server, play_out

# A card as a whole JSON string ("Qs") or inside an action's text ("play Qs").
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc]|BJ|RJ)(?![A-Za-z])")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("server") / "rooms.sqlite")
    yield running
    running.stop()


def _room(server: Server, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = server.post("/api/rooms", {"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    return room


def _join(server: Server, code: str, **body: Any) -> dict[str, Any]:
    response = server.post(f"/api/rooms/{code}/join", body)
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def test_the_api_lists_every_registered_game_with_its_agents(server: Server) -> None:
    listed = {g["name"]: g for g in server.get("/api/games").json()["games"]}
    assert sorted(listed) == games.available()
    for name, entry in listed.items():
        assert entry["players"] == games.make(name).num_players
        assert "random" in entry["agents"]


def test_two_people_and_two_agents_play_hearts_each_seeing_only_their_seat(
    server: Server,
) -> None:
    room = _room(server, "hearts", ["human", "rule", "human", "random"], options={"match": False})
    code = room["code"]
    ann, bob = _join(server, code, name="ann"), _join(server, code, name="bob")
    assert (ann["seat"], bob["seat"]) == (0, 2)
    people = [Person(server, code, ann["token"]), Person(server, code, bob["token"])]
    watcher = Person(server, code)
    play_out(people)
    for p in (*people, watcher):
        p.pump(0.2)
    assert all(p.view["terminal"] for p in (*people, watcher))
    tokens = (ann["token"], bob["token"])
    for person, seat in zip(people, (0, 2), strict=True):
        text = "\n".join(person.raw)
        assert not any(t in text for t in tokens), "a seat token reached a client"
        assert "seed" not in text
        for event in person.events:
            if event["type"] in ("hand", "private_action", "pass_cards"):
                assert seat in (event["seat"], event.get("to")), event
        assert person.events[-1]["type"] == "end"
        _check_only_known_cards(person, seat)
    # The two people saw the same public game.
    public = [[e for e in p.events if "hidden" in e or e["type"] == "trick"] for p in people]
    assert public[0] == public[1]


def _check_only_known_cards(person: Person, seat: int) -> None:
    """Every card in every message to ``seat`` before the end is one it was dealt,
    was passed, or saw played: no other seat's hidden card ever reaches it."""
    known: set[str] = set()
    for text, message in zip(person.raw, person.messages, strict=True):
        for event in message.get("events", []):
            kind = event["type"]
            if kind == "hand" or (kind == "private_action" and event["seat"] == seat):
                known.update(_CARD.findall(json.dumps(event)))
            elif kind == "pass_cards" and seat in (event["seat"], event["to"]):
                known.update(event["cards"])
            elif kind == "action" and not event.get("hidden"):
                known.update(_CARD.findall(event["action"]))
        if message["type"] == "view" and not message["terminal"]:
            assert set(_CARD.findall(text)) <= known, f"seat {seat} saw a hidden card"


def test_a_spectator_sees_no_card_before_it_is_played(server: Server) -> None:
    room = _room(server, "hearts", ["rule", "random", "rule", "random"], options={"match": False})
    watcher = Person(server, room["code"])
    played: set[str] = set()
    deadline_messages = 5000
    while not watcher.view.get("terminal") and len(watcher.raw) < deadline_messages:
        message = watcher.receive(30)
        assert message is not None, "the agents stopped playing"
        text = watcher.raw[-1]
        assert "hand" not in message and "observation" not in message
        if message["type"] != "view":
            continue
        for event in message["events"]:
            assert event["type"] not in ("hand", "private_action", "pass_cards")
            if event["type"] == "action" and not event.get("hidden"):
                played.update(_CARD.findall(event["action"]))
        if not message["terminal"]:
            assert set(_CARD.findall(text)) <= played, "a spectator saw an unplayed card"
    assert watcher.view["terminal"]


def test_a_seat_token_is_used_by_one_client_and_resumes_exactly(server: Server) -> None:
    room = _room(server, "doudizhu", ["human", "rule", "rule"])
    code = room["code"]
    seat = _join(server, code)
    first = Person(server, code, seat["token"])
    first.wait_for("view")
    third = Person(server, code, seat["token"])
    refused = third.wait_for("error")
    assert refused["code"] == "seat_in_use"
    first.pump(0.3)
    if first.my_turn():
        view = first.view
        first.send({"type": "act", "action": view["legal_actions"][-1], "ply": view["ply"]})
        first.wait_for("accepted")
        first.pump(0.3)
    seen, last = list(first.events), first.view
    first.close()
    # The server may read the close a moment after the client is done with it; until
    # then the seat counts as connected and a new hello is refused.
    for _ in range(100):
        again = Person(server, code, seat["token"])
        view = again.wait_for("view", "error")
        if view["type"] == "view":
            break
        assert view["code"] == "seat_in_use"
        again.close()
        time.sleep(0.05)
    again.pump(0.3)
    assert view["reset"]
    assert again.events[: len(seen)] == seen
    assert again.view["hand"] == last["hand"] or again.view["ply"] > last["ply"]
    wrong = Person(server, code, "not-a-token")
    assert wrong.wait_for("error")["code"] == "bad_token"


def test_bad_messages_get_error_frames_and_the_connection_lives(server: Server) -> None:
    room = _room(server, "doudizhu", ["human", "human", "rule"])
    code = room["code"]
    seats = [_join(server, code), _join(server, code)]
    people = [Person(server, code, s["token"]) for s in seats]
    for p in people:
        p.wait_for("view")
        p.pump(0.2)
    mover = next(p for p in people if p.my_turn())
    other = people[1 - people.index(mover)]
    codes = []
    for raw in (
        "{not json",
        "[1, 2]",
        json.dumps({"type": "dance"}),
        json.dumps({"type": "act", "action": "bid 7"}),
        json.dumps({"type": "act", "action": 3}),
        json.dumps({"type": "act", "action": "pass", "ply": 999}),
        json.dumps({"type": "chat", "text": "x" * 10_000}),
    ):
        mover.ws.send(raw)
        codes.append(mover.wait_for("error")["code"])
    mover.ws.send(b"\x00binary")
    codes.append(mover.wait_for("error")["code"])
    assert codes == [
        "bad_json",
        "bad_json",
        "unknown_type",
        "illegal_action",
        "bad_action",
        "stale",
        "too_large",
        "bad_json",
    ]
    other.send({"type": "act", "action": "pass"})
    assert other.wait_for("error")["code"] == "not_your_turn"
    # The engine's own reason comes back for an illegal move.
    mover.send({"type": "act", "action": "play 3"})
    refusal = mover.wait_for("error")
    assert refusal["code"] == "illegal_action" and refusal["message"]
    mover.send({"type": "ping"})
    assert mover.wait_for("pong")["type"] == "pong"
    watcher = Person(server, code)
    watcher.send({"type": "act", "action": "pass"})
    assert watcher.wait_for("error")["code"] == "not_a_seat"


def test_flooding_is_rate_limited(server: Server) -> None:
    room = _room(server, "onepoker", ["human", "signal"])
    person = Person(server, room["code"], _join(server, room["code"])["token"])
    for _ in range(200):
        person.send({"type": "ping"})
    person.pump(0.5)
    assert any(e["code"] == "rate_limited" for e in person.errors)


def test_http_input_is_bounded_and_checked(server: Server) -> None:
    bad = [
        ({"game": "nosuchgame"}, "bad_game"),
        ({"game": "hearts", "options": {"target": -1}}, "bad_options"),
        ({"game": "hearts", "options": {"colour": "red"}}, "bad_options"),
        ({"game": "hearts", "seats": ["human"]}, "bad_seats"),
        ({"game": "hearts", "seats": ["human", "rule", "rule", "wizard"]}, "bad_seats"),
        ({"game": "hearts", "private": "yes"}, "bad_request"),
        ({"game": "hearts", "extra": 1}, "bad_request"),
        ({"game": "hearts", "pad": "x" * 10_000}, "too_large"),
    ]
    for body, code in bad:
        response = server.post("/api/rooms", body)
        assert response.status_code >= 400
        assert response.json()["error"]["code"] == code, body
    assert server.get("/api/rooms/NOSUCHROOM").json()["error"]["code"] == "room_not_found"
    room = _room(server, "onepoker", ["human", "signal"])
    _join(server, room["code"])
    full = server.post(f"/api/rooms/{room['code']}/join", {})
    assert full.status_code == 409 and full.json()["error"]["code"] == "room_full"
    taken = server.post(f"/api/rooms/{room['code']}/join", {"seat": 1})
    assert taken.json()["error"]["code"] == "seat_taken"


def test_the_page_and_its_files_are_served_with_a_strict_policy(server: Server) -> None:
    page = server.get("/")
    assert page.status_code == 200 and "table.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("table.js", "table.css"):
        assert server.get(f"/static/{name}").status_code == 200
    assert server.get("/static/../rooms.py").status_code == 404


def test_private_rooms_are_not_listed_but_open_by_code(server: Server) -> None:
    room = _room(server, "zhengshangyou", ["human", "rule", "rule"], private=True)
    listed = {r["code"] for r in server.get("/api/rooms").json()["rooms"]}
    assert room["code"] not in listed
    assert server.get(f"/api/rooms/{room['code']}").json()["private"] is True
    assert _join(server, room["code"])["seat"] == 0


def test_a_finished_game_restarts_as_a_new_match(server: Server) -> None:
    room = _room(server, "zhengshangyou", ["human", "random", "random"])
    person = Person(server, room["code"], _join(server, room["code"])["token"])
    person.send({"type": "restart"})
    assert person.wait_for("error")["code"] == "cannot_restart"
    play_out([person])
    person.send({"type": "restart"})
    view = person.wait_for("view")
    assert view["reset"] and view["match"] == 1 and not view["terminal"]


def test_a_killed_server_restarts_with_every_room_intact(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    first = Server(db)
    try:
        room = _room(first, "hearts", ["human", "rule", "rule", "rule"])
        code = room["code"]
        seat = _join(first, code, name="ann")
        person = Person(first, code, seat["token"])
        accepted = -1
        deadline = time.monotonic() + GAME_TIMEOUT
        while accepted < 12:
            assert time.monotonic() < deadline, "the game stalled"
            person.pump()
            if person.my_turn():
                view = person.view
                person.send({"type": "act", "action": view["legal_actions"][0], "ply": view["ply"]})
                reply = person.wait_for("accepted", "error")
                accepted = reply.get("ply", accepted)
        # A second room, private, whose person has not come yet.
        other = _room(first, "doudizhu", ["human", "rule", "rule"], private=True)
        other_ply = first.get(f"/api/rooms/{other['code']}").json()["ply"]
        # Killed right after an acknowledgement: that move must be on disk.
        first.kill()
        seen = list(person.events)
    finally:
        first.stop()
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    second = Server(db)
    try:
        info = second.get(f"/api/rooms/{code}").json()
        assert info["ply"] > accepted
        assert info["seats"][0]["name"] == "ann"
        kept = second.get(f"/api/rooms/{other['code']}").json()
        assert kept["private"] and kept["ply"] >= other_ply
        assert kept["seats"][0] == {**other["seats"][0], "connected": False}
        back = Person(second, code, seat["token"])
        back.wait_for("view")
        back.pump(0.2)
        assert back.events[: len(seen)] == seen
        play_out([back], timeout=300)
        assert back.view["terminal"] or back.view["ply"] > info["ply"]
    finally:
        second.stop()


def test_idle_rooms_expire(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "x.sqlite")
        rooms = Rooms(store, ServerConfig(idle_expiry=60, agent_delay=0))
        room = await rooms.create("hearts", seats=["human", "rule", "rule", "rule"])
        assert rooms.expire(room.record.touched + 30) == []
        assert rooms.expire(room.record.touched + 61) == [room.code]
        assert store.load_rooms() == []
        store.close()

    asyncio.run(scenario())


def _busted_holdem() -> Any:
    """A Hold'em match where seat 0 went all in and lost while three others play on."""
    game = games.make("holdem", stacks=[20, 1000, 1000, 1000])
    for seed in range(200):
        state = game.new_state(seed=seed)
        while not state.is_terminal and state.private_cards(0):
            legal = state.legal_actions()
            pick = legal[-1] if state.current_player == 0 else "call"
            state.apply(pick if pick in legal else legal[0])
        if not state.is_terminal and state.observation(0)["stacks"][0] == 0:
            return state
    raise AssertionError("no seed busts seat 0")


def test_an_eliminated_player_watches_or_restarts(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "x.sqlite")
        rooms = Rooms(store, ServerConfig(agent_delay=0))
        room = await rooms.create(
            "holdem",
            {"stacks": [20, 1000, 1000, 1000]},
            ["human", "calling_station", "calling_station", "calling_station"],
        )
        seat, _token = await rooms.join(room, 0)
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        client = Client(send, seat)
        # Seat 0 still has chips: no restart while the match goes on.
        with pytest.raises(RoomError, match="restarts only when"):
            await rooms.restart(room, client)
        # Put the room where seat 0 has just been knocked out (its agents stopped, so
        # the position holds still while the rule is checked).
        room.agents = [None] * 4
        room.state = _busted_holdem()
        await rooms.connect(room, client)
        watching = next(m for m in reversed(sent) if m["type"] == "view")
        assert watching["eliminated"] and not watching["terminal"]
        await rooms.restart(room, client)
        view = next(m for m in reversed(sent) if m["type"] == "view")
        assert view["reset"] and view["match"] == 1 and not view["eliminated"]
        await rooms.close()
        store.close()

    asyncio.run(scenario())


def test_a_move_that_cannot_be_written_is_not_played(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "x.sqlite")
        rooms = Rooms(store, ServerConfig(agent_delay=0))
        room = await rooms.create("onepoker", seats=["human", "human"])

        async def send(message: dict[str, Any]) -> None:
            pass

        before = room.state.to_json()
        store.close()  # every write now fails, as on a full or lost disk
        mover = Client(send, room.state.current_player)
        with pytest.raises(RoomError, match="could not be saved") as refused:
            await rooms.act(room, mover, room.state.legal_actions()[0])
        assert refused.value.code == "storage_error"
        assert room.state.to_json() == before

    asyncio.run(scenario())


def test_the_load_bench_runs_small() -> None:
    bench_path = Path(__file__).resolve().parent.parent / "benches" / "server_load.py"
    bench = load_script(bench_path, "server_load_bench")
    result = bench.run(rooms=3)
    assert result["rooms"] == 3
    # A Hearts deal is 64 moves (52 cards played, 12 passed one at a time).
    assert result["moves"] == 3 * 64
    assert result["person_moves"] == 3 * 16
    assert result["p50_ms"] <= result["p99_ms"]


@pytest.mark.parametrize(
    "setting",
    [
        {"max_rooms": 0},
        {"agent_delay": -1.0},
        {"idle_expiry": "soon"},
        {"db": ""},
        {"rate_limit": 0},
    ],
)
def test_server_settings_are_checked(setting: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        ServerConfig(**setting)


def test_cardkit_serve_refuses_bad_settings() -> None:
    assert main(["serve", "--max-rooms", "0"]) == 2
    assert main(["serve", "--agent-delay", "-1"]) == 2


def test_a_room_that_no_longer_replays_is_kept_but_not_served(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "x.sqlite")
        rooms = Rooms(store, ServerConfig(agent_delay=0))
        kept = await rooms.create("hearts", seats=["human", "rule", "rule", "rule"])
        broken = await rooms.create("spades", seats=["human", "rule", "rule", "rule"])
        await rooms.close()
        store.append_action(broken.code, 0, len(broken.state.history), "bid 99")
        again = Rooms(store, ServerConfig(agent_delay=0))
        again.load()
        assert set(again.rooms) == {kept.code}
        assert {r.code for r in store.load_rooms()} == {kept.code, broken.code}
        await again.close()
        store.close()

    asyncio.run(scenario())


def test_a_game_registered_at_run_time_gets_rooms(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "x.sqlite")
        rooms = Rooms(store, ServerConfig(agent_delay=0))
        room = await rooms.create("short_spades", seats=["random"] * 4)
        assert "short_spades" in {g["name"] for g in Rooms.games()}
        assert room.driver is not None
        await room.driver
        assert room.state.is_terminal
        assert room.info()["game"] == "short_spades"
        store.close()

    games.register(
        "short_spades", lambda **options: games.make("spades", **{"match": False, **options})
    )
    try:
        asyncio.run(scenario())
    finally:
        games.unregister("short_spades")
