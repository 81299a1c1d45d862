"""The game service: one method per event kind (a client action, a connection, a deadline).

Each method reads what it needs, lets `yamb.session.play` decide, writes once with a version
check, then carries out the effects: deadlines, cooldowns, results, and frames to clients.
A write that loses a race is retried on fresh state (the action is checked again), so two
concurrent actions never both apply and none is lost silently.
"""

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from yamb.dice import DiceSource
from yamb.errors import YambError
from yamb.protocol import (
    Ack,
    Announce,
    ClientAction,
    CreateGame,
    DeleteGame,
    DisconnectedFrame,
    EditGame,
    ErrorFrame,
    FinishSheet,
    Frame,
    GameDeletedFrame,
    GameFrame,
    GameListFrame,
    JoinGame,
    LeaveGame,
    ListGames,
    Resign,
    Roll,
    Select,
    StartGame,
    Sync,
    WatchGame,
    Write,
)
from yamb.session import play
from yamb.session.model import GameSession
from yamb.session.play import Effects, GameActionError
from yamb.session.views import game_view
from yamb.settings import validate_settings

from yamb_service.deadlines import DeadlineScheduler
from yamb_service.notifier import Notifier
from yamb_service.observability import MetricUnit, logger, metrics
from yamb_service.repository import (
    GameNotFoundError,
    GameRepository,
    PlayerRepository,
    StaleGameError,
)

SAVE_ATTEMPTS = 3
LISTED_GAMES = 50
# Spectators' connections live in the game item: a bound keeps it small.
MAX_SPECTATORS = 50

type Change = Callable[[GameSession], Effects | None]


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    connection_id: str


def game_id_for(player_id: str, request_id: str) -> str:
    """A game's id from its creator's request: a repeated create finds the same game."""
    return hashlib.sha256(f"{player_id}:{request_id}".encode()).hexdigest()[:20]


