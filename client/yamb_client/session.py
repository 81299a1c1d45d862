"""The connection of `yamb play`: a WebSocket to the game service, frames printed as they come.

A receiver thread reads every frame, keeps what the commands need (the current game and its
legal cells) and prints the frame rendered. Each typed action goes out with a fresh requestId and
the session waits for its answer (and for the game frame that follows an ack) before reading the
next line, so a piped script runs in order: `new`, then `start` on the game just created.

Sign-ins are short (ID tokens last minutes): when the server closes the connection because the
token expired, a session that can get a fresh one (`renew_token`: the local stack's player)
connects again with it and sends the refused action once more; the turn waits for it.
"""

import base64
import binascii
import contextlib
import itertools
import json
import secrets
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self, TextIO
from urllib.parse import quote

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect
from yamb.i18n import Text
from yamb.protocol import (
    Ack,
    DisconnectedFrame,
    ErrorFrame,
    GameDeletedFrame,
    GameFrame,
    GameListFrame,
    GameView,
    ServerFrame,
)

from yamb_client.commands import (
    HELP,
    BadInput,
    CommandContext,
    LocalCommand,
    NoInput,
    SendAction,
    parse_command,
)
from yamb_client.render import NO_GAME, parse_frame, render_frame, render_game
from yamb_client.words import language, say

ANSWER_TIMEOUT = 10.0
PROMPT = "yamb> "
# Acks of these actions are followed by no game frame for the actor.
ACKS_WITHOUT_GAME = frozenset({"delete_game", "leave_game"})


class ConnectError(Exception):
    """The service could not be reached or refused the token."""


