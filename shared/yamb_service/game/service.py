"""The game service: one method per event kind (a client action, a connection, a timer).

Each reads what it needs, lets `yamb.session` decide, and writes through the GameWriter (one
conditional write, retried on fresh state after a lost race, with the game's timers planned
around it); then it answers the actor with the new game and sends it to everyone at the table.
"""

import hashlib
import time
from collections.abc import Callable
from datetime import datetime

from yamb import bots, chat
from yamb.dice import DiceSource
from yamb.errors import ErrorCode, InvalidSettingsError, YambError
from yamb.protocol import (
    Ack,
    AddBot,
    AddSeed,
    Announce,
    Chat,
    ChatFrame,
    ClientAction,
    CorrectedTurn,
    CorrectTurn,
    CreateGame,
    DeleteGame,
    DiceRecordFrame,
    DisconnectedFrame,
    EditGame,
    EnterDice,
    ErrorFrame,
    FinishSheet,
    GameDeletedFrame,
    GameFrame,
    GameListFrame,
    Hint,
    HintFrame,
    History,
    HistoryFrame,
    JoinGame,
    LeaveGame,
    ListGames,
    Lock,
    RemoveBot,
    Replay,
    Resign,
    Roll,
    Select,
    StartGame,
    Sync,
    Verify,
    WatchGame,
    Write,
    clip,
)
from yamb.session import bot_seats, hints, leaving, lobby, presence, scorekeeping, turns
from yamb.session.deadlines import apply_due
from yamb.session.effects import Effects, GameActionError
from yamb.session.model import GameSession, Looks, action_fingerprint
from yamb.session.replays import header_of, replay_frames
from yamb.session.slow import FREE_SLOW_GAMES, PREMIUM_SLOW_GAMES
from yamb.session.views import dice_record, game_view
from yamb.settings import GameSettings, premium_only, validate_settings

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.edge.notifier import Notifier
from yamb_service.game.delivery import Delivery, spectator_shows
from yamb_service.game.ports import (
    GameExistsError,
    GameNotFoundError,
    GameRepository,
    NoWardrobes,
    PlayerRepository,
    SeatTakenError,
    ServiceBusyError,
    StaleGameError,
    Timers,
    Wardrobes,
)
from yamb_service.game.throttle import ConnectionThrottle
from yamb_service.game.timers import LaneInput, lane_input
from yamb_service.game.writer import Applied, GameWriter

LISTED_GAMES = 50
# Connections come and go in bursts (a whole table reconnecting): more tries before giving up.
PRESENCE_ATTEMPTS = 8
SESSION_EXPIRED = "your sign-in has expired: connect again with a fresh token"
SLOW_DOWN = "too many frames: this one and the next ones this second are not applied; slow down"
INTERNAL_ERROR = (
    "the server failed to answer this action; sending it again with the same requestId is safe"
)
# Spectators' connections live in the game item: a bound keeps it small.
MAX_SPECTATORS = 50

type ActionChange = Callable[[GameSession], Effects | None]


def game_id_for(player_id: str, request_id: str) -> str:
    """A game's id from its creator's request: a repeated create finds the same game."""
    return hashlib.sha256(f"{player_id}:{request_id}".encode()).hexdigest()[:20]


def _fingerprint(action: ClientAction) -> str:
    return action_fingerprint(action.model_dump_json(exclude={"request_id"}))


def _changes(changed: bool) -> Effects | None:
    return Effects() if changed else None


def _seated_bot(bot_id: str) -> Effects:
    """A bot sat down: the table changed, no player record did (a bot has none)."""
    del bot_id
    return Effects()


