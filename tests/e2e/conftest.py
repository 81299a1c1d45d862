"""The local stack (embedded AWS, our gateway, the real deadline state machine) for e2e tests,
and a small synchronous WebSocket client that speaks the protocol."""

import itertools
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from devstack.fairplay_answers import FairplayAnswers
from devstack.stack import LocalStack

RECEIVE_TIMEOUT = 10.0


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with LocalStack() as running:
        yield running


class Player:
    """One connected player: sends actions, reads frames until the expected one arrives.

    Like a person at the table, a player answers their own fair-play checks as they come
    (devstack.fairplay_answers): a test that looks at the checks itself sets `answers_checks`
    to False."""

    _request_ids = itertools.count(1)

    def __init__(self, stack: LocalStack, name: str) -> None:
        self.name = name
        self.url = f"{stack.url}?token={stack.player_token(name)}"
        # The id the server knows the player by (the token's subject), once a test reads it.
        self.player_id: str | None = None
        self.socket: ClientConnection = connect(self.url, max_queue=None).__enter__()
        self.answers_checks = True
        self.checks = FairplayAnswers(self._send)

    def reconnect(self) -> None:
        """A new connection with the same token; the previous one is closed first."""
        self.socket.close()
        self.socket = connect(self.url, max_queue=None).__enter__()

    def _send(self, message: dict[str, Any]) -> None:
        self.checks.sent(message)
        self.socket.send(json.dumps(message))

    def send(self, action: str, **fields: Any) -> str:
        request_id = f"{self.name}-{next(self._request_ids)}"
        self._send({"action": action, "requestId": request_id, **fields})
        return request_id

    def _next(self, timeout: float) -> dict[str, Any] | None:
        """The next frame, or None when it was the player's own fair-play business."""
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        if "type" not in frame:  # the gateway's own answer to a failed handler
            raise AssertionError(f"{self.name} got a gateway error: {frame}")
        if self.answers_checks and self.checks.handled(frame):
            return None
        return frame

    def receive(self, frame_type: str, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
        while True:
            frame = self._next(timeout)
            if frame is None:
                continue
            if frame["type"] == "error" and frame_type != "error":
                raise AssertionError(f"{self.name} got an error: {frame}")
            if frame["type"] == frame_type:
                return frame

    def game_at(self, version: int, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
        """The broadcast game state once it has reached `version` (older frames are skipped)."""
        while True:
            game: dict[str, Any] = self.receive("game", timeout)["game"]
            if game["version"] >= version:
                return game

    def game_until(
        self, holds: Callable[[dict[str, Any]], bool], timeout: float = RECEIVE_TIMEOUT
    ) -> dict[str, Any]:
        """The first broadcast game state for which `holds` is true (earlier ones are skipped);
        `timeout` bounds the whole wait."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: no game frame as expected in {timeout} s")
            frame = self.receive("game", remaining)
            if frame.get("game") is not None and holds(frame["game"]):
                return frame["game"]  # type: ignore[no-any-return]

    def answer(self, request_id: str, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
        """The frame answering `request_id` (the frames before it are skipped)."""
        while True:
            frame = self._next(timeout)
            if frame is None or frame.get("requestId") != request_id:
                continue
            if frame["type"] == "error":
                raise AssertionError(f"{self.name} got an error: {frame}")
            return frame

    def act(self, action: str, **fields: Any) -> dict[str, Any]:
        """Sends an action and returns the new game: the answer to it."""
        frame = self.answer(self.send(action, **fields))
        assert frame["type"] == "game", frame
        return frame["game"]  # type: ignore[no-any-return]

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def players(stack: LocalStack) -> Iterator[Any]:
    opened: list[Player] = []

    def open_player(name: str) -> Player:
        player = Player(stack, name)
        opened.append(player)
        return player

    yield open_player
    for player in opened:
        player.close()
