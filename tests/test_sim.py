"""Simulation at scale: records, statistics, seatings, executors, output files, Ctrl-C."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import enum
import gc
import os
import re
import signal
import subprocess
import sys
import textwrap
import types
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardkit import derive_seed, games, sim
from cardkit.agents import RandomAgent, agent_factory
from cardkit.cli import main
from cardkit.errors import CardkitError, RuleOptionError
from cardkit.play import play
from cardkit.sim import (
    MAX_BLOCK,
    THAW_EVERY,
    DaskExecutor,
    RayExecutor,
    SimulationResult,
    _Block,
    _cuts,
    _LocalPool,
    _play_block,
    _Stopped,
    flatten_breakdown,
    key_figures,
    simulate,
    tournament,
    wilson_interval,
)

AGENTS = ["rule", "random", "random"]


def _endless_block(halt: Any = None) -> _Block:
    """A block of ten million games: hours of play unless it is stopped."""
    seatings = ((0, 1, 2),)
    return _Block("doudizhu", {}, (RandomAgent,) * 3, seatings, False, 1, 0, 10**7, True, halt)


def _same(a: SimulationResult, b: SimulationResult) -> None:
    assert a.records.equals(b.records)
    assert a.agent_stats == b.agent_stats and a.role_stats == b.role_stats
    assert a.paired_gaps == b.paired_gaps


@pytest.fixture(scope="module")
def reference() -> SimulationResult:
    return simulate("doudizhu", 24, seed=5, agents=AGENTS, workers=1)


def test_records_do_not_depend_on_workers_or_executor(reference: SimulationResult) -> None:
    _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, workers=2))
    with cf.ThreadPoolExecutor(3) as pool:
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor=pool))


def test_blocks_shrink_toward_the_end_and_cover_every_game() -> None:
    for total, workers in [(1, 2), (10, 4), (200, 2), (3464, 2), (10**6, 8)]:
        for coarse in (False, True):
            cuts = list(_cuts(total, workers, coarse))
            assert [start for start, _ in cuts] == [0] + [stop for _, stop in cuts[:-1]]
            assert cuts[-1][1] == total
            sizes = [stop - start for start, stop in cuts]
            assert sizes == sorted(sizes, reverse=True) and max(sizes) <= MAX_BLOCK
    sizes = [stop - start for start, stop in _cuts(3464, 2)]
    assert sizes[0] == 217 and sizes[-2] == 14  # a sixteenth of a full block at the end
    # a cluster's blocks: about four per worker, down to a quarter of a full block
    coarse = [stop - start for start, stop in _cuts(3464, 2, coarse=True)]
    assert coarse[0] == 433 and coarse[-2] == 109 and (len(coarse), len(sizes)) == (13, 26)


def test_holdem_records_do_not_depend_on_the_cut() -> None:
    # sessions of very different lengths, list and mixed-type figure columns: the
    # blocks of 1, 2 and 3 workers cut the run in different places
    one = simulate("holdem", 40, seed=3, workers=1)
    _same(one, simulate("holdem", 40, seed=3, workers=2))
    with cf.ThreadPoolExecutor(3) as pool:
        _same(one, simulate("holdem", 40, seed=3, workers=3, executor=pool))


def test_ray_runs_the_same_games(reference: SimulationResult) -> None:
    import ray

    assert not ray.is_initialized()
    executor = RayExecutor(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor=executor))
        # "ray" joins the running Ray and leaves it up
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor="ray"))
        assert ray.is_initialized()
        # Ctrl-C: cancel interrupts a running block at once, and the workers live on
        future = executor.submit(_play_block, _endless_block())
        executor.cancel([future])
        with pytest.raises(ray.exceptions.TaskCancelledError):
            future.result(timeout=300)
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor=executor))
    finally:
        executor.shutdown()
    assert not ray.is_initialized()  # the executor stops the Ray it started


def test_dask_runs_the_same_games(
    reference: SimulationResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dask

    executor = DaskExecutor(workers=2)
    try:
        workers = executor.client.scheduler_info()["workers"]
        assert len(workers) == 2  # two worker processes of a real LocalCluster
        # its workers were started without Dask's stack sampling (QUIET_DASK)
        key = "distributed.worker.profile.enabled"
        sampling = executor.client.run(lambda: dask.config.get(key))
        assert list(sampling.values()) == [False, False]
        collectors = executor.client.run(lambda: (gc.get_threshold(), gc.get_freeze_count()))
        # the cluster it started hands results straight from its workers to the caller
        assert executor.client.direct_to_workers is True
        marked = _spy_on_blocks(monkeypatch)
        sent: list[Any] = []
        submit = executor.submit
        monkeypatch.setattr(executor, "submit", lambda fn, *a: (sent.append(fn), submit(fn, *a))[1])
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor=executor))
        # every block came back sealed in one pickle, and gave the same records
        assert sent and set(sent) == {sim._play_sealed}
        # the blocks quieted the workers' collectors while they ran, and only then
        assert marked and all(marked)
        after = executor.client.run(lambda: (gc.get_threshold(), gc.get_freeze_count()))
        assert after == collectors
        # Dask cannot interrupt a running task: the block itself stops before its next
        # game once it sees the run's stop flag raised (as cancel raises it on Ctrl-C)
        halt = executor.halt
        future = executor.submit(_play_block, _endless_block(halt))
        halt.set(executor.client)
        with pytest.raises(_Stopped, match=r"games from [0-9]+ on were cancelled"):
            future.result(timeout=300)
        executor.cancel([])
        assert executor.halt.name != halt.name  # a fresh flag for the next run
        _same(reference, simulate("doudizhu", 24, seed=5, agents=AGENTS, executor=executor))
        # a cluster's coarser cut: Hold'em's list and mixed-type figure columns too
        holdem = simulate("holdem", 40, seed=3, workers=1)
        _same(holdem, simulate("holdem", 40, seed=3, workers=2, executor=executor))
    finally:
        executor.shutdown()
    # the CLI's --executor dask starts a LocalCluster of its own for the run
    out = tmp_path / "r.parquet"
    argv = ["simulate", "doudizhu", "-n", "24", "--seed", "5", "--agents", "rule,random,random"]
    assert main([*argv, "--executor", "dask", "--workers", "2", "--out", str(out)]) == 0
    assert pq.read_table(out).equals(reference.records)


def test_records_match_replaying_each_seed(reference: SimulationResult) -> None:
    rows = reference.records.to_pylist()
    assert [r["game"] for r in rows] == list(range(24))
    rule = agent_factory("doudizhu", "rule")
    for g, row in enumerate(rows):
        assert row["seed"] == derive_seed(5, g)
        # game g rotates the listed agents by g seats: rule sits at seat g % 3
        seats = [rule if s == g % 3 else RandomAgent for s in range(3)]
        agents = [f(derive_seed(row["seed"], s + 1)) for s, f in enumerate(seats)]
        state = play(games.make("doudizhu"), agents, seed=row["seed"])
        assert [row[f"return_{s}"] for s in range(3)] == state.returns()
        assert [row[f"agent_{s}"] for s in range(3)] == [
            "rule" if s == g % 3 else "random" for s in range(3)
        ]
        breakdown = state.score_breakdown()
        assert row["score.landlord"] == breakdown["landlord"]
        assert row["score.multiplier"] == breakdown["multiplier"]
        assert row["score.spring"] == breakdown["spring"]
        assert row[f"role_{breakdown['landlord']}"] == "landlord"
        assert reference.replay(g).returns() == state.returns()


def test_statistics_add_up(reference: SimulationResult) -> None:
    rule, random = reference.agent_stats
    assert (rule.agent, random.agent) == ("rule", "random")
    # zero-sum with one rule and two random seats in every game
    assert rule.mean + 2 * random.mean == pytest.approx(0)
    won = reference.records.column("won_0").to_pylist()
    assert len(won) == 24
    assert 0 <= rule.win_low <= rule.win_rate <= rule.win_high <= 1
    roles = {(r.agent, r.role) for r in reference.role_stats}
    assert roles == {(a, r) for a in ("rule", "random") for r in ("landlord", "farmer")}
    assert sum(r.games for r in reference.role_stats if r.agent == "rule") == 24
    assert reference.paired_gaps == []
    text = reference.table()
    assert "games/s" in text and "landlord" in text and "Wilson" in text


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == 1
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_duplicate_replays_each_deal_in_every_rotation() -> None:
    result = simulate("doudizhu", 6, seed=2, agents=AGENTS, workers=1, duplicate=True)
    rows = result.records.to_pylist()
    assert len(rows) == 18
    for deal in range(6):
        same = [r for r in rows if r["deal"] == deal]
        assert {r["seed"] for r in same} == {derive_seed(2, deal)}
        assert sorted(r["seating"] for r in same) == [0, 1, 2]
    (gap,) = result.paired_gaps
    assert (gap.agent, gap.other, gap.deals) == ("rule", "random", 6)
    rule, random = result.agent_stats
    assert gap.mean == pytest.approx(rule.mean - random.mean)
    assert "paired gap rule - random" in result.table()


def test_fixed_seats_keep_the_listed_order() -> None:
    result = simulate("doudizhu", 5, seed=1, agents=AGENTS, workers=1, rotate_seats=False)
    assert set(result.records.column("agent_0").to_pylist()) == {"rule"}


def test_every_game_records_its_key_figures() -> None:
    for name in games.available():
        try:  # one deal where the game has matches: random play to 500 takes long
            options = {"match": False} if games.make(name, match=False) else {}
        except RuleOptionError:
            options = {}
        result = simulate(name, 2, seed=3, workers=1, options=options)
        columns = result.records.column_names
        assert any(c.startswith("score.") for c in columns), name
        assert result.records.num_rows == 2
    holdem = simulate("holdem", 3, seed=3, workers=1, options={"match": False})
    assert "score.pot" in holdem.records.column_names
    assert "score.showdowns" in holdem.records.column_names
    spades = simulate("spades", 2, seed=3, workers=1, options={"match": False})
    assert {r.role for r in spades.role_stats} == {"team 0", "team 1"}
    bridge = simulate("bridge", 4, seed=1, workers=1)
    assert {"score.contract", "score.declarer", "score.result"} <= set(bridge.records.column_names)
    for row in bridge.records.to_pylist():
        if row["score.declarer"] is not None:
            assert row[f"role_{row['score.declarer']}"] == "declarer"
        else:  # a deal passed out has no declarer, and no roles
            assert row["role_0"] is None
    assert {r.role for r in bridge.role_stats} == {"declarer", "defender"}


_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.sampled_from(["Ah", "Td8c6d", "Two Pair, Queens and Sevens", ""]),
)
_COLUMN_VALUE = st.one_of(
    _SCALAR,
    st.lists(st.integers(-(2**40), 2**40), max_size=5),
    st.lists(st.integers(-(2**70), 2**70), max_size=2),
    st.lists(st.sampled_from(["Qs", "7c", "Flush, Jack high"]), max_size=5),
    st.lists(_SCALAR, max_size=3),
)


@given(
    st.lists(_COLUMN_VALUE, max_size=12) | st.lists(st.one_of(st.none(), st.text()), max_size=12)
)
def test_packed_figure_columns_give_back_the_same_values(values: list[Any]) -> None:
    # what a block sends in place of a list of texts or lists: the same values, of
    # the same types, once the records are built
    packed = sim._Packed.of(values)
    if packed is not None:
        back = packed.unpack()
        assert back == values
        assert [type(v) for v in back] == [type(v) for v in values]
        lists = [
            (x, y)
            for v, w in zip(back, values, strict=True)
            if type(v) is list
            for x, y in zip(v, w, strict=True)
        ]
        assert all(type(x) is type(y) for x, y in lists)


def test_holdem_blocks_send_their_text_and_list_figures_packed() -> None:
    seatings = ((0, 1, 2, 3),)
    block = _Block("holdem", {}, (RandomAgent,) * 4, seatings, False, 3, 0, 12, True)
    columns = _play_block(block)["figures"]
    assert isinstance(columns["score.stacks"], sim._Packed)  # lists of ints
    assert isinstance(columns["score.hands.last.board"], sim._Packed)  # lists of texts
    assert isinstance(columns["score.pot"], np.ndarray)
    # none left as a list of Python objects but those of nulls alone
    left = [k for k, v in columns.items() if isinstance(v, list)]
    assert all(x is None for k in left for x in columns[k]), left
    # played in the caller's process, a block's result goes nowhere: nothing packed
    unsent = _play_block(dataclasses.replace(block, pack=False))["figures"]
    assert not any(isinstance(v, sim._Packed) for v in unsent.values())
    in_process = simulate("holdem", 6, seed=3, workers=1)._figures
    assert in_process is not None
    assert not any(isinstance(v, sim._Packed) for _, part in in_process for v in part.values())


def test_flatten_breakdown_rule() -> None:
    breakdown = {
        "contract": {"level": 4, "strain": "S", "declarer": 2},
        "made": True,
        "tricks": [3, 4, 3, 3],
        "deals": [{"deal": 0, "points": 5}, {"deal": 1, "points": 7}],
        "holes": [["As", "Kd"], ["2c", "3c"]],
        "returns": [1.0, -1.0],
    }
    assert flatten_breakdown(breakdown) == {
        "contract.level": 4,
        "contract.strain": "S",
        "contract.declarer": 2,
        "made": True,
        "tricks": [3, 4, 3, 3],
        "deals.count": 2,
        "deals.last.deal": 1,
        "deals.last.points": 7,
    }
    assert key_figures("bridge", {"made": True}) == {"score.made": True}


def test_flatten_breakdown_subclasses() -> None:
    # Element types that are subclasses of the plain ones keep their kind: an IntEnum
    # list is a list column, read-only mappings are records, and a mix is left out.
    Seat = enum.IntEnum("Seat", "N E S W")
    breakdown = {
        "seats": [Seat.N, None, 3],
        "deals": [types.MappingProxyType({"points": 1}), {"points": 2}],
        "mixed": [{"points": 1}, 2],
    }
    assert flatten_breakdown(breakdown) == {
        "seats": [Seat.N, None, 3],
        "deals.count": 2,
        "deals.last.points": 2,
    }


def test_output_files(tmp_path: Path, reference: SimulationResult) -> None:
    reference.to_parquet(tmp_path / "r.parquet")
    assert pq.read_table(tmp_path / "r.parquet").equals(reference.records)
    reference.plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.parquet", "r.png"]
    frame = reference.to_pandas()
    assert len(frame) == 24 and "score.bid" in frame.columns


def test_progress_callback_counts_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate("doudizhu", 30, seed=1, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (30, 30)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_tournament_plays_every_seating() -> None:
    result = tournament("doudizhu", ["rule", "random", "random"], 4, seed=9, workers=1)
    assert result.result.games == 12  # 3 distinct seatings of rule, random, random
    assert [r.agent for r in result.ranking] == ["rule", "random"]
    assert result.elo["rule"] > 1500 > result.elo["random"]
    assert "Elo" in result.table()


def test_bad_arguments_name_the_input() -> None:
    with pytest.raises(RuleOptionError, match="executor must be one of"):
        simulate("doudizhu", 2, executor="spark")
    with pytest.raises(RuleOptionError, match="executor must be"):
        simulate("doudizhu", 2, executor=3)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError, match="unknown agent"):
        simulate("doudizhu", 2, agents=["rule", "oracle", "random"])
    with pytest.raises(RuleOptionError, match="progress"):
        simulate("doudizhu", 2, workers=1, progress=3)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError, match="duplicate"):
        simulate("doudizhu", 2, duplicate=1)  # type: ignore[arg-type]
    with pytest.raises(RuleOptionError, match="game must be"):
        simulate("doudizhu", 2, workers=1).replay(2)


def test_cli_options_and_output_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "r.parquet", tmp_path / "r.png"
    argv = ["simulate", "hearts", "-n", "4", "--agents", "rule,random,random,random"]
    argv += ["--option", "match=false", "--workers", "2", "--duplicate", "--seed", "3"]
    assert main([*argv, "--out", str(out), "--plot", str(png)]) == 0
    text = capsys.readouterr().out
    assert "hearts: 16 games from seed 3" in text and "paired gap rule - random" in text
    table = pq.read_table(out)
    assert table.num_rows == 16 and set(table.column("score.deals.count").to_pylist()) == {1}
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["simulate", "hearts", "--option", "bogus=1"]) == 2
    assert main(["simulate", "hearts", "--option", "novalue"]) == 2
    assert main(["simulate", "hearts", "--address", "x"]) == 2
    assert main(["agents", "doudizhu"]) == 0
    listing = capsys.readouterr().out
    assert "search" in listing and "samples=32" in listing


def test_unsendable_agent_is_named() -> None:
    class Local:
        def __call__(self, seed: int) -> Any:
            return RandomAgent(seed)

    with pytest.raises(RuleOptionError, match="seat 1's agent factory 'Local'"):
        simulate("doudizhu", 4, workers=2, agents=["rule", Local(), "random"])


_CHILD = """
import sys
from cardkit.sim import simulate