class GameService:
    def __init__(
        self,
        *,
        games: GameRepository,
        players: PlayerRepository,
        notifier: Notifier,
        timers: Timers,
        dice: DiceSource,
        now: Callable[[], datetime],
        throttle: ConnectionThrottle,
        wall_time: Callable[[], float] = time.time,
        wardrobes: Wardrobes | None = None,
    ) -> None:
        self.throttle = throttle
        # What a player shows at the table (E5), read when they sit down.
        self.wardrobes: Wardrobes = wardrobes or NoWardrobes()
        # A sign-in expires on the wall clock, as the authorizer that checked it measures it;
        # `now` is the game's clock, which the local stack moves forward to run out deadlines.
        self.wall_time = wall_time
        self.games = games
        self.players = players
        self.notifier = notifier
        self.timers = timers
        self.dice = dice
        self.now = now
        self.writer = GameWriter(games, players, timers, dice)
        self.delivery = Delivery(notifier, players)

    # ------------------------------------------------------------------------ client actions

    def handle(self, caller: Caller, action: ClientAction) -> None:
        """One client action, answered whatever happens: applied, refused with its code, or
        failed (`internal`, logged with its stack): repeating it with the same requestId is
        safe in every case."""
        logger.append_keys(
            player_id=caller.player_id, action=action.action, request_id=action.request_id
        )
        now = self.now()
        if caller.expires_at is not None and caller.expires_at <= self.wall_time():
            self._session_expired(caller)
            return
        verdict = self.throttle.check(caller.connection_id)
        if verdict != "allow":
            metrics.add_metric(name="FrameThrottled", unit=MetricUnit.Count, value=1)
            if verdict == "warn":
                self.reply_error(caller.connection_id, "slow_down", SLOW_DOWN, action.request_id)
            return
        try:
            self._dispatch(caller, action, now)
        except YambError as error:
            metrics.add_metric(name="ActionRefused", unit=MetricUnit.Count, value=1)
            logger.info("action refused", code=error.code)
            self.reply_error(
                caller.connection_id,
                error.code,
                error.message,
                action.request_id,
                fields=error.fields,
            )
        except Exception:
            metrics.add_metric(name="ActionFailed", unit=MetricUnit.Count, value=1)
            logger.exception("action failed")
            self.reply_error(caller.connection_id, "internal", INTERNAL_ERROR, action.request_id)

    def _session_expired(self, caller: Caller) -> None:
        """The token the connection was opened with has expired: a signed-out, disabled or
        deleted account loses its connection within its token's lifetime."""
        metrics.add_metric(name="SessionExpired", unit=MetricUnit.Count, value=1)
        logger.info("session expired")
        self.notifier.send(
            caller.connection_id, DisconnectedFrame(code="session_expired", reason=SESSION_EXPIRED)
        )
        self.notifier.close(caller.connection_id)

    def reply_error(
        self,
        connection_id: str,
        code: ErrorCode,
        message: str,
        request_id: str | None = None,
        *,
        fields: tuple[str, ...] = (),
    ) -> None:
        frame = ErrorFrame(
            request_id=request_id,
            code=code,
            message=clip(message),
            fields=[clip(name, 40) for name in fields[:20]] or None,
        )
        try:
            self.notifier.send(connection_id, frame)
        except Exception:  # the refusal is logged; nothing else can be done for the client
            logger.exception("error frame not delivered", code=code)

    def _dispatch(self, caller: Caller, action: ClientAction, now: datetime) -> None:
        player = caller.player_id
        dice = self.dice
        match action:
            case CreateGame():
                self._create(caller, action, now)
            case ListGames():
                self._list_games(caller, action)
            case Sync():
                self._sync(caller, action.request_id, action.game_id)
            case JoinGame():
                self._join(caller, action, now)
            case LeaveGame():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: lobby.leave_waiting(s, player, now),
                    now,
                )
            case EditGame():
                self._edit(caller, action, now)
            case DeleteGame():
                self._mutate(
                    caller, action, action.game_id, lambda s: lobby.delete(s, player, now), now
                )
            case StartGame():
                self._mutate(
                    caller, action, action.game_id, lambda s: lobby.start(s, player, now, dice), now
                )
            case WatchGame():
                self._watch(caller, action, now)
            case Lock():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.lock(s, player, action.keep, action.turn),
                    now,
                )
            case Roll():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.roll(s, player, action.keep, action.turn, dice),
                    now,
                )
            case Announce():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.announce(s, player, action.column, action.row, action.turn),
                    now,
                )
            case Select():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.select(s, player, action.column, action.row, action.turn),
                    now,
                )
            case Write():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.write(
                        s, player, action.column, action.row, action.turn, now=now, dice=dice
                    ),
                    now,
                )
            case Resign():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: leaving.resign(s, player, now, dice),
                    now,
                )
            case FinishSheet():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: leaving.answer_finish_offer(s, player, action.accept, now, dice),
                    now,
                )
            case AddSeed():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: lobby.add_seed(s, player, action.seed),
                    now,
                )
            case Verify() | History() | Replay() | Hint():
                self._read(caller, action)
            case Chat():
                self._chat(caller, action, now)
            case EnterDice():
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: turns.enter_dice(s, player, action.dice, action.turn),
                    now,
                )
            case CorrectTurn():
                corrected = action.turn.model_dump(exclude_none=True)
                self._mutate(
                    caller,
                    action,
                    action.game_id,
                    lambda s: scorekeeping.correct(s, player, action.line, corrected, now),
                    now,
                )
            case AddBot() | RemoveBot():
                self._seat_bots(caller, action, now)
            case _:  # pragma: no cover - the union is exhaustive
                raise AssertionError(f"unhandled action {action!r}")

    def _list_games(self, caller: Caller, action: ListGames) -> None:
        games = self.games.list_open(LISTED_GAMES)
        self.delivery.send(caller, GameListFrame(request_id=action.request_id, games=games))

    def _seat_bots(self, caller: Caller, action: AddBot | RemoveBot, now: datetime) -> None:
        player = caller.player_id
        if isinstance(action, AddBot):
            level = action.level
            self._mutate(
                caller,
                action,
                action.game_id,
                lambda s: _seated_bot(bot_seats.add_bot(s, player, level)),
                now,
            )
        else:
            bot_id = action.player_id
            self._mutate(
                caller,
                action,
                action.game_id,
                lambda s: bot_seats.remove_bot(s, player, bot_id),
                now,
            )

    def _hint(self, caller: Caller, action: Hint) -> None:
        """The strongest bot's advice to a player practising alone (no write)."""
        session = self.games.load(action.game_id).session
        level, game, move = hints.hint(session, caller.player_id, action.turn)
        layout = game.layout
        frame = HintFrame(
            request_id=action.request_id, game_id=session.game_id, level=level, move="roll"
        )
        match move:
            case bots.RollMove(keep=keep):
                frame = frame.model_copy(update={"keep": sorted(keep)})
            case bots.AnnounceMove(column=column, row=row) | bots.WriteMove(column=column, row=row):
                frame = frame.model_copy(
                    update={
                        "move": "announce" if isinstance(move, bots.AnnounceMove) else "write",
                        "column": layout.columns[column].id,
                        "row": layout.grid.rows[row].id,
                    }
                )
        metrics.add_metric(name="HintGiven", unit=MetricUnit.Count, value=1)
        self.delivery.send(caller, frame)

    def _replay(self, caller: Caller, action: Replay) -> None:
        """An ended game turn by turn, from its record; once the game item has expired, from
        the record's own items, which keep the replay header."""
        try:
            session: GameSession | None = self.games.load(action.game_id).session
        except GameNotFoundError:
            session = None
        if session is None:
            archived = self.games.archived_record(action.game_id)
            if archived.header is None:
                raise GameNotFoundError(f"no game {action.game_id}")
            header, lines = archived.header, archived.turns
        else:
            if session.in_play or session.status == "deleted":
                raise GameActionError(
                    "a game replays once it has been played to its end", code="wrong_status"
                )
            if session.fair is None:
                raise GameActionError(
                    "this game keeps no record of its turns (a scorekeeping table's turns are "
                    "in its history)",
                    code="not_allowed",
                )
            archived_turns = (
                self.games.archived_record(session.game_id).turns
                if session.fair.archived_chunks
                else []
            )
            header, lines = header_of(session), [*archived_turns, *session.fair.turns]
        for frame in replay_frames(header, lines, action.request_id):
            self.delivery.send(caller, frame)

    def _chat(self, caller: Caller, action: Chat, now: datetime) -> None:
        """A chat message to everyone at the table: checked, counted against the sender's
        connection, then sent; the game item is not written."""
        text = chat.validate_message(action.text)
        loaded = self.games.load(action.game_id)
        session = loaded.session
        seat = session.seat_of(caller.player_id)
        watching = caller.connection_id in loaded.spectators
        if seat is None and not watching:
            raise GameActionError("sit at this game or watch it to chat", code="not_seated")
        if seat is not None and session.seats[seat].left:
            raise GameActionError("you have left this game", code="not_seated")
        rate, version = self.games.chat_rate(caller.connection_id)
        rate.check(now)
        rate.record(now)
        if not self.games.save_chat_rate(caller.connection_id, rate, version, now):
            raise chat.ChatRefused(
                "another message of yours was being sent: wait a second", code="chat_too_fast"
            )
        metrics.add_metric(name="ChatSent", unit=MetricUnit.Count, value=1)
        message = ChatFrame(
            game_id=session.game_id,
            sender=caller.player_id,
            nickname=caller.nickname,
            spectator=seat is None,
            text=text,
            sent_at=now,
        )
        self.delivery.send(caller, message.model_copy(update={"request_id": action.request_id}))
        for held in session.seats:
            if held.connection_id not in (None, caller.connection_id) and held.present:
                self.delivery.send(Caller(held.player_id, held.connection_id), message)
        gone = [
            connection
            for connection in loaded.spectators
            if connection != caller.connection_id and not self.delivery.deliver(connection, message)
        ]
        if gone:
            self.games.forget_spectators(session.game_id, gone)

    def _read(self, caller: Caller, action: Verify | History | Replay | Hint) -> None:
        """The read-only answers about one game: its dice record, a scorekeeping history, its
        replay, a hint."""
        if isinstance(action, Replay):
            self._replay(caller, action)
            return
        if isinstance(action, Hint):
            self._hint(caller, action)
            return
        session = self.games.load(action.game_id).session
        frame: DiceRecordFrame | HistoryFrame
        if isinstance(action, Verify):
            archived = (
                self.games.archived_record(session.game_id).turns
                if session.fair is not None and session.fair.archived_chunks and not session.in_play
                else []
            )
            frame = dice_record(session, action.request_id, archived)
        else:
            page = scorekeeping.history_page(session, action.start)
            frame = HistoryFrame(
                request_id=action.request_id,
                game_id=session.game_id,
                start=action.start,
                total=len(session.history),
                turns=[CorrectedTurn.model_validate(line) for line in page],
            )
        self.delivery.send(caller, frame)

    def _create(self, caller: Caller, action: CreateGame, now: datetime) -> None:
        settings = validate_settings(action.settings)
        self._require_account_for(caller.player_id, settings, now)
        game_id = game_id_for(caller.player_id, action.request_id)
        fingerprint = _fingerprint(action)
        session = lobby.create(
            game_id,
            caller.player_id,
            caller.connection_id,
            settings,
            now,
            server_seed=self.dice.seed(),
            nickname=caller.nickname,
            looks=self._looks(caller.player_id, now),
        )
        session.remember(caller.player_id, action.request_id, fingerprint)
        for attempt in (1, 2):
            try:
                self.games.create(session, players={caller.player_id: "seat"}, now=now)
            except GameExistsError:
                # The same request again (or at the same time): the same answer, nothing else.
                existing = self.games.load(game_id).session
                self._answer_repeat(caller, action, existing, fingerprint)
                return
            except SeatTakenError:
                slow = settings.turn_type == "slow"
                if attempt == 2 or not self._freed_stale_seat(caller.player_id, now, slow=slow):
                    raise
                continue
            break
        metrics.add_metric(name="GameCreated", unit=MetricUnit.Count, value=1)
        self.delivery.broadcast(session, [], now=self.now(), answer=(caller, action))

    def _join(self, caller: Caller, action: JoinGame, now: datetime) -> None:
        player = caller.player_id
        looks = self._looks(player, now)

        def join(session: GameSession) -> Effects:
            if self._premium_needed(player, session.settings, now):
                raise GameActionError(
                    "this table's columns need premium (a free account plays presets 1 and 2, "
                    "or up to 3 columns of the types down, up and free)",
                    code="premium_required",
                )
            return lobby.join(session, player, caller.connection_id, caller.nickname, looks)

        self._mutate(caller, action, action.game_id, join, now)

    def _edit(self, caller: Caller, action: EditGame, now: datetime) -> None:
        player = caller.player_id
        settings = None if action.settings is None else validate_settings(action.settings)
        if settings is not None:
            self._require_account_for(player, settings, now)

        def edit(session: GameSession) -> None:
            lobby.edit(session, player, action.settings, action.player_order)
            if settings is None:
                return
            bot_seats.check_settings_for_bots(session, settings)
            # Whoever sits already plays the new columns too (a refusal writes nothing).
            for seat in session.seats:
                if seat.bot is not None or seat.player_id == player:
                    continue  # a bot plays any columns; the creator was checked
                if self._premium_needed(seat.player_id, settings, now):
                    raise GameActionError(
                        f"{seat.nickname or seat.player_id} plays with a free account: these "
                        "columns need premium",
                        code="premium_required",
                    )

        self._mutate(caller, action, action.game_id, edit, now)

    def _premium_needed(
        self, player_id: str, settings: GameSettings, now: datetime
    ) -> list[tuple[tuple[str, ...], str]]:
        """What in the settings the player's account may not play (rules.md 5): premium-only
        columns and no premium now; the player's record is read only for such settings."""
        problems = premium_only(settings)
        if problems and not self.players.get(player_id).premium(now):
            return problems
        return []

    def _require_account_for(self, player_id: str, settings: GameSettings, now: datetime) -> None:
        problems = self._premium_needed(player_id, settings, now)
        if problems:
            raise InvalidSettingsError(problems)

    def _looks(self, player_id: str, now: datetime) -> Looks | None:
        """The player's cosmetics as they sit down; a failed read seats them without any (a
        skin never stops a game)."""
        try:
            return self.wardrobes.looks(player_id, now)
        except Exception:
            logger.exception("cosmetics not read")
            return None

    def _seat_refusal(
        self, player_id: str, now: datetime, *, slow: bool = False
    ) -> GameActionError | None:
        """Why a player may not take a seat, or None when the seat they hold is stale."""
        record = self.players.get(player_id)
        if record.blocked_until is not None and record.blocked_until > now:
            return GameActionError(
                f"you left a game: joining is blocked until {record.blocked_until:%H:%M} UTC",
                code="cooldown",
            )
        if slow:
            allowed = PREMIUM_SLOW_GAMES if record.premium(now) else FREE_SLOW_GAMES
            if len(record.slow_games) >= allowed:
                return GameActionError(
                    f"you already play {len(record.slow_games)} slow game"
                    f"{'s' if len(record.slow_games) > 1 else ''}: a player has "
                    f"{FREE_SLOW_GAMES} beside a regular game, {PREMIUM_SLOW_GAMES} with premium",
                    code="slow_games_limit",
                )
            return None
        if record.seated_in is None:
            return None
        try:
            holding = self.games.load(record.seated_in).session
        except GameNotFoundError:
            return None
        seat = holding.seat_of(player_id)
        if holding.in_play and seat is not None and not holding.seats[seat].left:
            return GameActionError(
                f"you already play in game {holding.game_id}", code="already_in_game"
            )
        return None

    def _freed_stale_seat(self, player_id: str, now: datetime, *, slow: bool = False) -> bool:
        """A refused seat: raises the reason, or frees a seat held for a game that no longer
        holds it (then the write is tried again)."""
        refusal = self._seat_refusal(player_id, now, slow=slow)
        if refusal is not None:
            raise refusal
        if slow:
            return False  # the limit was met a moment ago, by a racing join: refused as taken
        record = self.players.get(player_id)
        return record.seated_in is not None and self.players.release_seat(
            player_id, record.seated_in
        )

    def _watch(self, caller: Caller, action: WatchGame, now: datetime) -> None:
        """The connection watches the game: an item of its own, the game not written (so a
        repeat, or a flood, changes nothing); the answer is the game."""
        loaded = self.games.load(action.game_id)
        session = loaded.session
        if session.seat_of(caller.player_id) is not None:
            if action.follow is not None and session.own_turns:
                raise GameActionError(
                    "in this game each player sees only their own dice", code="dice_hidden"
                )
            raise GameActionError("players do not watch their own game", code="already_seated")
        follows = _followed(session, action.follow)
        # A bound on what each broadcast sends; racing watchers may pass it by a few.
        if (
            caller.connection_id not in loaded.spectators
            and len(loaded.spectators) >= MAX_SPECTATORS
        ):
            raise GameActionError("this game has as many spectators as it takes", code="full")
        if (
            caller.connection_id not in loaded.spectators
            or loaded.follows.get(caller.connection_id) != follows
        ):
            self.games.watch(action.game_id, caller.connection_id, now, follows)
            # A write between the load and the new spectator item broadcast without this
            # connection; read after the item exists, the answer carries that write.
            session = self.games.load(action.game_id).session
        view = game_view(session, spectator_shows(session, follows))
        frame = GameFrame(request_id=action.request_id, action=action.action, game=view)
        self.delivery.send(caller, frame)

    def _sync(self, caller: Caller, request_id: str, game_id: str | None = None) -> None:
        """The player's game (or the one named, such as a slow game played beside it), with
        the slow games they sit at; a seat that does not hold this connection yet (its
        handshake lost a race) takes it now."""
        session = None
        record = self.players.get(caller.player_id)
        if game_id is not None:
            session = self.games.load(game_id).session
            if session.seat_of(caller.player_id) is None:
                raise GameActionError("you do not play in this game", code="not_seated")
        elif record.game_id is not None:
            try:
                session = self.games.load(record.game_id).session
            except GameNotFoundError:
                session = None
        if session is not None and _needs_rejoin(session, caller):
            session = self._rejoin(session.game_id, caller, skip=caller.connection_id) or session
        view = game_view(session, caller.player_id) if session is not None else None
        frame = GameFrame(request_id=request_id, game=view, slow_games=sorted(record.slow_games))
        self.delivery.send(caller, frame)

    # ------------------------------------------------------------------------ the write path

    def _mutate(
        self,
        caller: Caller,
        action: ClientAction,
        game_id: str,
        change: ActionChange,
        now: datetime,
    ) -> None:
        """A client's change of one game: idempotent on its requestId, answered with the new
        game (a repeat of an applied request: with an ack of the version it stored)."""
        player, request_id = caller.player_id, action.request_id
        fingerprint = _fingerprint(action)
        repeated: list[int] = []

        def guarded(session: GameSession) -> Effects | None:
            recalled = session.recalled(player, request_id)
            if recalled is not None:
                _check_same_action(recalled[0], fingerprint)
                repeated[:] = [recalled[1]]
                return None
            effects = change(session) or Effects()
            session.remember(player, request_id, fingerprint)
            return effects

        for attempt in (1, 2):
            try:
                applied = self.writer.apply(game_id, guarded, now)
            except SeatTakenError:
                slow = self.games.load(game_id).session.settings.turn_type == "slow"
                if attempt == 2 or not self._freed_stale_seat(player, now, slow=slow):
                    raise
                continue
            break
        if applied.refusal is not None or repeated:
            # A deadline that passed before this action was written with it: the table sees it.
            if applied.changed:
                self._carry_out(applied)
                self._broadcast(applied)
            if applied.refusal is not None:
                raise applied.refusal
            self._ack(caller, action, game_id, repeated[0])
            if not applied.changed:
                # The first time's invocation may have died after its write, before telling
                # the table: a repeat tells it (the request was lost, so this is rare).
                self._broadcast(applied)
            return
        metrics.add_metric(name="ActionApplied", unit=MetricUnit.Count, value=1)
        logger.info("action applied", version=applied.session.version)
        self._deliver(applied, caller, action)

    def _deliver(self, applied: Applied, caller: Caller, action: ClientAction) -> None:
        session = applied.session
        if applied.effects.removed:
            self._ack(caller, action, session.game_id, session.version)
            deleted = GameDeletedFrame(game_id=session.game_id)
            for seat in session.seats:
                if seat.connection_id is not None:
                    self.notifier.send(seat.connection_id, deleted)
            return
        self._carry_out(applied)
        if session.seat_of(caller.player_id) is None:
            # The actor left the table: an ack for them, the game for those still there.
            self._ack(caller, action, session.game_id, session.version)
            self._broadcast(applied)
            return
        self._broadcast(applied, answer=(caller, action))

    def _answer_repeat(
        self, caller: Caller, action: ClientAction, session: GameSession, fingerprint: str
    ) -> None:
        recalled = session.recalled(caller.player_id, action.request_id)
        if recalled is not None:
            _check_same_action(recalled[0], fingerprint)
        version = recalled[1] if recalled is not None else session.version
        self._ack(caller, action, session.game_id, version)

    def _ack(self, caller: Caller, action: ClientAction, game_id: str, version: int) -> None:
        ack = Ack(
            request_id=action.request_id, action=action.action, game_id=game_id, version=version
        )
        self.delivery.send(caller, ack)

    def _carry_out(self, applied: Applied) -> None:
        effects = applied.effects
        if effects.disappeared:
            metrics.add_metric(
                name="PlayerDisappeared", unit=MetricUnit.Count, value=len(effects.disappeared)
            )
        if effects.ended:
            metrics.add_metric(name="GameEnded", unit=MetricUnit.Count, value=1)
        if effects.turns_timed_out:
            metrics.add_metric(
                name="TurnTimedOut", unit=MetricUnit.Count, value=effects.turns_timed_out
            )
        if effects.returns_missed:
            metrics.add_metric(
                name="ReturnMissed", unit=MetricUnit.Count, value=effects.returns_missed
            )
        if effects.bot_moves_failed:
            logger.error("a bot's move failed: the clock's auto-move was played instead")
            metrics.add_metric(
                name="BotMoveFailed", unit=MetricUnit.Count, value=effects.bot_moves_failed
            )

    def _broadcast(
        self,
        applied: Applied,
        *,
        answer: tuple[Caller, ClientAction] | None = None,
        skip: str | None = None,
    ) -> None:
        session = applied.session
        gone = self.delivery.broadcast(
            session,
            applied.spectators,
            now=self.now(),
            answer=answer,
            skip=skip,
            follows=applied.follows,
        )
        if gone.spectators:
            try:
                self.games.forget_spectators(session.game_id, gone.spectators)
            except Exception:
                logger.exception("gone spectators kept for now", gone=len(gone.spectators))
        for caller in gone.seats:
            # A connection found gone is a lost connection, whether its $disconnect came or not.
            try:
                self._away(session.game_id, caller)
            except Exception:
                logger.exception("a gone seat was not marked away", player_id=caller.player_id)

    # ------------------------------------------------------------------------ connections

    def connect(self, caller: Caller) -> None:
        """A new connection replaces the player's previous one, which is told why and closed;
        a player back in a running game returns to it, to the turn as they left it."""
        before = self.players.bind_connection(caller.player_id, caller.connection_id, self.now())
        replaced = before.connection_id
        if replaced is not None and replaced != caller.connection_id:
            self.notifier.send(
                replaced,
                DisconnectedFrame(code="replaced", reason="replaced by a newer connection"),
            )
            self.notifier.close(replaced)
            metrics.add_metric(name="ConnectionReplaced", unit=MetricUnit.Count, value=1)
        if before.game_id is not None:
            # $connect cannot post to its own connection: the client syncs once open.
            self._rejoin(before.game_id, caller, skip=caller.connection_id)

    def _rejoin(self, game_id: str, caller: Caller, *, skip: str | None) -> GameSession | None:
        """The caller's seat takes this connection (and is back, if it was away). A handshake
        never fails for it: if the game keeps changing under it, the client's `sync` does it."""
        now = self.now()
        try:
            applied = self.writer.apply(
                game_id,
                lambda s: _changes(
                    presence.reconnect(s, caller.player_id, caller.connection_id, now)
                ),
                now,
                attempts=PRESENCE_ATTEMPTS,
            )
        except GameNotFoundError:  # an ended game's item expired (TTL)
            return None
        except (StaleGameError, ServiceBusyError):
            metrics.add_metric(name="RejoinDeferred", unit=MetricUnit.Count, value=1)
            logger.warning("the seat takes the connection at the next sync", game_id=game_id)
            return None
        if applied.written:
            self._broadcast(applied, skip=skip)
        return applied.session

    def disconnect(self, caller: Caller) -> None:
        before = self.players.unbind_connection(caller.player_id, caller.connection_id)
        if before is None or before.game_id is None:
            return  # a newer connection took over, or the player is in no game
        self._away(before.game_id, caller)

    def _away(self, game_id: str, caller: Caller) -> None:
        """The caller's connection is gone: their seat is away if it still holds it."""
        now = self.now()
        try:
            applied = self.writer.apply(
                game_id,
                lambda s: _changes(
                    presence.disconnect(s, caller.player_id, caller.connection_id, now)
                ),
                now,
                attempts=PRESENCE_ATTEMPTS,
            )
        except GameNotFoundError:  # an ended game's item expired (TTL)
            return
        if applied.written:
            self._broadcast(applied, skip=caller.connection_id)

    # ------------------------------------------------------------------------ timers

    def wake(
        self, game_id: str, *, lane: int | None = None, lost: bool = False
    ) -> LaneInput | None:
        """A timer woke the game: every deadline due by now applies. For a lane, the answer is
        its next input (`rearm` false ends its execution)."""
        now = self.now()
        try:
            applied = self.writer.apply(
                game_id,
                lambda s: apply_due(s, now, self.dice),
                now,
                woken_lane=None if lost else lane,
                lost_lane=lane if lost else None,
            )
        except GameNotFoundError:
            logger.info("woken for a game that no longer exists")
            return None if lane is None else _lane_ends(game_id, lane, now)
        if applied.changed:
            self._carry_out(applied)
            self._broadcast(applied)
        if lane is None or lost:
            return None
        plan = applied.timers
        if not plan.rearm or plan.lane_seconds is None:
            return _lane_ends(game_id, lane, now)
        return lane_input(game_id, lane, plan.lane_seconds, now)


def _followed(session: GameSession, follow: str | None) -> str | None:
    """The player a spectator asks to follow, checked: only where each player sees only their
    own dice is there a choice (turn by turn everyone sees the turn being played)."""
    if follow is None:
        return None
    if not session.own_turns:
        raise GameActionError(
            "turn by turn every spectator sees the dice of the player in turn: there is no one "
            "to pick",
            code="wrong_game_type",
        )
    if session.seat_of(follow) is None:
        raise GameActionError(
            f"{clip(follow, 64)} does not play in this game", code="unknown_player"
        )
    return follow


def _needs_rejoin(session: GameSession, caller: Caller) -> bool:
    seat = session.seat_of(caller.player_id)
    if seat is None or not session.in_play or session.seats[seat].left:
        return False
    held = session.seats[seat]
    return held.connection_id != caller.connection_id or not held.present


def _lane_ends(game_id: str, lane: int, now: datetime) -> LaneInput:
    return lane_input(game_id, lane, 1, now).model_copy(update={"rearm": False})


def _check_same_action(recorded: str, fingerprint: str) -> None:
    if recorded != fingerprint:
        raise GameActionError(
            "this requestId was already used for another action; use a new one",
            code="request_reused",
        )
