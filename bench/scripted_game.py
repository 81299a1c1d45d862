"""Whole games played to the end on the local stack by scripted clients, over real WebSockets.

Every turn is met in time: the player in turn waits a few seconds (the local clock is moved on),
rolls once keeping the dice of their most common face, waits again and writes the first legal
cell. A turn whose only legal cells are written at roll 1 (Manual, and Announced without an
announcement) is played as a player would: the Announced cell announced after roll 1, then the
roll and the write; a Manual cell written at roll 1 without a roll.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import ClientConnection, connect

from devstack.fairplay_answers import FairplayAnswers

RECEIVE_TIMEOUT = 20.0
# Local-clock seconds a player takes before each action of a turn: ~15 s a turn.
THINK_SECONDS = {"roll": 7.0, "write": 8.0, "announce": 3.0, "announce_roll": 5.0}
ROLL_ONE_ONLY = ("manual",)
ANNOUNCED = ("announced",)


class ScriptError(RuntimeError):
    pass


class Client:
    """One connected player: sends actions and reads the frames that answer them; answers its
    fair-play checks as a person would (devstack.fairplay_answers)."""

    _request_ids = itertools.count(1)

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        self.player_id: str | None = None
        self.socket: ClientConnection = connect(url, max_size=2**20)
        self.checks = FairplayAnswers(self._send)

    def _send(self, message: dict[str, Any]) -> None:
        self.checks.sent(message)
        self.socket.send(json.dumps(message))

    def send(self, action: str, **fields: Any) -> str:
        request_id = f"{self.name}-{next(self._request_ids)}"
        self._send({"action": action, "requestId": request_id, **fields})
        return request_id

    def _frame(self, timeout: float) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
            if "type" in frame and self.checks.handled(frame):
                continue
            if "type" not in frame or frame["type"] == "error":
                raise ScriptError(f"{self.name} got {frame}")
            return frame

    def answer(self, request_id: str) -> dict[str, Any]:
        """The game this player's request produced (the frames before its answer skipped)."""
        while True:
            frame = self._frame(RECEIVE_TIMEOUT)
            if frame.get("requestId") == request_id:
                if frame["type"] != "game" or frame.get("game") is None:
                    raise ScriptError(f"{self.name}: unexpected answer {frame}")
                game: dict[str, Any] = frame["game"]
                return game

    def act(self, action: str, **fields: Any) -> dict[str, Any]:
        return self.answer(self.send(action, **fields))

    def seen(self, version: int) -> dict[str, Any]:
        """The broadcast game once it reached `version`."""
        while True:
            frame = self._frame(RECEIVE_TIMEOUT)
            game = frame.get("game")
            if frame["type"] == "game" and game is not None and game["version"] >= version:
                return dict(game)

    def close(self) -> None:
        self.socket.close()


@dataclass
class Played:
    game_id: str
    players: int
    preset: int
    turns: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    final: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0  # real time the game took here


def _most_common_face(dice: list[int]) -> list[int]:
    face, _ = Counter(dice).most_common(1)[0]
    return [position for position, value in enumerate(dice) if value == face]


def play_game(stack: Any, players: int, preset: int, prefix: str) -> Played:
    """A `players`-player game of `preset` with a 60 s turn clock, from the connections to the
    last write; the sockets are closed at the end (their $disconnect runs)."""
    started = time.perf_counter()
    names = [f"{prefix}{seat}" for seat in range(players)]
    for name in names:  # presets 3-7 are premium's
        stack.grant_premium(name)
    clients = [Client(f"{stack.url}?token={stack.player_token(name)}", name) for name in names]
    by_id: dict[str, Client] = {}
    try:
        creator, *joiners = clients
        settings = {"players": players, "preset": preset, "turnSeconds": 60}
        game = creator.act("create_game", settings=settings)
        played = Played(game["gameId"], players, preset)
        played.actions["create_game"] += 1
        creator.player_id = str(game["creator"])
        by_id[creator.player_id] = creator
        seated = [creator]  # who reads the game's broadcasts
        for joiner in joiners:
            stack.aws.advance(seconds=5)
            seated.append(joiner)
            game = _act(seated, joiner, "join_game", played, gameId=played.game_id)
            joined = {seat["playerId"] for seat in game["seats"]} - set(by_id)
            joiner.player_id = joined.pop()
            by_id[joiner.player_id] = joiner
        stack.aws.advance(seconds=5)
        game = _act(clients, creator, "start_game", played, gameId=played.game_id)
        while game["status"] == "running":
            game = _play_turn(stack, clients, by_id[game["turn"]["playerId"]], game, played)
            played.turns += 1
        played.final = game
    finally:
        for client in clients:
            client.close()
    played.seconds = time.perf_counter() - started
    return played


def _act(
    clients: list[Client], actor: Client, action: str, played: Played, **fields: Any
) -> dict[str, Any]:
    """`actor` acts; every other player at the table reads the game it broadcast."""
    game = actor.act(action, **fields)
    played.actions[action] += 1
    for client in clients:
        if client is not actor:
            client.seen(game["version"])
    return game


def _play_turn(
    stack: Any, clients: list[Client], mover: Client, game: dict[str, Any], played: Played
) -> dict[str, Any]:
    game_id = game["gameId"]
    legal = game["turn"]["legal"]
    if not legal:
        raise ScriptError(f"no legal cell at the start of turn {game['turn']}")
    columns = {cell["column"] for cell in legal}
    if columns <= set(ROLL_ONE_ONLY):
        stack.aws.advance(seconds=sum(THINK_SECONDS[k] for k in ("roll", "write")))
        cell = legal[0]
    else:
        if columns <= {*ROLL_ONE_ONLY, *ANNOUNCED}:
            announced = next(cell for cell in legal if cell["column"] in ANNOUNCED)
            stack.aws.advance(seconds=THINK_SECONDS["announce"])
            game = _act(
                clients,
                mover,
                "announce",
                played,
                gameId=game_id,
                column=announced["column"],
                row=announced["row"],
            )
            stack.aws.advance(seconds=THINK_SECONDS["announce_roll"])
        else:
            stack.aws.advance(seconds=THINK_SECONDS["roll"])
        if game["turn"]["canRoll"]:
            keep = _most_common_face(game["turn"]["dice"])
            game = _act(clients, mover, "roll", played, gameId=game_id, keep=keep)
        if not game["turn"]["legal"]:
            raise ScriptError(f"no legal cell after the roll: {game['turn']}")
        cell = game["turn"]["legal"][0]
        stack.aws.advance(seconds=THINK_SECONDS["write"])
    return _act(
        clients, mover, "write", played, gameId=game_id, column=cell["column"], row=cell["row"]
    )


def roll_round_trip_ms(stack: Any, rounds: int = 20) -> list[float]:
    """A solo game without a clock: the time from sending `roll` to its answer, each round."""
    stack.grant_premium("bench-roller")  # preset 7 is premium's
    client = Client(f"{stack.url}?token={stack.player_token('bench-roller')}", "roller")
    samples: list[float] = []
    try:
        settings = {"players": 1, "preset": 7, "turnSeconds": None}
        game = client.act("create_game", settings=settings)
        game_id = game["gameId"]
        game = client.act("start_game", gameId=game_id)
        for _ in range(rounds):
            started = time.perf_counter()
            game = client.act("roll", gameId=game_id, keep=[])
            samples.append((time.perf_counter() - started) * 1000)
            cell = game["turn"]["legal"][0]
            game = client.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    finally:
        client.close()
    return samples
