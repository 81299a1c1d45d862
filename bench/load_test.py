"""Load test of the local stack (`make bench`): many two-player games at once, with lost
connections, checked move by move.

It starts the local stack (`python -m devstack`, in its own process so that the clients do not
share its interpreter), signs up two players a game, and plays every game to the end at the same
time with scripted asyncio clients over real WebSocket connections. Every turn the player rolls
once keeping some dice, then writes a legal cell, always naming the turn. At random moments a
client loses its connection: it closes its socket (right after sending an action, so that the
answer is lost, or between actions; or it opens the new connection first and the old one is
replaced), opens a new one with the same token, sends `sync`, re-sends its last unanswered
action with the same requestId (an applied one is answered `ack`) and goes on.

It reports the games finished, the moves lost or doubled (each finished game's sheets against
what its clients wrote: 13 cells a player, one a turn, the scores they were shown), the errors by
code, the round trips per action kind (p50/p95/p99) and the time it all took. The exit status is
1 when a game did not finish or a move was lost or doubled; latencies are figures, never a failure.

    .venv/bin/python bench/load_test.py [--games 50] [--reconnect 0.05] [--think 0.3] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from devstack.fairplay_answers import FairplayAnswers  # noqa: E402
from devstack.stack import STATE_FILE_VARIABLE, local_token  # noqa: E402

SETTINGS = {"players": 2, "preset": None, "columns": ["free"], "turnSeconds": 60}
TURNS_EACH = 13  # one free column of Yamb's 13 rows
UP_WITHIN = 120.0  # seconds for the stack to start
ANSWER_TIMEOUT = 30.0  # seconds without the answer to an action: the connection is given up
QUIET_TIMEOUT = 15.0  # seconds without news of the game: the client syncs
GAME_TIMEOUT = 900.0  # seconds for one game, whatever happens
RECONNECT_MODES = ("after-send", "between-actions", "replaced")


# ------------------------------------------------------------------------------ figures


@dataclass
class Figures:
    round_trips: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: Counter[str] = field(default_factory=Counter)
    resent: Counter[str] = field(default_factory=Counter)  # re-sent after a lost connection
    resent_answers: Counter[str] = field(default_factory=Counter)  # how a re-send was answered
    stalls: int = 0  # a client heard nothing for QUIET_TIMEOUT and synced
    missed: int = 0  # ... and the sync found a newer game: a frame it should have had
    answer_timeouts: int = 0
    open_connections: int = 0
    peak_connections: int = 0
    frames_in: int = 0
    frames_out: int = 0

    def opened(self) -> None:
        self.open_connections += 1
        self.peak_connections = max(self.peak_connections, self.open_connections)


@dataclass
class Pending:
    request_id: str
    action: str
    payload: str
    answer: asyncio.Future[dict[str, Any]]
    resent: bool = False


class ScriptError(RuntimeError):
    pass


# ------------------------------------------------------------------------------ one player


class Player:
    """One scripted client: one connection at a time, the latest game it has seen, what it
    wrote."""

    def __init__(
        self,
        name: str,
        url: str,
        rng: random.Random,
        figures: Figures,
        options: argparse.Namespace,
    ) -> None:
        self.name = name
        self.url = url
        self.rng = rng
        self.figures = figures
        self.options = options
        self.player_id: str | None = None
        self.game_id: str | None = None
        self.game: dict[str, Any] | None = None  # the newest version seen
        self.changed = asyncio.Event()
        self.written: dict[int, tuple[str, str, int]] = {}  # turn -> (column, row, score shown)
        self.doubled_rolls = 0
        self._ids = itertools.count(1)
        self._pending: Pending | None = None
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        # A person's answers to the fair-play checks a script's pace brings (sent from the
        # reader, so not awaited there).
        self.checks = FairplayAnswers(self._answer_check)
        self._answers: set[asyncio.Task[None]] = set()

    # ---------------------------------------------------------------------- connection

    async def open(self) -> None:
        started = time.perf_counter()
        ws = await connect(self.url, max_size=2**20, compression=None, open_timeout=30)
        self.figures.round_trips["(connect)"].append((time.perf_counter() - started) * 1000)
        self.figures.opened()
        old_reader = self._reader
        self._ws = ws
        self._reader = asyncio.create_task(self._read(ws))
        if old_reader is not None and not old_reader.done():
            await asyncio.wait({old_reader}, timeout=5)  # the replaced one is closed by the server

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                self.figures.frames_in += 1
                self._on_frame(json.loads(message))
        except ConnectionClosed:
            pass
        finally:
            self.figures.open_connections -= 1

    def _on_frame(self, frame: dict[str, Any]) -> None:
        if "type" not in frame:  # API Gateway's own error frame (a handler failed)
            self.figures.errors[f"gateway: {frame.get('message')}"] += 1
            return
        if self.checks.handled(frame):
            return
        if frame["type"] == "error":
            self.figures.errors[str(frame.get("code"))] += 1
        game = frame.get("game")
        if frame["type"] == "game" and game is not None and game["gameId"] == self.game_id:
            self._see(game)
        pending = self._pending
        if (
            pending is not None
            and frame.get("requestId") == pending.request_id
            and not pending.answer.done()
        ):
            pending.answer.set_result(frame)

    def _see(self, game: dict[str, Any]) -> None:
        if self.game is None or game["version"] > self.game["version"]:
            self.game = game
            self.changed.set()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.wait({self._reader}, timeout=5)

    async def reconnect(self, mode: str) -> None:
        """A lost connection: a new one with the same token, `sync`, then the last unanswered
        action again with its requestId."""
        self.figures.reconnects[mode] += 1
        if mode == "replaced":  # the new connection first: the server closes the old one
            await self.open()
        else:
            await self.close()
            await self.open()
        await self.request("sync", resend_pending=False)
        pending = self._pending
        if pending is not None and not pending.answer.done():
            pending.resent = True
            self.figures.resent[pending.action] += 1
            await self._send(pending.payload)

    # ---------------------------------------------------------------------- requests

    def _answer_check(self, message: dict[str, Any]) -> None:
        self.checks.sent(message)
        task = asyncio.get_running_loop().create_task(self._send(json.dumps(message)))
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    async def _send(self, payload: str) -> None:
        assert self._ws is not None
        with contextlib.suppress(ConnectionClosed):  # lost: the wait for the answer sees to it
            await self._ws.send(payload)
            self.figures.frames_out += 1

    async def request(self, action: str, *, resend_pending: bool = True, **fields: Any) -> Any:
        """Sends an action and returns the frame answering it, through lost connections."""
        request_id = f"{self.name}-{next(self._ids)}"
        message = {"action": action, "requestId": request_id, **fields}
        self.checks.sent(message)
        payload = json.dumps(message)
        loop = asyncio.get_running_loop()
        pending = Pending(request_id, action, payload, loop.create_future())
        outer = self._pending
        self._pending = pending
        started = time.perf_counter()
        try:
            await self._send(payload)
            if resend_pending and self.rng.random() < self.options.reconnect:
                mode = self.rng.choice(("after-send", "replaced"))
                await self.reconnect(mode)  # the answer is probably lost with the socket
                self._pending = pending
            while True:
                try:
                    frame = await asyncio.wait_for(asyncio.shield(pending.answer), ANSWER_TIMEOUT)
                    break
                except TimeoutError:
                    self.figures.answer_timeouts += 1
                    if not resend_pending:
                        raise ScriptError(f"{self.name}: no answer to {action}") from None
                    await self.reconnect("after-timeout")
                    self._pending = pending
        finally:
            self._pending = outer
        if pending.resent:
            self.figures.resent_answers[f"{action}: {frame['type']}"] += 1
        else:
            self.figures.round_trips[action].append((time.perf_counter() - started) * 1000)
        return frame

    async def act(self, action: str, **fields: Any) -> dict[str, Any]:
        """An action that must be applied: the game after it (an `ack`, the answer to a
        re-sent action applied the first time, is followed by a `sync`)."""
        frame = await self.request(action, **fields)
        if frame["type"] == "ack" and self.game_id in (None, frame["gameId"]):
            self.game_id = frame["gameId"]
            await self.sync()
            if self.game is None or self.game["version"] < frame["version"]:
                raise ScriptError(f"{self.name}: {action} acked, the game not seen after it")
            return self.game
        if frame["type"] != "game" or frame.get("game") is None:
            raise ScriptError(f"{self.name}: {action} answered {frame}")
        game: dict[str, Any] = frame["game"]
        if self.game_id is None:
            self.game_id = game["gameId"]
        self._see(game)
        return game

    async def sync(self) -> None:
        frame = await self.request("sync")
        if frame.get("game") is not None:
            self._see(frame["game"])

    # ---------------------------------------------------------------------- playing

    async def play(self) -> None:
        """Plays the player's turns until the game is over."""
        while True:
            game = self.game
            assert game is not None
            if game["status"] != "running":
                return
            turn = game["turn"]
            if turn is None or turn["playerId"] != self.player_id:
                await self._wait_for_news(game["version"])
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.options.think))
            if turn["roll"] == 1 and turn["canRoll"]:
                await self._roll(turn)
            else:
                await self._write(turn)

    async def _wait_for_news(self, version: int) -> None:
        if self.rng.random() < self.options.reconnect:
            await self.reconnect("between-actions")
        deadline = time.monotonic() + QUIET_TIMEOUT
        while self.game is not None and self.game["version"] == version:
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.figures.stalls += 1
                await self.sync()
                if self.game is not None and self.game["version"] > version:
                    self.figures.missed += 1
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    async def _roll(self, turn: dict[str, Any]) -> None:
        keep = sorted(self.rng.sample(range(len(turn["dice"])), self.rng.randint(0, 4)))
        frame = await self.request("roll", gameId=self.game_id, keep=keep, turn=turn["number"])
        if frame["type"] == "game" and frame.get("game") is not None:
            game = frame["game"]
            self._count_rolls(turn, game["turn"])
            self._see(game)
        else:
            await self.sync()  # an ack (the first send was applied) or a refusal: where are we
            assert self.game is not None
            if frame["type"] == "ack":
                self._count_rolls(turn, self.game["turn"])

    def _count_rolls(self, before: dict[str, Any], after: dict[str, Any] | None) -> None:
        """One roll asked for, one roll made: a second one is a doubled move."""
        if after is not None and after["number"] == before["number"]:
            self.doubled_rolls += max(0, after["roll"] - before["roll"] - 1)

    async def _write(self, turn: dict[str, Any]) -> None:
        cell = self.rng.choice(turn["legal"])
        frame = await self.request(
            "write",
            gameId=self.game_id,
            column=cell["column"],
            row=cell["row"],
            turn=turn["number"],
        )
        if frame["type"] in ("game", "ack"):
            if turn["number"] in self.written:
                raise ScriptError(f"{self.name}: turn {turn['number']} written twice")
            self.written[turn["number"]] = (cell["column"], cell["row"], cell["score"])
        if frame["type"] == "game" and frame.get("game") is not None:
            self._see(frame["game"])
        else:
            await self.sync()


