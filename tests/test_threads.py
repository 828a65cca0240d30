"""One state shared by several threads: moves are serialized by the state's lock.

Six threads race to apply random legal moves to one state (the loser of a race
gets IllegalActionError, or plays a move that is legal for the next seat too)
while reading it (observations, event logs, clones, saves). Afterwards the state
must equal a replay of its own save and keep playing normally. The switch
interval is cut to a microsecond so threads interleave inside methods.
"""

from __future__ import annotations

import _thread
import contextlib
import os
import random
import signal
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from cardkit import IllegalActionError, InvalidArgumentError, api, games
from cardkit._core import StateLock

from .test_conformance import random_match_game

GAMES = games.available()
THREADS = 6
MOVES = 60


@pytest.fixture(autouse=True)
def _tight_switching() -> Iterator[None]:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def _race(state: api.State, seed: int) -> list[BaseException]:
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        rng = random.Random(seed * 100 + k)
        try:
            barrier.wait()
            for i in range(MOVES):
                legal = state.legal_actions()
                if not legal:
                    return
                with contextlib.suppress(IllegalActionError):  # another thread moved first
                    state.apply(rng.choice(legal))
                seat = i % state.game.num_players
                if i % 3 == 0:
                    state.observation(seat)
                    state.events(seat)
                if i % 7 == 0:
                    state.clone()
                    state.to_json()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a thread is stuck"
    return errors


def _assert_same(game: api.Game, a: api.State, b: api.State) -> None:
    assert a.to_json() == b.to_json()
    assert a.legal_actions() == b.legal_actions()
    assert a.current_player == b.current_player
    for seat in (*range(game.num_players), None):
        if seat is not None:
            assert a.observation(seat) == b.observation(seat)
        assert a.events(seat) == b.events(seat)


@pytest.mark.parametrize("name", GAMES)
def test_threads_sharing_a_state_take_turns(name: str) -> None:
    game = random_match_game(name)
    for seed in range(3):
        state = game.new_state(seed=seed)
        errors = _race(state, seed)
        assert not errors, f"threads failed: {errors!r}"
        replay = game.state_from_json(state.to_json())
        _assert_same(game, state, replay)
        # Both keep playing, move for move, to the end.
        rng = random.Random(seed)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            replay.apply(action)
        _assert_same(game, state, replay)
        assert state.returns() == replay.returns()


def test_batch_functions_run_in_parallel_threads() -> None:
    """Batch calls from several threads at once give the single-thread answers."""
    import numpy as np

    from cardkit.games.doudizhu import legal_plays_batch
    from cardkit.poker import equity, evaluate_batch

    rows = np.array([random.Random(i).sample(range(52), 7) for i in range(2000)], dtype=np.uint8)
    hands = ["33445566778899TTJ", "3456789TJQKA2BR", "333444555666777"]

    def work() -> tuple[list[int], float, tuple[bytes, bytes]]:
        ranks = evaluate_batch(rows, threads=2).tolist()
        share = equity(["AhAs", "KdKc"], samples=20_000, seed=3, threads=2).equity[0]
        return ranks, share, legal_plays_batch(hands, threads=2)

    expected = work()
    results: list[tuple[list[int], float, tuple[bytes, bytes]]] = []
    threads = [threading.Thread(target=lambda: results.append(work())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a batch call is stuck"
    assert results == [expected] * 4


def test_the_state_lock_is_reentrant_and_held_by_one_thread_at_a_time() -> None:
    lock = StateLock()
    assert lock.acquire() and lock.acquire()  # the holder takes it again
    taken = threading.Event()
    order: list[str] = []

    def other() -> None:
        with lock:
            order.append("other")
            taken.set()

    thread = threading.Thread(target=other)
    thread.start()
    assert not taken.wait(0.05), "another thread took a held lock"
    lock.release()
    assert not taken.wait(0.05), "one release of two freed the lock"
    order.append("holder")
    lock.release()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the waiting thread was never woken"
    assert order == ["holder", "other"]


def _raised_in_a_thread(call: Callable[[], object]) -> list[type[BaseException]]:
    """The types of what ``call`` raised, run to its end in a thread of its own."""
    errors: list[type[BaseException]] = []

    def run() -> None:
        try:
            call()
        except BaseException as exc:
            errors.append(type(exc))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the thread is stuck"
    return errors


def test_the_state_lock_refuses_a_release_by_a_thread_that_does_not_hold_it() -> None:
    lock = StateLock()
    with pytest.raises(InvalidArgumentError, match="does not hold"):
        lock.release()
    lock.acquire()
    assert _raised_in_a_thread(lock.release) == [InvalidArgumentError]
    lock.release()  # still the holder's to release
    with pytest.raises(InvalidArgumentError):
        lock.release()


def _held_elsewhere(lock: StateLock) -> tuple[threading.Thread, threading.Event]:
    """A thread that takes ``lock`` and holds it until the returned event is set."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            taken.set()
            done.wait(60)

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(30)
    return thread, done


def test_ctrl_c_ends_a_wait_for_a_state_held_by_another_thread() -> None:
    state = games.make("hearts").new_state(seed=1)
    before = state.to_json()
    thread, done = _held_elsewhere(state._lock)
    timer = threading.Timer(0.1, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            state.apply(state.legal_actions()[0])
        # the interrupted wait did not take the lock: it is still the other thread's
        with pytest.raises(InvalidArgumentError, match="does not hold"):
            state._lock.release()
    finally:
        timer.cancel()
        done.set()
        thread.join(timeout=30)
    assert state.to_json() == before  # the interrupted move changed nothing
    state.apply(state.legal_actions()[0])  # and the state plays on once freed


def test_a_thread_that_fails_while_holding_a_state_leaves_it_free() -> None:
    # a lock belongs to a thread identity, which the system may give to a later
    # thread; holding only in ``with`` blocks means no ended thread still holds one
    state = games.make("spades").new_state(seed=2)
    assert _raised_in_a_thread(lambda: state.apply(-1)) == [IllegalActionError]
    before = len(state.history)
    assert _raised_in_a_thread(lambda: state.apply(state.legal_actions()[0])) == []
    assert len(state.history) == before + 1  # not stuck behind a lock left held


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX-only")
def test_a_forked_child_keeps_the_locks_of_the_thread_that_forked() -> None:
    mine, free = StateLock(), StateLock()
    theirs = StateLock()
    mine.acquire()
    mine.acquire()
    thread, done = _held_elsewhere(theirs)
    try:
        pid = os.fork()
        if pid == 0:  # the child: exit code 0 when every check holds
            code = 1
            try:
                mine.release()
                mine.release()  # the forking thread's two holds came along
                with free:
                    pass
                # the other thread did not: its hold lasts forever in the child,
                # and a signal still ends the wait for it
                signal.signal(signal.SIGALRM, _alarm)
                signal.setitimer(signal.ITIMER_REAL, 0.2)
                try:
                    theirs.acquire()
                except TimeoutError:
                    code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        done.set()
        thread.join(timeout=30)
        mine.release()
        mine.release()


def _alarm(signum: int, frame: object) -> None:
    raise TimeoutError
