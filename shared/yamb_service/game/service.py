"""The game service: one method per event kind (a client action, a connection, a timer).

`handle` checks the connection (its sign-in, its frame rate), routes the action to the module
that carries it out, and answers whatever happens. Each module reads what it needs, lets
`yamb.session` decide, and writes through the GameWriter (one conditional write, retried on
fresh state after a lost race, with the game's timers planned around it); then it answers the
actor with the new game and sends it to everyone at the table:
- lobby: create, join, edit, leave, delete, start, watch, unwatch, list, bots;
- play: the dice, the sheet, pausing, resigning, the finish offer, seeds, scorekeeping;
- reads: dice record, history, replay, hint, sync;
- chat; presence (connect, disconnect); wake (timers);
- social (yamb_service.social): private messages, the general chat, invitations.
"""

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from yamb.dice import DiceSource
from yamb.errors import ErrorCode, YambError
from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text
from yamb.protocol import (
    AddBot,
    AddSeed,
    Announce,
    AnswerInvitation,
    Chat,
    ChatHistory,
    ClientAction,
    CloseConversation,
    CloseGeneralChat,
    CommitSeed,
    CorrectTurn,
    CreateGame,
    DeleteGame,
    DisconnectedFrame,
    EditGame,
    EnterDice,
    ErrorFrame,
    FairplayAnswer,
    FinishSheet,
    Hint,
    History,
    Invite,
    JoinGame,
    LeaveGame,
    ListConversations,
    ListGames,
    ListInvitations,
    Lock,
    OpenGeneralChat,
    Pause,
    Ping,
    ReadConversation,
    Rematch,
    RemoveBot,
    Replay,
    Resign,
    Resume,
    RevealSeed,
    Roll,
    SayInClub,
    SayInGeneralChat,
    Select,
    SendMessage,
    StartGame,
    Sync,
    UnwatchGame,
    Verify,
    WatchGame,
    WithdrawInvitation,
    Write,
    clip,
    sentence,
)
from yamb.session.fairplay import FairplayCheckPendingError

from yamb_service.clubs import chat as club_chat
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.edge.notifier import Notifier
from yamb_service.game import chat, lobby, play, presence, reads, rematch, wake
from yamb_service.game.context import GameContext
from yamb_service.game.delivery import Delivery
from yamb_service.game.ports import (
    GameRepository,
    NoReminders,
    NoSeatRatings,
    NoTournaments,
    NoWardrobes,
    PlayerRepository,
    ReturnReminders,
    SeatRatings,
    Timers,
    TournamentsOver,
    Wardrobes,
)
from yamb_service.game.throttle import ConnectionThrottle
from yamb_service.game.timers import LaneInput
from yamb_service.game.writer import GameWriter
from yamb_service.push.ports import NoPusher, Pusher
from yamb_service.social.chats import service as chats
from yamb_service.social.fairplay import service as fair_checks
from yamb_service.social.invitations import service as invitations
from yamb_service.social.stores import SocialStores

SESSION_EXPIRED = Text("your sign-in has expired: connect again with a fresh token")
SLOW_DOWN = Text(
    "too many frames: this one and the next ones this second are not applied; slow down"
)
INTERNAL_ERROR = Text(
    "the server failed to answer this action; sending it again with the same requestId is safe"
)


type Route = Callable[[GameContext, Caller, Any, datetime], None]