# ------------------------------------------------------------------------------ one game


@dataclass
class Outcome:
    number: int
    finished: bool = False
    problems: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    timed_out_cells: int = 0
    seconds: float = 0.0


async def play_game(number: int, players: list[Player]) -> Outcome:
    outcome = Outcome(number)
    started = time.perf_counter()
    creator, joiner = players
    try:
        await asyncio.gather(creator.open(), joiner.open())
        game = await creator.act("create_game", settings=SETTINGS)
        creator.player_id = str(game["creator"])
        joiner.game_id = creator.game_id
        game = await joiner.act("join_game", gameId=creator.game_id)
        joiner.player_id = next(
            seat["playerId"] for seat in game["seats"] if seat["playerId"] != creator.player_id
        )
        game = await creator.act("start_game", gameId=creator.game_id)
        if game["status"] != "running":
            raise ScriptError(f"game {number} did not start: {game['status']}")
        joiner._see(game)  # its broadcast may still be on the way
        await asyncio.gather(creator.play(), joiner.play())
        outcome.finished = True
        _check(outcome, players)
    except Exception as error:  # one game's failure is a figure: the others go on
        outcome.problems.append(f"{type(error).__name__}: {error}")
    finally:
        await asyncio.gather(*(player.close() for player in players), return_exceptions=True)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _check(outcome: Outcome, players: list[Player]) -> None:
    """Each finished sheet against its player's writes: 13 cells, one a turn, as shown."""
    finals = [player.game for player in players]
    final = max((game for game in finals if game is not None), key=lambda game: game["version"])
    if final["status"] != "finished":
        outcome.problems.append(f"status {final['status']}")
    for player in players:
        outcome.doubled += player.doubled_rolls
        sheet = next(sheet for sheet in final["sheets"] if sheet["playerId"] == player.player_id)
        cells = {
            (column, row): score
            for column, rows in sheet["cells"].items()
            for row, score in rows.items()
        }
        wrote = {(column, row): score for column, row, score in player.written.values()}
        if len(player.written) != TURNS_EACH or len(wrote) != TURNS_EACH:
            outcome.problems.append(f"{player.name} wrote {len(player.written)} turns")
        if len(cells) != TURNS_EACH:
            outcome.problems.append(f"{player.name}'s sheet has {len(cells)} cells")
        outcome.lost += len(wrote.keys() - cells.keys())
        # A cell the player did not write: the turn clock's auto-move, or a doubled move.
        extra = len(cells.keys() - wrote.keys())
        outcome.timed_out_cells += extra
        outcome.doubled += max(0, len(cells) - TURNS_EACH)
        changed = [key for key in wrote.keys() & cells.keys() if wrote[key] != cells[key]]
        if changed:
            outcome.problems.append(f"{player.name}: scores differ from those shown at {changed}")