def player_id_of(token: str) -> str | None:
    """The `sub` of a JWT (read, not verified: only to tell "you" on screen)."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, binascii.Error):
        return None
    subject = claims.get("sub") if isinstance(claims, dict) else None
    return subject if isinstance(subject, str) else None


def connection_url(url: str, token: str) -> str:
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}token={quote(token, safe='')}"


def _utc_now() -> datetime:
    return datetime.now(UTC)


class PlaySession:
    """One player's connection; `handle` a typed line, `run` many."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        output: TextIO | None = None,
        answer_timeout: float = ANSWER_TIMEOUT,
        now: Callable[[], datetime] = _utc_now,
        prompt_after_news: bool = False,
        renew_token: Callable[[], str] | None = None,
    ) -> None:
        self.url = url
        self.me = player_id_of(token)
        self._token = token
        self._renew_token = renew_token
        self._output = output if output is not None else sys.stdout
        self._answer_timeout = answer_timeout
        self._now = now
        # At a terminal: a frame that arrives while the player types (another player's move, the
        # clock's auto-move) is followed by the prompt again.
        self._prompt_after_news = prompt_after_news
        self._awaiting = False
        self._socket: ClientConnection | None = None
        self._receiver: threading.Thread | None = None
        self._request_numbers = itertools.count(1)
        # Unique across runs: the server makes a game's id from its creator's requestId.
        self._request_prefix = secrets.token_hex(4)
        self._print_lock = threading.Lock()
        self._changed = threading.Condition()
        self._answers: dict[str, ServerFrame] = {}
        self._closing = False
        # The server said the sign-in expired; it closes the connection next.
        self._expired = False
        self.closed = False
        self.game_id: str | None = None
        self.game: GameView | None = None

    # ------------------------------------------------------------------------ connection

    def connect(self) -> Self:
        try:
            self._socket = connect(
                connection_url(self.url, self._token),
                legacy=True,
                # The server says its refusals in the player's language (issue 29).
                additional_headers={"Accept-Language": language()},
            )
        except (OSError, WebSocketException) as error:
            reason = str(error).replace(quote(self._token, safe=""), "<token>")
            raise ConnectError(
                say(Text("cannot connect to {url}: {reason}", url=self.url, reason=reason))
            ) from None
        self._receiver = threading.Thread(target=self._receive, name="yamb-receiver", daemon=True)
        self._receiver.start()
        # The server does not post to a connection during its handshake: ask for our game.
        self._request_once({"action": "sync"}, self._next_request_id())
        return self

    def _sign_in_again(self) -> bool:
        """A new connection with a fresh token in place of the expired one; False (said why)
        when there is none, or it cannot connect."""
        if self._renew_token is None:
            return False
        self.print(say(Text("Your sign-in expired: signing in again.")))
        try:
            token = self._renew_token()
        except Exception as error:  # whatever the token source raises, the player is told
            self.print(say(Text("Could not sign in again: {error}", error=error)))
            return False
        self.close()
        with self._changed:
            self._closing = self._expired = self.closed = False
            self._answers.clear()
        self._token, self.me = token, player_id_of(token)
        try:
            self.connect()
        except ConnectError as error:
            self.print(str(error))
            self.closed = True
            return False
        return not self._expired

    def close(self) -> None:
        self._closing = True
        if self._socket is not None:
            self._socket.close()
        if self._receiver is not None:
            self._receiver.join(timeout=self._answer_timeout)

    def __enter__(self) -> Self:
        return self.connect()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------------ typed lines

    def run(self, lines: Iterable[str]) -> None:
        """Handles lines until `quit`, the end of the input, or the connection's end."""
        for line in lines:
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Carries out one typed line; False when the client should stop."""
        if self.closed:
            self.print(say(Text("The connection is closed.")))
            return False
        command = parse_command(line, self.context())
        match command:
            case NoInput():
                pass
            case BadInput(message=message):
                self.print(message)
            case LocalCommand(name="help"):
                self.print(say(HELP))
            case LocalCommand(name="show"):
                self.show()
            case LocalCommand(name="quit"):
                return False
            case SendAction(action=action):
                self.request(action)
        return not self.closed

    def context(self) -> CommandContext:
        with self._changed:
            game = self.game if self.game_id is not None else None
            turn = game.turn if game is not None else None
            if turn is None:
                return CommandContext(game_id=self.game_id)
            return CommandContext(
                game_id=self.game_id,
                legal=tuple(turn.legal),
                dice_count=len(turn.dice),
                turn=turn.number,
            )

    def show(self) -> None:
        with self._changed:
            game = self.game
        self.print(say(NO_GAME) if game is None else render_game(game, me=self.me, now=self._now()))

    # ------------------------------------------------------------------------ requests

    def request(self, action: dict[str, Any]) -> ServerFrame | None:
        """Sends an action with a fresh requestId; its answer, once the game shows it (None
        when none came in time). Refused for an expired sign-in, the action is sent again, with
        the same requestId, on a connection signed in afresh (when the session can)."""
        request_id = self._next_request_id()
        answer = self._request_once(action, request_id)
        if answer is None and self._expired and self._sign_in_again():
            answer = self._request_once(action, request_id)
        return answer

    def _next_request_id(self) -> str:
        return f"{self._request_prefix}-{next(self._request_numbers)}"

    def _request_once(self, action: dict[str, Any], request_id: str) -> ServerFrame | None:
        if self._socket is None:
            raise RuntimeError("connect() first")
        self._awaiting = True
        try:
            self._socket.send(json.dumps({**action, "requestId": request_id}))
            return self._await_answer(request_id)
        except ConnectionClosed:
            self.print(say(Text("The connection is closed.")))
            return None
        finally:
            self._awaiting = False

    def _await_answer(self, request_id: str) -> ServerFrame | None:
        with self._changed:
            if not self._changed.wait_for(
                lambda: request_id in self._answers or self.closed, self._answer_timeout
            ):
                self.print(
                    say(
                        Text(
                            "No answer from the server within {seconds} s.",
                            seconds=f"{self._answer_timeout:g}",
                        )
                    )
                )
                return None
            answer = self._answers.pop(request_id, None)
            if isinstance(answer, Ack) and answer.action not in ACKS_WITHOUT_GAME:
                # The game frame broadcast after the change follows its ack.
                self._changed.wait_for(
                    lambda: self.closed or self._shows(answer.game_id, answer.version),
                    self._answer_timeout,
                )
            return answer

    def _shows(self, game_id: str, version: int) -> bool:
        return (
            self.game is not None
            and self.game.game_id == game_id
            and (self.game.version >= version)
        )

    # ------------------------------------------------------------------------ receiving

    def _receive(self) -> None:
        assert self._socket is not None
        try:
            for message in self._socket:
                self._on_message(message)
        except ConnectionClosed:
            pass
        finally:
            with self._changed:
                self.closed = True
                self._changed.notify_all()
            if not self._closing and not (self._expired and self._renew_token is not None):
                self.print(say(Text("The server closed the connection.")))

    def _on_message(self, message: str | bytes) -> None:
        try:
            data = json.loads(message)
        except ValueError:
            self.print(
                say(Text("(not JSON from the server: {message})", message=f"{message!r:.200}"))
            )
            return
        frame = parse_frame(data) if isinstance(data, dict) else None
        text = render_frame(data if frame is None else frame, me=self.me, now=self._now())
        if text and self._prompt_after_news and not self._awaiting:
            self.print(f"\n{text}\n{PROMPT}", end="")
        else:
            self.print(text)
        if frame is not None:
            with self._changed:
                self._remember(frame)
                self._changed.notify_all()

    def _remember(self, frame: ServerFrame) -> None:
        """Keeps the current game and the answers awaited (called holding `_changed`)."""
        match frame:
            case GameFrame(game=GameView() as game):
                self.game_id, self.game = game.game_id, game
            case GameFrame(game=None) if frame.request_id is not None:
                self.game_id, self.game = None, None
            case Ack(action="delete_game" | "leave_game") if frame.game_id == self.game_id:
                self.game_id, self.game = None, None
            case Ack():
                self.game_id = frame.game_id
            case GameDeletedFrame() if frame.game_id == self.game_id:
                self.game_id, self.game = None, None
            case DisconnectedFrame(code="session_expired"):
                self._expired = True
        if isinstance(frame, Ack | GameFrame | GameListFrame | ErrorFrame) and frame.request_id:
            self._answers[frame.request_id] = frame

    def print(self, text: str, end: str = "\n") -> None:
        if not text:
            return
        with self._print_lock:
            print(text, file=self._output, end=end, flush=True)


# ------------------------------------------------------------------------------- the terminal


def _typed_lines() -> Iterator[str]:
    with contextlib.suppress(ImportError):  # not on every platform
        import readline  # noqa: F401, PLC0415 - line editing and history for input()
    while True:
        try:
            yield input(PROMPT)
        except EOFError:
            print()
            return
        except KeyboardInterrupt:
            print()
            return


def _echoed_lines(stream: TextIO, session: PlaySession) -> Iterator[str]:
    """A script's lines, each shown as it is carried out."""
    for line in stream:
        session.print(f"{PROMPT}{line.rstrip()}")
        yield line


def play(
    url: str,
    token: str,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    renew_token: Callable[[], str] | None = None,
) -> int:
    """`yamb play`: typed commands from a terminal, or a script from a pipe, until quit or EOF."""
    stdin = stdin if stdin is not None else sys.stdin
    interactive = stdin.isatty()
    session = PlaySession(
        url, token, output=stdout, prompt_after_news=interactive, renew_token=renew_token
    )
    try:
        session.connect()
    except ConnectError as error:
        print(f"yamb play: {error}", file=sys.stderr)
        return 1
    try:
        if interactive:
            session.print(say(Text("Connected. Type `help` for the commands.")))
            session.run(_typed_lines())
        else:
            session.run(_echoed_lines(stdin, session))
    except KeyboardInterrupt:
        session.print("\n" + say(Text("Interrupted.")))
    finally:
        session.close()
    return 0