def report(done, total):
    print("progress", done, flush=True)

if __name__ == "__main__":
    try:
        result = simulate("doudizhu", 10**6, workers=2, progress=report)
        result.to_parquet(sys.argv[1])
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
"""


def _interrupt(tmp_path: Path, script_text: str, ready: str) -> None:
    """Run ``script_text`` as a script (its argument: the Parquet file to write), wait
    for a line starting with ``ready``, send SIGINT, and check that it exits with 130
    after printing ``interrupted`` and leaves nothing beside the script."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(script_text))
    out = tmp_path / "r.parquet"
    child = subprocess.Popen(
        [sys.executable, str(script), str(out)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, to be cleaned up whole on failure
    )
    assert child.stdout is not None
    assert child.stdout.readline().startswith(ready)
    child.send_signal(signal.SIGINT)
    try:
        # a liveness bound only: the pool's workers hold the pipe open until they are gone
        rest, _ = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        # the whole group: the pool's workers ignore SIGINT and would play on
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail("still running 120 s after SIGINT")
    assert child.returncode == 130
    assert rest.splitlines()[-1] == "interrupted"
    assert not out.exists() and os.listdir(tmp_path) == ["run.py"]


def test_ctrl_c_stops_a_run_and_writes_nothing(tmp_path: Path) -> None:
    # the first finished block shows the workers are up and playing
    _interrupt(tmp_path, _CHILD, "progress")


_LONG_MATCH = """
import sys, time
from cardkit.agents import RandomAgent
from cardkit.sim import simulate

class Slow:
    \"\"\"A random player that takes a millisecond a move: random Spades matches run
    to the 10,000-deal cap, so one game lasts ten minutes.\"\"\"

    started = False

    def __init__(self, seed):
        self.agent = RandomAgent(seed)

    def act(self, observation, legal):
        if not Slow.started:
            Slow.started = True
            # one write of a whole line: both workers share the pipe, and print()
            # writes the text and the newline apart, so two lines could interleave
            sys.stdout.write("playing\\n")
            sys.stdout.flush()
        time.sleep(0.001)
        return self.agent.act(observation, legal)

if __name__ == "__main__":
    try:
        result = simulate("spades", 4, workers=2, agents=[Slow] * 4)
        result.to_parquet(sys.argv[1])
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
"""


def test_ctrl_c_stops_a_run_inside_a_long_game(tmp_path: Path) -> None:
    # Workers look at the run's stop flag between moves too, not only between games:
    # a game can last minutes (ten, for these), and Ctrl-C must not wait for it
    # (issue 19). "playing": a worker is inside a game.
    _interrupt(tmp_path, _LONG_MATCH, "playing")


def test_agents_take_their_options_by_name() -> None:
    result = simulate("doudizhu", 3, workers=2, agents=["search:samples=2", "random", "random"])
    assert result.agents == ["search:samples=2", "random", "random"]
    spec = agent_factory("doudizhu", "search", samples=2)
    assert spec.options == (("samples", 2),) and spec(1).samples == 2  # type: ignore[attr-defined]
    for bad, match in [
        ("search:bogus=1", "has no option 'bogus'"),
        ("search:samples=-1", "samples must be"),
        ("search:samples", "key=value"),
    ]:
        with pytest.raises(RuleOptionError, match=match):
            simulate("doudizhu", 2, workers=1, agents=[bad, "random", "random"])


def test_statistics_without_pyarrow(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.sim

    monkeypatch.setattr(cardkit.sim, "_has_pyarrow", lambda: False)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    result = simulate("doudizhu", 6, seed=5, agents=AGENTS, workers=1)
    assert result.agent_stats[0].agent == "rule" and "landlord" in result.table()
    with pytest.raises(CardkitError, match=r"pip install 'cardkit\[sim\]'"):
        _ = result.records


def test_workers_that_cannot_start_raise_instead_of_hanging() -> None:
    # spawned workers re-import the caller's script, which a script read from
    # stdin does not have: the pool breaks, and the run says why
    script = "from cardkit.sim import simulate\nsimulate('doudizhu', 8, workers=2)\n"
    out = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 1
    assert "CardkitError: simulation worker processes died" in out.stderr


class _CountingPool(cf.ThreadPoolExecutor):
    """A thread pool that records the most blocks it held at once."""

    def __init__(self) -> None:
        super().__init__(2)
        self.futures: list[cf.Future[Any]] = []
        self.most = 0

    @property
    def submitted(self) -> int:
        return len(self.futures)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        # counted as the futures not yet done, not by a done-callback: a future's
        # waiter wakes before its callbacks run, so the run may submit the next
        # block before a callback would have counted the last one out
        live = 1 + sum(not f.done() for f in self.futures)
        self.most = max(self.most, live)
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


def test_a_run_keeps_few_blocks_in_flight() -> None:
    with _CountingPool() as pool:
        result = simulate("doudizhu", 200, seed=1, workers=2, executor=pool)
    assert result.games == 200
    # blocks of 13 games (200 / (2 workers x 8)), shrinking over the last two rounds
    assert pool.submitted == 23
    assert pool.most <= 4  # two blocks per worker, however long the run


def _thaw() -> tuple[int, int]:
    """In a worker: how many objects were frozen, and how many of them, given back to
    the collector, turn out to be garbage."""
    gc.collect()  # the garbage of the last block, never frozen
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    return frozen, gc.collect()


def _spy_on_blocks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each block a run sends is marked as played on a cluster's worker."""
    marked: list[bool] = []
    run_blocks = sim._run_blocks

    def spy(runner: Any, blocks: Any, window: int, collect: Any) -> Any:
        def seen() -> Any:
            for block in blocks:
                marked.append(block.cluster)
                yield block

        return run_blocks(runner, seen(), window, collect)

    monkeypatch.setattr(sim, "_run_blocks", spy)
    return marked


def test_blocks_are_marked_for_clusters_only(monkeypatch: pytest.MonkeyPatch) -> None:
    marked = _spy_on_blocks(monkeypatch)
    with cf.ThreadPoolExecutor(2) as pool:
        simulate("holdem", 8, seed=3, workers=2, executor=pool)
    simulate("holdem", 8, seed=3, workers=2)
    assert marked and not any(marked)


def _collector_seen() -> tuple[tuple[int, ...], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def test_a_cluster_block_quiets_the_collector_while_it_runs_and_puts_it_back() -> None:
    # A cluster's worker is not ours: a block there freezes what the worker holds
    # and raises the young threshold for its own games only.
    seen: list[tuple[tuple[int, ...], int]] = []

    def recording(seed: int) -> RandomAgent:
        seen.append(_collector_seen())
        return RandomAgent(seed)

    block = _Block("holdem", {"players": 2}, (recording,) * 2, ((0, 1),), False, 3, 0, 2, True)
    before = _collector_seen()
    plain = _play_block(block)
    assert seen and all(s == before for s in seen)
    seen.clear()
    quiet = _play_block(dataclasses.replace(block, cluster=True))
    assert _collector_seen() == before
    assert all(t[0] == 10_000 and t[1:] == before[0][1:] and frozen > 0 for t, frozen in seen)
    assert quiet["returns"].tolist() == plain["returns"].tolist()
    # nested blocks (a worker of several threads): the last to leave puts it back;
    # objects someone else froze stay frozen
    gc.freeze()
    try:
        threshold = gc.get_threshold()
        with sim._quiet_collector():
            with sim._quiet_collector():
                assert gc.get_threshold()[0] == 10_000
            assert gc.get_threshold()[0] == 10_000
        assert gc.get_threshold() == threshold
        assert gc.get_freeze_count() > 0  # what dies meanwhile leaves the count
    finally:
        gc.unfreeze()


def test_pool_workers_freeze_their_heap_and_the_caller_never_does() -> None:
    # A local pool's worker moves what outlives a block (the growing action caches)
    # out of the collector's sight, and no garbage with it; the caller's collector
    # is the caller's own.
    block = _Block("holdem", {"players": 2}, (RandomAgent,) * 2, ((0, 1),), False, 3, 0, 4, True)
    with _LocalPool(1) as pool:
        for _ in range(3):
            assert pool.submit(_play_block, block).result()["deal"].tolist() == [0, 1, 2, 3]
        frozen, garbage = pool.submit(_thaw).result()
        assert frozen > 0 and garbage == 0
    frozen = gc.get_freeze_count()
    simulate("holdem", 4, seed=3, workers=1)
    assert gc.get_freeze_count() == frozen


class _Ring:
    """One link of a reference cycle."""

    other: _Ring


#: In a worker: a weak reference to a cycle planted there (:func:`_plant_ring`).
_ring: weakref.ref[_Ring] | None = None


def _plant_ring() -> None:
    """In a worker: a two-object cycle frozen alive, then dropped, as an object caught
    in a cycle after a block's freeze would be."""
    global _ring
    first, second = _Ring(), _Ring()
    first.other, second.other = second, first
    _ring = weakref.ref(first)
    gc.freeze()


def _ring_alive() -> bool:
    assert _ring is not None
    return _ring() is not None


def test_pool_workers_collect_cycles_that_died_frozen_within_thaw_every_blocks() -> None:
    # What dies in a cycle after it was frozen is unreachable to a frozen collector;
    # the worker thaws its heap every THAW_EVERY blocks, so such a leak is bounded.
    block = _Block("holdem", {"players": 2}, (RandomAgent,) * 2, ((0, 1),), False, 3, 0, 1, True)
    with _LocalPool(1) as pool:
        # the worker settled its heap once at start; get it to just after a thaw
        for _ in range(THAW_EVERY - 1):
            pool.submit(_play_block, block).result()
        pool.submit(_plant_ring).result()
        for _ in range(THAW_EVERY - 1):
            pool.submit(_play_block, block).result()
        assert pool.submit(_ring_alive).result()  # ordinary settles keep it frozen
        pool.submit(_play_block, block).result()
        assert not pool.submit(_ring_alive).result()


def _run_cli(argv: list[str], *, stderr_on_terminal: bool) -> tuple[str, str]:
    """Run ``cardkit`` in a child with stdout on a pseudo-terminal, and stderr on it
    too or on a pipe: (what the terminal showed, what the pipe got)."""
    import pty
    import select

    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "cardkit.cli", *argv],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave if stderr_on_terminal else subprocess.PIPE,
    )
    os.close(slave)
    shown = b""
    try:
        while True:
            # generous liveness bound: the run takes seconds
            ready, _, _ = select.select([master], [], [], 300)
            assert ready, "the child printed nothing for 300 s"
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        _, piped = child.communicate(timeout=300)
    finally:
        os.close(master)
    assert child.returncode == 0
    return shown.decode(), (piped or b"").decode()


# long enough that the line, drawn once a run has taken half a second, shows
_LONG_RUN = ["simulate", "doudizhu", "-n", "2000", "--workers", "1", "--seed", "1"]
_PROGRESS_LINE = re.compile(r"\[#*\s*\] [\d,]+/2,000 games  [\d,]+ games/s  ETA [\d,]+ s")


def test_progress_line_shows_on_a_terminal_only() -> None:
    shown, _ = _run_cli(_LONG_RUN, stderr_on_terminal=True)
    assert _PROGRESS_LINE.search(shown), shown[-400:]
    assert "[##############################] 2,000/2,000 games" in shown
    assert "doudizhu: 2000 games from seed 1" in shown
    # the table follows on a line of its own, after the progress line is ended
    assert "\r\n" in shown.split("2,000/2,000 games", 1)[1].split("doudizhu:", 1)[0]

    # stderr, where the line is drawn, on a pipe: no line, on either stream
    shown, piped = _run_cli(_LONG_RUN, stderr_on_terminal=False)
    assert "doudizhu: 2000 games from seed 1" in shown
    assert "games/s  ETA" not in shown and "games/s  ETA" not in piped
    assert piped == ""


def _short_spades(**options: Any) -> Any:
    return games.make("spades", **{"match": False, **options})


def test_games_registered_at_run_time_reach_the_workers() -> None:
    # a module-level factory travels to spawned workers with the blocks
    games.register("short_spades", _short_spades)
    try:
        assert games.registered_factory("short_spades") is _short_spades
        assert games.registered_factory("spades") is None  # built in: every worker has it
        alone = simulate("short_spades", 8, seed=2, workers=1)
        _same(alone, simulate("short_spades", 8, seed=2, workers=2))
        # one that cannot be sent is refused up front, naming the game
        games.register("short_spades", lambda **options: _short_spades(**options))
        with pytest.raises(RuleOptionError, match="game 'short_spades' was added with games"):
            simulate("short_spades", 8, seed=2, workers=2)
        # in this process it needs no sending, nor in the caller's pool of threads (or a
        # forked one), where it stays behind for the workers' own registry
        _same(alone, simulate("short_spades", 8, seed=2, workers=1))
        with cf.ThreadPoolExecutor(2) as pool:
            _same(alone, simulate("short_spades", 8, seed=2, executor=pool))
    finally:
        games.unregister("short_spades")