# ------------------------------------------------------------------------------ the stack


class Stack:
    """`python -m devstack --port 0` in a subprocess, its log in a file."""

    def __init__(self, directory: Path) -> None:
        self.state_file = directory / "devstack.json"
        self.log = directory / "devstack.log"
        environment = {**os.environ, STATE_FILE_VARIABLE: str(self.state_file)}
        environment["PYTHONUNBUFFERED"] = "1"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "devstack", "--port", "0"],
                cwd=ROOT,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + UP_WITHIN
        while "  More players" not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("the local stack did not start:\n" + self._tail())
            time.sleep(0.2)
        self.url = json.loads(self.state_file.read_text())["url"]

    def _tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def token(self, name: str) -> str:
        return local_token(name, self.state_file)

    def stop(self) -> float:
        started = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return time.monotonic() - started

    def log_levels(self) -> Counter[str]:
        levels: Counter[str] = Counter()
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    levels[str(json.loads(line).get("level"))] += 1
            elif "Traceback" in line:
                levels["traceback"] += 1
        return levels


# ------------------------------------------------------------------------------ the run


def _percentiles(samples: list[float]) -> str:
    if len(samples) < 2:
        return " ".join(f"{value:.0f}" for value in samples) or "-"
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return f"{cuts[49]:7.0f} {cuts[94]:7.0f} {cuts[98]:7.0f} {max(samples):7.0f}"