class GameService:
    def __init__(
        self,
        *,
        games: GameRepository,
        players: PlayerRepository,
        notifier: Notifier,
        deadlines: DeadlineScheduler,
        dice: DiceSource,
        now: Callable[[], datetime],
    ) -> None:
        self.games = games
        self.players = players
        self.notifier = notifier
        self.deadlines = deadlines
        self.dice = dice
        self.now = now

    # ------------------------------------------------------------------------ client actions

    def handle(self, caller: Caller, action: ClientAction) -> None:
        logger.append_keys(player_id=caller.player_id, action=action.action)
        try:
            self._dispatch(caller, action)
        except YambError as error:
            metrics.add_metric(name="ActionRefused", unit=MetricUnit.Count, value=1)
            self.reply_error(caller.connection_id, error.code, error.message, action.request_id)

    def reply_error(
        self, connection_id: str, code: str, message: str, request_id: str | None = None
    ) -> None:
        self.notifier.send(
            connection_id, ErrorFrame(request_id=request_id, code=code, message=message)
        )

    def _dispatch(self, caller: Caller, action: ClientAction) -> None:
        now = self.now()
        player = caller.player_id
        match action:
            case CreateGame():
                self._create(caller, action)
            case ListGames():
                games = self.games.list_open(LISTED_GAMES)
                self._send(caller, GameListFrame(request_id=action.request_id, games=games))
            case Sync():
                self._sync(caller, action.request_id)
            case JoinGame():
                self._join(caller, action)
            case LeaveGame():
                self._leave(caller, action)
            case EditGame():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.edit(s, player, action.settings, action.player_order),
                )
            case DeleteGame():
                self._delete(caller, action)
            case StartGame():
                self._mutate(
                    caller, action, action.game_id, lambda s: play.start(s, player, now, self.dice)
                )
            case WatchGame():
                self._watch(caller, action)
            case Roll():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.roll(s, player, action.keep, self.dice),
                )
            case Announce():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.announce(s, player, action.column, action.row),
                )
            case Select():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.select(s, player, action.column, action.row),
                )
            case Write():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.write(
                        s, player, action.column, action.row, now=now, dice=self.dice
                    ),
                )
            case Resign():
                self._mutate(
                    caller, action, action.game_id, lambda s: play.resign(s, player, now, self.dice)
                )
            case FinishSheet():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: play.answer_finish_offer(s, player, action.accept, now, self.dice),
                )
            case _:  # pragma: no cover - the union is exhaustive
                raise AssertionError(f"unhandled action {action!r}")

    def _create(self, caller: Caller, action: CreateGame) -> None:
        settings = validate_settings(action.settings)
        game_id = game_id_for(caller.player_id, action.request_id)
        try:
            existing: GameSession | None = self.games.get(game_id)
        except GameNotFoundError:
            existing = None
        if existing is None:
            # A repeat of this request finds its game above: only a new game needs a free player.
            self._require_free(caller.player_id)
            session = play.create(
                game_id, caller.player_id, caller.connection_id, settings, self.now()
            )
            session.remember(caller.player_id, action.request_id, action.action)
            if self.games.create(session, player_games={caller.player_id: game_id}):
                metrics.add_metric(name="GameCreated", unit=MetricUnit.Count, value=1)
                self._ack(caller, action, game_id, session.version)
                self._broadcast(session)
                return
            existing = self.games.get(game_id)  # the same request, concurrently
        # The same request again: the same answer, and nothing else.
        recalled = existing.recalled(caller.player_id, action.request_id)
        self._ack(caller, action, game_id, recalled.version if recalled else existing.version)

    def _require_free(self, player_id: str) -> None:
        record = self.players.get(player_id)
        now = self.now()
        if record.blocked_until is not None and record.blocked_until > now:
            raise GameActionError(
                f"you left a game: joining is blocked until {record.blocked_until:%H:%M} UTC",
                code="cooldown",
            )
        if record.game_id is None:
            return
        try:
            current = self.games.get(record.game_id)
        except GameNotFoundError:
            return
        seat = current.seat_of(player_id)
        if (
            current.status in ("waiting", "running")
            and seat is not None
            and not current.seats[seat].left
        ):
            raise GameActionError(
                f"you already play in game {current.game_id}", code="already_in_game"
            )

    def _join(self, caller: Caller, action: JoinGame) -> None:
        session = self.games.get(action.game_id)
        if session.recalled(caller.player_id, action.request_id) is None:
            self._require_free(caller.player_id)
        self._mutate(
            caller,
            action,
            action.game_id,
            lambda s: play.join(s, caller.player_id, caller.connection_id),
        )

    def _leave(self, caller: Caller, action: LeaveGame) -> None:
        emptied: list[bool] = []

        def change(session: GameSession) -> Effects:
            emptied[:] = [play.leave_waiting(session, caller.player_id)]
            return Effects(player_games={caller.player_id: None})

        session = self._mutate(caller, action, action.game_id, change)
        if session is not None and emptied == [True]:
            self.games.delete(session)

    def _delete(self, caller: Caller, action: DeleteGame) -> None:
        session = self.games.get(action.game_id)
        play.check_delete(session, caller.player_id)
        self.games.delete(session)
        for seat in session.seats:
            self.players.set_game(seat.player_id, None)
            if seat.connection_id is not None:
                self.notifier.send(seat.connection_id, GameDeletedFrame(game_id=session.game_id))
        self._ack(caller, action, session.game_id, session.version)

    def _watch(self, caller: Caller, action: WatchGame) -> None:
        def change(session: GameSession) -> None:
            if session.seat_of(caller.player_id) is not None:
                raise GameActionError("players do not watch their own game", code="already_seated")
            if caller.connection_id in session.spectators:
                return
            if len(session.spectators) >= MAX_SPECTATORS:
                raise GameActionError("this game has as many spectators as it takes", code="full")
            session.spectators.append(caller.connection_id)

        self._mutate(caller, action, action.game_id, change)

    def _sync(self, caller: Caller, request_id: str) -> None:
        record = self.players.get(caller.player_id)
        session = None
        if record.game_id is not None:
            try:
                session = self.games.get(record.game_id)
            except GameNotFoundError:
                session = None
        view = game_view(session) if session is not None else None
        self._send(caller, GameFrame(request_id=request_id, game=view))

    # ------------------------------------------------------------------------ connections

    def connect(self, caller: Caller) -> None:
        """A new connection replaces the player's previous one, which is told why and closed;
        a player back in a running game returns to it."""
        replaced = self.players.bind_connection(caller.player_id, caller.connection_id)
        if replaced is not None:
            self.notifier.send(replaced, DisconnectedFrame(reason="replaced by a newer connection"))
            self.notifier.close(replaced)
            metrics.add_metric(name="ConnectionReplaced", unit=MetricUnit.Count, value=1)
        record = self.players.get(caller.player_id)
        if record.game_id is None:
            return
        now = self.now()
        # An ended game's item expires (TTL) while the player still points at it.
        with contextlib.suppress(GameNotFoundError):
            self._apply(
                record.game_id,
                lambda s: play.reconnect(s, caller.player_id, caller.connection_id, now, self.dice),
                # $connect cannot post to its own connection: the client sends sync once open.
                skip=caller.connection_id,
            )

    def disconnect(self, caller: Caller) -> None:
        if not self.players.unbind_connection(caller.player_id, caller.connection_id):
            return  # a newer connection took over: nothing is lost
        record = self.players.get(caller.player_id)
        if record.game_id is None:
            return
        now = self.now()
        with contextlib.suppress(GameNotFoundError):  # an ended game's item expired (TTL)
            self._apply(record.game_id, lambda s: play.disconnect(s, caller.player_id, now))

    # ------------------------------------------------------------------------ deadlines

    def deadline(self, kind: str, game_id: str, turn: int, version: int, player_id: str) -> bool:
        """A deadline reached; False when it no longer applies (the turn it guards is over)."""
        now = self.now()

        def change(session: GameSession) -> Effects | None:
            if kind == "turn":
                return play.expire_turn(session, turn, version, now, self.dice)
            return play.expire_return(session, player_id, version, now, self.dice)

        applied = self._apply(game_id, change) is not None
        if applied:
            name = "TurnTimedOut" if kind == "turn" else "ReturnTimedOut"
            metrics.add_metric(name=name, unit=MetricUnit.Count, value=1)
        return applied

    # ------------------------------------------------------------------------ the write path

    def _mutate(
        self, caller: Caller, action: Any, game_id: str, change: Callable[[GameSession], Any]
    ) -> GameSession | None:
        """A client's change: idempotent on its requestId, answered with an ack."""
        player, request_id = caller.player_id, action.request_id
        recalled: list[int] = []

        def guarded(session: GameSession) -> Effects | None:
            previous = session.recalled(player, request_id)
            if previous is not None:
                recalled.append(previous.version)
                return None
            result = change(session)
            session.remember(player, request_id, action.action)
            return result if isinstance(result, Effects) else Effects()

        def acknowledge(saved: GameSession) -> None:
            self._ack(caller, action, game_id, saved.version)

        session = self._apply(game_id, guarded, on_saved=acknowledge)
        if recalled:
            self._ack(caller, action, game_id, recalled[0])
            return None
        metrics.add_metric(name="ActionApplied", unit=MetricUnit.Count, value=1)
        return session

    def _apply(
        self,
        game_id: str,
        change: Callable[[GameSession], Effects | None],
        *,
        skip: str | None = None,
        on_saved: Callable[[GameSession], None] | None = None,
        broadcast: bool = True,
    ) -> GameSession | None:
        """Read, change, write on the version; on a lost race, again on fresh state. None when
        the change declined (stale deadline, repeated request)."""
        for attempt in range(1, SAVE_ATTEMPTS + 1):
            session = self.games.get(game_id)
            logger.append_keys(game_id=game_id)
            effects = change(session)
            if effects is None:
                return None
            # Deadlines start before the write: each guards the version this write stores, so
            # one whose write loses does nothing, and none is lost if the function dies here.
            for deadline in effects.deadlines:
                self.deadlines.schedule(deadline)
            result = _result(session) if effects.ended and play.records_result(session) else None
            try:
                self.games.save(session, player_games=effects.player_games, result=result)
            except StaleGameError:
                metrics.add_metric(name="WriteConflict", unit=MetricUnit.Count, value=1)
                if attempt == SAVE_ATTEMPTS:
                    raise
                continue
            if on_saved is not None:
                on_saved(session)  # the actor's answer comes before the broadcast
            self._carry_out(effects)
            if broadcast:
                self._broadcast(session, skip=skip)
            return session
        return None  # pragma: no cover

    def _carry_out(self, effects: Effects) -> None:
        for player_id in effects.disappeared:
            self.players.record_disappearance(player_id, self.now())
            metrics.add_metric(name="PlayerDisappeared", unit=MetricUnit.Count, value=1)
        if effects.ended:
            metrics.add_metric(name="GameEnded", unit=MetricUnit.Count, value=1)

    # ------------------------------------------------------------------------ sending

    def _ack(self, caller: Caller, action: Any, game_id: str, version: int) -> None:
        ack = Ack(
            request_id=action.request_id, action=action.action, game_id=game_id, version=version
        )
        self._send(caller, ack)

    def _send(self, caller: Caller, frame: Frame) -> None:
        if not self.notifier.send(caller.connection_id, frame):
            self.players.unbind_connection(caller.player_id, caller.connection_id)

    def _broadcast(self, session: GameSession, *, skip: str | None = None) -> None:
        frame = GameFrame(game=game_view(session))
        for seat in session.seats:
            connection = seat.connection_id
            if connection is None or connection == skip or seat.left or not seat.present:
                continue
            if not self.notifier.send(connection, frame):
                self.players.unbind_connection(seat.player_id, connection)
        gone = [
            connection
            for connection in session.spectators
            if connection != skip and not self.notifier.send(connection, frame)
        ]
        if gone:
            self._forget_spectators(session.game_id, gone)

    def _forget_spectators(self, game_id: str, gone: list[str]) -> None:
        def change(session: GameSession) -> Effects:
            session.spectators = [c for c in session.spectators if c not in gone]
            return Effects()

        with contextlib.suppress(StaleGameError, GameNotFoundError):
            self._apply(game_id, change, broadcast=False)


def _result(session: GameSession) -> dict[str, Any]:
    game = session.game()
    return {
        "gameId": session.game_id,
        "settings": session.settings.model_dump(mode="json"),
        "endedAt": session.ended_at.isoformat() if session.ended_at else None,
        "winners": session.winners,
        "players": [
            {
                "playerId": player_id,
                "total": sheet.total(),
                "full": sheet.is_full(),
                "left": seat.left,
                "turns": game.turns_played[index],
            }
            for index, (player_id, sheet, seat) in enumerate(
                zip(game.players, game.sheets, session.seats, strict=True)
            )
        ],
    }