# Every client action and the module function that carries it out (a test checks that the
# table covers the protocol's whole union).
ROUTES: dict[type[BaseModel], Route] = {
    CreateGame: lobby.create,
    ListGames: lambda ctx, caller, action, _: lobby.list_games(ctx, caller, action),
    JoinGame: lobby.join,
    LeaveGame: lobby.leave,
    EditGame: lobby.edit,
    Rematch: rematch.rematch,
    DeleteGame: lobby.delete,
    StartGame: lobby.start,
    WatchGame: lobby.watch,
    UnwatchGame: lobby.unwatch,
    AddBot: lobby.seat_bots,
    RemoveBot: lobby.seat_bots,
    Lock: play.lock,
    Roll: play.roll,
    Announce: play.announce,
    Select: play.select,
    Write: play.write,
    Pause: play.pause,
    Resume: play.resume,
    Resign: play.resign,
    FinishSheet: play.finish_sheet,
    AddSeed: play.add_seed,
    CommitSeed: play.commit_seed,
    RevealSeed: play.reveal_seed,
    EnterDice: play.enter_dice,
    CorrectTurn: play.correct_turn,
    Sync: lambda ctx, caller, action, _: reads.sync(ctx, caller, action.request_id, action.game_id),
    Verify: lambda ctx, caller, action, _: reads.dice_record_or_history(ctx, caller, action),
    History: lambda ctx, caller, action, _: reads.dice_record_or_history(ctx, caller, action),
    Replay: lambda ctx, caller, action, _: reads.replay(ctx, caller, action),
    Hint: lambda ctx, caller, action, _: reads.hint(ctx, caller, action),
    Chat: chat.send,
    ChatHistory: chat.history,
    Ping: lambda ctx, caller, action, _: presence.heartbeat(ctx, caller, action),
    # Social (docs/social.md): its own stores, the same connection checks and refusals.
    SendMessage: chats.send_message,
    ListConversations: chats.conversations,
    ReadConversation: chats.conversation,
    CloseConversation: chats.close_conversation,
    OpenGeneralChat: chats.open_general,
    CloseGeneralChat: chats.close_general,
    SayInGeneralChat: chats.say_in_general,
    SayInClub: club_chat.say_in_club,
    Invite: invitations.invite,
    AnswerInvitation: invitations.answer,
    WithdrawInvitation: invitations.withdraw,
    ListInvitations: invitations.pending,
    FairplayAnswer: fair_checks.answer,
}


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
        away_grace: Callable[[], None] = presence.wait_away_grace,
        reminders: ReturnReminders | None = None,
        pusher: Pusher | None = None,
        social: SocialStores | None = None,
        ratings: SeatRatings | None = None,
        tournaments: TournamentsOver | None = None,
    ) -> None:
        self.throttle = throttle
        # The chats' store, blocks and profiles: the social actions' (docs/social.md).
        self.social = social
        # Waits, in a closed connection's $disconnect, for its player to come back unseen
        # (presence.AWAY_GRACE_SECONDS of real time).
        self.away_grace = away_grace
        # Return reminders (A8): mailed by the clock function only.
        self.reminders: ReturnReminders = reminders or NoReminders()
        # Web Push (a return countdown, a slow game's turn): the push function, asked.
        self.pusher: Pusher = pusher or NoPusher()
        # What a player shows at the table (E5), read when they sit down.
        self.wardrobes: Wardrobes = wardrobes or NoWardrobes()
        # The waiting players' skill ratings in the lobby's list (issue 32).
        self.ratings: SeatRatings = ratings or NoSeatRatings()
        # Whether a duplicate tournament is over: its games' dice are shown only then (none
        # is known to be over without a store).
        self.tournaments: TournamentsOver = tournaments or NoTournaments()
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
                self.reply_error(
                    caller.connection_id,
                    "slow_down",
                    SLOW_DOWN,
                    action.request_id,
                    language=caller.language,
                )
            return
        try:
            self._dispatch(caller, action, now)
        except YambError as error:
            metrics.add_metric(name="ActionRefused", unit=MetricUnit.Count, value=1)
            logger.info("action refused", code=error.code)
            self.reply_error(
                caller.connection_id,
                error.code,
                error.text,
                action.request_id,
                fields=error.fields,
                language=caller.language,
            )
            if isinstance(error, FairplayCheckPendingError):
                fair_checks.resend(self, caller, error)
        except Exception:
            metrics.add_metric(name="ActionFailed", unit=MetricUnit.Count, value=1)
            logger.exception("action failed")
            self.reply_error(
                caller.connection_id,
                "internal",
                INTERNAL_ERROR,
                action.request_id,
                language=caller.language,
            )

    def _session_expired(self, caller: Caller) -> None:
        """The token the connection was opened with has expired: a signed-out, disabled or
        deleted account loses its connection within its token's lifetime."""
        metrics.add_metric(name="SessionExpired", unit=MetricUnit.Count, value=1)
        logger.info("session expired")
        self.notifier.send(
            caller.connection_id,
            DisconnectedFrame(
                code="session_expired", reason=sentence(SESSION_EXPIRED, caller.language)
            ),
        )
        self.notifier.close(caller.connection_id)

    def reply_error(
        self,
        connection_id: str,
        code: ErrorCode,
        message: Text | Plural | str,
        request_id: str | None = None,
        *,
        fields: tuple[str, ...] = (),
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        """The refusal's frame, its sentence rendered in the caller's `language` (the one place
        a WebSocket refusal becomes words: docs/languages.md)."""
        frame = ErrorFrame(
            request_id=request_id,
            code=code,
            message=sentence(message, language),
            fields=[clip(name, 40) for name in fields[:20]] or None,
        )
        try:
            self.notifier.send(connection_id, frame)
        except Exception:  # the refusal is logged; nothing else can be done for the client
            logger.exception("error frame not delivered", code=code)

    def _dispatch(self, caller: Caller, action: ClientAction, now: datetime) -> None:
        ROUTES[type(action)](self, caller, action, now)

    # ------------------------------------------------------------------------ connections

    def connect(self, caller: Caller) -> None:
        presence.connect(self, caller)

    def disconnect(self, caller: Caller) -> None:
        if self.social is not None:
            try:
                self.social.chats.stop_listening([caller.connection_id])
            except Exception:  # a batch finds it gone (410) and drops it then
                logger.exception("general chat listener not dropped")
        presence.disconnect(self, caller)

    # ------------------------------------------------------------------------ timers

    def wake(
        self, game_id: str, *, lane: int | None = None, lost: bool = False
    ) -> LaneInput | None:
        return wake.wake(self, game_id, lane=lane, lost=lost)