async def _run(stack: Stack, options: argparse.Namespace, figures: Figures) -> list[Outcome]:
    rng = random.Random(options.seed)
    names = [
        [f"load{options.seed}-{game}-{seat}" for seat in range(2)] for game in range(options.games)
    ]
    with ThreadPoolExecutor(max_workers=8) as pool:
        flat = [name for pair in names for name in pair]
        tokens = dict(zip(flat, pool.map(stack.token, flat), strict=True))
    games = [
        [
            Player(
                name,
                f"{stack.url}?token={tokens[name]}",
                random.Random(rng.random()),
                figures,
                options,
            )
            for name in pair
        ]
        for pair in names
    ]

    async def bounded(number: int, players: list[Player]) -> Outcome:
        try:
            return await asyncio.wait_for(play_game(number, players), GAME_TIMEOUT)
        except TimeoutError:
            return Outcome(number, problems=[f"not over after {GAME_TIMEOUT:.0f} s"])

    return await asyncio.gather(*(bounded(n, players) for n, players in enumerate(games)))


def _report(  # noqa: PLR0917 - the run's figures, each its own
    options: argparse.Namespace,
    outcomes: list[Outcome],
    figures: Figures,
    seconds: float,
    stop_seconds: float,
    log_levels: Counter[str],
) -> bool:
    finished = sum(outcome.finished and not outcome.problems for outcome in outcomes)
    lost = sum(outcome.lost for outcome in outcomes)
    doubled = sum(outcome.doubled for outcome in outcomes)
    timed_out = sum(outcome.timed_out_cells for outcome in outcomes)
    game_seconds = sorted(outcome.seconds for outcome in outcomes)
    print(f"Load test: {options.games} two-player games at once (free column: 13 turns each)")
    print(
        f"  games finished and checked: {finished}/{options.games} in {seconds:.0f} s "
        f"(a game: median {statistics.median(game_seconds):.0f} s, "
        f"longest {game_seconds[-1]:.0f} s)"
    )
    print(f"  concurrent connections: {figures.peak_connections} at most")
    moves = sum(len(figures.round_trips[kind]) for kind in ("roll", "write"))
    resent = sum(figures.resent.values())
    print(f"  moves lost: {lost}, doubled: {doubled}; cells written by the turn clock: {timed_out}")
    print(
        f"  reconnects: {sum(figures.reconnects.values())} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(figures.reconnects.items()))}); "
        f"actions re-sent: {resent} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(figures.resent_answers.items())) or '-'})"
    )
    print(
        f"  errors by code: {dict(sorted(figures.errors.items())) or 'none'}; "
        f"answers waited for over {ANSWER_TIMEOUT:.0f} s: {figures.answer_timeouts}; "
        f"quiet syncs: {figures.stalls} ({figures.missed} found a newer game)"
    )
    print(
        f"  frames: {figures.frames_out} sent, {figures.frames_in} received; "
        f"{moves / seconds:.1f} moves/s"
    )
    print(f"  stack log: {dict(sorted(log_levels.items()))}; stopped in {stop_seconds:.1f} s")
    print("  round trip (ms)       n     p50     p95     p99     max")
    for kind in ("(connect)", "create_game", "join_game", "start_game", "roll", "write", "sync"):
        samples = figures.round_trips.get(kind, [])
        print(f"    {kind:<14} {len(samples):6d} {_percentiles(samples)}")
    for outcome in outcomes:
        if outcome.problems:
            print(f"  game {outcome.number}: {'; '.join(outcome.problems)}")
    return finished == options.games and lost == 0 and doubled == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="two-player games at once")
    parser.add_argument(
        "--reconnect", type=float, default=0.05, help="chance of a lost connection per action"
    )
    parser.add_argument(
        "--think", type=float, default=0.3, help="mean seconds a player waits before an action"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, help="keep the stack's log in this file")
    options = parser.parse_args()
    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="yamb-load-") as directory:
        print(f"Starting the local stack for {options.games} games ...", flush=True)
        stack = Stack(Path(directory))
        try:
            started = time.perf_counter()
            outcomes = asyncio.run(_run(stack, options, figures))
            seconds = time.perf_counter() - started
        finally:
            stop_seconds = stack.stop()
        ok = _report(options, outcomes, figures, seconds, stop_seconds, stack.log_levels())
        if options.log is not None:
            options.log.write_bytes(stack.log.read_bytes())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
