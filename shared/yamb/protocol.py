"""The WebSocket protocol: every frame a client sends and every frame the server sends.

Client frames are `{"action": ..., "requestId": ..., ...}`, one model per action, parsed as a
discriminated union so that an unknown action fails at the edge with a clear error. Server frames
carry a `type`. docs/asyncapi.yaml is generated from these models by devstack/asyncapi.py
(`python -m devstack.asyncapi > docs/asyncapi.yaml`); tests/unit/test_asyncapi.py fails when
they differ.
"""

import re
from datetime import datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter
from pydantic.alias_generators import to_camel

from yamb.clubs.tag import TagView
from yamb.errors import ErrorCode
from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text, render
from yamb.settings import GameSettings

MAX_FRAME_BYTES = 32 * 1024
MAX_ERROR_MESSAGE = 500

RequestId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
GameId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
ColumnId = Annotated[str, Field(min_length=1, max_length=20)]
RowId = Annotated[str, Field(min_length=1, max_length=20)]


class Frame(BaseModel):
    # Built on first use, not at import: a function builds the few models its requests meet
    # (part of its cold start).
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        defer_build=True,
    )


# ------------------------------------------------------------------------------- client frames


class Action(Frame):
    request_id: RequestId


class CreateGame(Action):
    action: Literal["create_game"]
    settings: dict[str, Any] = Field(description="GameSettings; validated by the server")


class ListGames(Action):
    action: Literal["list_games"]


class JoinGame(Action):
    action: Literal["join_game"]
    game_id: GameId


class LeaveGame(Action):
    action: Literal["leave_game"]
    game_id: GameId


class EditGame(Action):
    action: Literal["edit_game"]
    game_id: GameId
    settings: dict[str, Any] | None = None
    player_order: list[str] | None = None


class Rematch(Action):
    """After a game has ended, one of its players opens a new table with the same settings (its
    bots seated again, the caller its creator); the game's other players are sent a `rematch`
    frame, and accept by joining the new table (join_game). Answered with the new game."""

    action: Literal["rematch"]
    game_id: GameId = Field(description="the game that has ended")


class DeleteGame(Action):
    action: Literal["delete_game"]
    game_id: GameId


class StartGame(Action):
    action: Literal["start_game"]
    game_id: GameId


class WatchGame(Action):
    """Watch a game (again, to follow another player): takes no seat. In simultaneous,
    each-for-themself and slow games `follow` picks whose dice the spectator sees (default: the
    first player still playing). A duplicate tournament's game is watched once the tournament
    is over (`deal_in_play` until then: its dice are every other entrant's)."""

    action: Literal["watch_game"]
    game_id: GameId
    follow: str | None = Field(default=None, min_length=1, max_length=64)


class UnwatchGame(Action):
    """The spectator stops watching the game: no more of its frames reach this connection
    (answered with an ack; watching a game one does not watch is no error)."""

    action: Literal["unwatch_game"]
    game_id: GameId


class AddBot(Action):
    """The creator seats a bot (product G11) in a free seat of a waiting table that is not
    ranked; `level` is easy, medium, hard, or optimal on the Yahtzee-family grids."""

    action: Literal["add_bot"]
    game_id: GameId
    level: str = Field(min_length=1, max_length=20)


class RemoveBot(Action):
    """The creator takes a bot's seat back (its `playerId`, as the seat shows it)."""

    action: Literal["remove_bot"]
    game_id: GameId
    player_id: str = Field(min_length=1, max_length=64)


class Sync(Action):
    """The player's game as it is now; `gameId` names another game they sit at (a slow game
    played beside a regular one)."""

    action: Literal["sync"]
    game_id: GameId | None = None


TurnNumber = Annotated[
    StrictInt | None,
    Field(
        ge=1,
        le=10_000,
        description="the turn the action is meant for (the game frame's turn.number); when "
        "given, an action that arrives after that turn ended is refused with turn_over "
        "instead of being applied to the next one, and one for a turn still to come with "
        "wrong_turn",
    ),
]
Positions = Annotated[list[StrictInt], Field(max_length=6, description="dice positions, 0-based")]


class TurnAction(Action):
    game_id: GameId
    turn: TurnNumber = None


class Lock(TurnAction):
    """The dice held back from the next roll; they stay locked until released, also across a
    lost connection, and everyone at the table sees them."""

    action: Literal["lock"]
    keep: Positions


class Roll(TurnAction):
    action: Literal["roll"]
    keep: Positions | None = Field(
        default=None, description="the locks for this roll; absent: the locks set by lock"
    )
    roll: StrictInt | None = Field(
        default=None,
        ge=0,
        le=3,
        description="the rolls already made in this turn as the client saw them (the game "
        "frame's turn.roll); when given, a roll that arrives after another one was made (a "
        "double click, a resent action) is refused with already_rolled instead of spending a "
        "second roll",
    )


class Announce(TurnAction):
    action: Literal["announce"]
    column: ColumnId
    row: RowId


class Select(TurnAction):
    """The pending choice that beats the clock; `column` and `row` null take it back."""

    action: Literal["select"]
    column: ColumnId | None = None
    row: RowId | None = None


class Write(TurnAction):
    action: Literal["write"]
    column: ColumnId
    row: RowId


class Pause(TurnAction):
    """The player in turn freezes their turn clock (rules.md 8): once a turn, where turns have a
    clock. The dice, locks and announcement stay as they are; the others see the 3-minute return
    countdown, and not resuming in time counts as leaving. Until `resume`, the player's turn
    actions are refused with `paused`."""

    action: Literal["pause"]


class Resume(TurnAction):
    """The paused player plays on: the clock runs again from where it froze, with at least 5
    seconds (once a turn)."""

    action: Literal["resume"]


class Resign(Action):
    action: Literal["resign"]
    game_id: GameId


class FinishSheet(Action):
    """The answer of the last player left to the offer to finish their sheet."""

    action: Literal["finish_sheet"]
    game_id: GameId
    accept: bool


class AddSeed(Action):
    """Retired (`yamb-dice/3`): refused with `seed_retired`. A seed sent in the clear before
    the start could be chosen last against the others'; use `commit_seed` and `reveal_seed`."""

    action: Literal["add_seed"]
    game_id: GameId
    seed: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")] = Field(
        description="1 to 64 printable ASCII characters, no spaces"
    )


class CommitSeed(Action):
    """A seated player's commitment to a seed of their own, while the table waits: the SHA-256
    of the seed's text, lowercase hex (docs/dice.md). Another replaces it; leaving takes it
    away; the start freezes it. Everyone sees the commitments, nobody the seeds."""

    action: Literal["commit_seed"]
    game_id: GameId
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] = Field(
        description="SHA-256 of the seed, 64 lowercase hex digits"
    )


class RevealSeed(Action):
    """After the start, the seed committed to: the first roll waits until every commitment is
    revealed or 15 seconds have passed (a commitment not revealed by then is dropped and named
    in `fairness.withheld`). A seed whose SHA-256 is not the commitment is `seed_mismatch`."""

    action: Literal["reveal_seed"]
    game_id: GameId
    seed: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")] = Field(
        description="1 to 64 printable ASCII characters, no spaces"
    )


Faces = Annotated[list[StrictInt], Field(min_length=5, max_length=6)]


class EnterDice(TurnAction):
    """Scorekeeping: the dice just rolled at the table (roll 1 starts the turn), typed by the
    player in turn or by the table's creator."""

    action: Literal["enter_dice"]
    dice: Faces


class CorrectedAnnouncement(Frame):
    column: ColumnId
    row: RowId
    after_roll: StrictInt = Field(ge=1, le=3)


class CorrectedWrite(Frame):
    column: ColumnId | None = None
    row: RowId


class CorrectedTurn(Frame):
    """One line of a scorekeeping table's history, as `history` shows it."""

    player: str = Field(min_length=1, max_length=64)
    rolls: list[Faces] = Field(min_length=1, max_length=3)
    announce: CorrectedAnnouncement | None = None
    write: CorrectedWrite


class CorrectTurn(Action):
    """Scorekeeping: the creator replaces one line of the history; every sheet is scored again."""

    action: Literal["correct_turn"]
    game_id: GameId
    line: StrictInt = Field(ge=0, le=10_000, description="0-based line of the history")
    turn: CorrectedTurn


class History(Action):
    """Scorekeeping: up to 100 lines of the history from `start`."""

    action: Literal["history"]
    game_id: GameId
    start: StrictInt = Field(default=0, ge=0, le=10_000)


class Chat(Action):
    """A game-chat message from a player or a spectator of the game (yamb.chat: at most 200
    characters once cleaned, decent, at most 5 in 10 s and 1 a second per connection)."""

    action: Literal["chat"]
    game_id: GameId
    text: str = Field(max_length=2_000)


class Replay(Action):
    """A finished game, turn by turn (product G8): answered in one or more `replay` frames; a
    duplicate tournament's game once the tournament is over (`deal_in_play` until then)."""

    action: Literal["replay"]
    game_id: GameId


class Hint(TurnAction):
    """At a table where the player is the only person (the rest are bots), after roll 1 or 2
    of their turn: what the strongest bot would do now (answered by a `hint` frame)."""

    action: Literal["hint"]


class Verify(Action):
    """The dice record of an ended game with its revealed seed, every roll recomputed; of a
    duplicate tournament's game, once the tournament is over (`deal_in_play` until then)."""

    action: Literal["verify"]
    game_id: GameId


class Ping(Action):
    """A heartbeat: answered at once by a `pong` frame. A client sends one every few seconds
    to learn that its connection still carries frames (without answers it says so and connects
    again), and the server learns that the client is still there: a connection that has pinged
    and then stays silent for 45 s while another player of its table pings is taken for a dead
    network, closed, and its seat shown away."""

    action: Literal["ping"]


class ChatHistory(Action):
    """The game's recent chat lines (answered by a `chat_history` frame), for a page that
    opens the game or reloads: the table's talk so far, as the others have it."""

    action: Literal["chat_history"]
    game_id: GameId


# ------------------------------------------------------------------ social (docs/social.md)

Nickname = Annotated[str, Field(min_length=1, max_length=64)]


class SendMessage(Action):
    """A private message to another player (S3): delivered at once when they are connected,
    else waiting in their conversation for their next login. Answered by the `message` frame;
    refused to oneself, to an unknown player, and between players one of whom blocked the other.
    The game chat's rules hold (yamb.chat: 200 characters, decent, 5 in 10 s)."""

    action: Literal["send_message"]
    to: Nickname
    text: str = Field(max_length=2_000)


class ListConversations(Action):
    """The caller's private conversations, newest first, with their unread counts (answered by
    a `conversations` frame): what a page reads once connected, to restore them."""

    action: Literal["conversations"]


class ReadConversation(Action):
    """One conversation's messages, newest page first (answered by a `conversation` frame); its
    unread count goes back to 0. `before`: the frame's `before`, for older messages."""

    action: Literal["conversation"]
    nickname: Nickname
    before: str | None = Field(default=None, max_length=40)


class CloseConversation(Action):
    """The conversation and its history removed, for the caller alone (the other player keeps
    theirs); a new message opens a new one. Answered by a `conversations` frame."""

    action: Literal["close_conversation"]
    nickname: Nickname


class OpenGeneralChat(Action):
    """The general chat opened on this connection: answered by a `general_chat` frame with the
    recent lines, then its new lines arrive in batches (every 2 s or more) until it is closed
    or the connection ends."""

    action: Literal["general_chat_open"]


class CloseGeneralChat(Action):
    action: Literal["general_chat_close"]


class SayInGeneralChat(Action):
    """A line in the general chat (the game chat's rules); the sender's `general_chat` frame
    answers with the line at once, the others have it in the next batch."""

    action: Literal["general_chat"]
    text: str = Field(max_length=2_000)


class SayInClub(Action):
    """A line in one of the caller's clubs' chat (C6), live to every member connected now and
    not kept (the game chat's rules, and a club's own pace: 10 lines in 10 seconds). With
    `announcement` (the admin and deputies), it is kept too, for the members who are away: they
    find it on the club's page, counted on their Clubs link at their next login. Answered by
    the `club_chat` frame, which every connected member gets."""

    action: Literal["club_chat"]
    club_id: str = Field(min_length=1, max_length=64)
    text: str = Field(max_length=2_000)
    announcement: bool = False


class Invite(Action):
    """An invitation to the caller's waiting table (S2), to a player by nickname: answered by
    the `invitation` frame, which the invitee gets too (at once when connected, else from
    `invitations` at their next login). One pending invitation per invited player; one they
    refused is not repeated for the same game; it lapses after 10 minutes."""

    action: Literal["invite"]
    game_id: GameId
    nickname: Nickname


class AnswerInvitation(Action):
    """Yes seats the invitee at the table (as `join_game`, answered by the `game` frame); No is
    answered by `invitations`. The inviter gets `invitation_answer` either way."""

    action: Literal["answer_invitation"]
    invitation_id: str = Field(min_length=1, max_length=40)
    accept: bool


class WithdrawInvitation(Action):
    """The inviter takes back their pending invitation to `nickname` (answered and told to the
    invitee by `invitation_withdrawn`)."""

    action: Literal["withdraw_invitation"]
    nickname: Nickname


class ListInvitations(Action):
    """The caller's pending invitation, if any (answered by `invitations`): what a page reads
    once connected, so that an invitation sent while the player was away reaches them."""

    action: Literal["invitations"]


class FairplayAnswer(Action):
    """The caller's answer to their "not a robot" check (`fairplay_check`): the position of a
    die showing the face asked for, before the check's deadline. Answered by the game (passed)
    and a `fairplay_result`; a wrong die or a late answer is a yellow card."""

    action: Literal["fairplay_answer"]
    game_id: GameId
    check_id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
    position: Annotated[int, Field(ge=0, le=9)]


ClientAction = Annotated[
    CreateGame
    | ListGames
    | JoinGame
    | LeaveGame
    | EditGame
    | Rematch
    | DeleteGame
    | StartGame
    | WatchGame
    | UnwatchGame
    | Sync
    | Lock
    | Roll
    | Announce
    | Select
    | Write
    | Pause
    | Resume
    | Resign
    | FinishSheet
    | AddSeed
    | CommitSeed
    | RevealSeed
    | Verify
    | EnterDice
    | CorrectTurn
    | History
    | Chat
    | Replay
    | AddBot
    | RemoveBot
    | Hint
    | Ping
    | ChatHistory
    | SendMessage
    | ListConversations
    | ReadConversation
    | CloseConversation
    | OpenGeneralChat
    | CloseGeneralChat
    | SayInGeneralChat
    | SayInClub
    | Invite
    | AnswerInvitation
    | WithdrawInvitation
    | ListInvitations
    | FairplayAnswer,
    Field(discriminator="action"),
]
CLIENT_ACTIONS: TypeAdapter[ClientAction] = TypeAdapter(
    ClientAction, config=ConfigDict(defer_build=True)
)
# Each action's model by its name, in the union's order: the server validates a frame with the
# one its `action` names (the union's discriminator, read first), so that only the models of the
# actions it meets are ever built.
ACTION_MODELS: dict[str, type[Action]] = {
    get_args(member.model_fields["action"].annotation)[0]: member
    for member in get_args(get_args(ClientAction)[0])
}
ACTION_NAMES: tuple[str, ...] = tuple(ACTION_MODELS)


# ------------------------------------------------------------------------------- server frames


class ColumnTotalsView(Frame):
    upper: int
    bonus: int
    middle: int
    lower: int
    extra: int
    total: int


class SheetView(Frame):
    player_id: str = Field(description="the player, or in 2 vs 2 the team's first player")
    members: list[str] | None = Field(default=None, description="2 vs 2: the team's players")
    # column id -> row id -> value; empty cells are absent.
    cells: dict[str, dict[str, int]]
    totals: dict[str, ColumnTotalsView]
    total: int
    skin: str | None = Field(
        default=None, description="the owner's sheet skin (a cosmetic's itemId); none: plain"
    )
    column_effect: str | None = Field(
        default=None, description="the owner's column effect (a cosmetic's itemId)"
    )


class LegalCellView(Frame):
    column: str
    row: str
    score: int


class SeatView(Frame):
    player_id: str
    nickname: str | None = Field(default=None, description="as the player signed in to sit")
    frame: str | None = Field(
        default=None, description="the frame around the player's name (a cosmetic's itemId)"
    )
    avatar: bool | None = Field(default=None, description="true: the player shows their own avatar")
    club: TagView | None = Field(
        default=None, description="the player's main club's tag, as they sat down (C1)"
    )
    bot: str | None = Field(default=None, description="a bot's level; null: a person")
    present: bool
    left: bool
    paused: bool | None = Field(
        default=None, description="true: the player paused their turn (return_deadline runs)"
    )
    return_deadline: datetime | None = None
    decision_ms: int | None = Field(
        default=None, description="time spent deciding, measured by the server; time bonus only"
    )
    turns_played: int = Field(default=0, description="of the view's turnsPerSheet")
    in_turn: bool | None = Field(
        default=None, description="own turns only: the player has a turn under way"
    )
    turn_deadline: datetime | None = Field(
        default=None, description="own turns only: when the player's turn clock runs out"
    )


class RollView(Frame):
    dice: list[int]
    kept: list[int] = Field(description="positions held from the roll before (0-based)")


class TurnView(Frame):
    number: int
    player_id: str
    roll: int
    dice: list[int]
    dice_skin: str | None = Field(
        default=None, description="the skin of the player in turn's dice (a cosmetic's itemId)"
    )
    # Positions of the dice the player holds back from the next roll.
    locks: list[int] = Field(default_factory=list)
    announcement: LegalCellView | None = None
    directed_row: str | None = None
    pending: LegalCellView | None = None
    legal: list[LegalCellView]
    can_roll: bool
    deadline: datetime | None = None
    frozen_ms: int | None = None
    part: int | None = Field(
        default=None, description="2 vs 2: 1 while the first player proposes, 2 for the partner"
    )
    proposal: LegalCellView | None = Field(
        default=None, description="2 vs 2: the proposed cell and value (the cell stays empty)"
    )
    opened: list[LegalCellView] = Field(
        default_factory=list,
        description="2 vs 2: Announced cells opened this team turn (binding nobody)",
    )
    grace: bool | None = Field(
        default=None,
        description="2 vs 2: the partner's time is up; dice locked, a cell to choose (10 s)",
    )
    rolls: list[RollView] = Field(
        default_factory=list,
        description="the turn's rolls so far with the dice kept (its roll history), shown "
        "wherever the game type shows the player's dice",
    )


class FairnessView(Frame):
    """What makes the game's dice verifiable (docs/dice.md): the seed only once it has ended."""

    scheme: str
    commitment: str = Field(description="SHA-256 of the server seed, hex; fixed at creation")
    client_seeds: dict[str, str] = Field(
        default_factory=dict,
        description="the players' seeds mixed into the dice: shown once the reveals have closed",
    )
    seed: str | None = Field(default=None, description="the server seed, hex, once ended")
    takes_seeds: bool = Field(
        default=True, description="whether seated players may commit to seeds of their own"
    )
    commitments: dict[str, str] = Field(
        default_factory=dict, description="player id to the SHA-256 of their seed (`yamb-dice/3`)"
    )
    reveal_by: datetime | None = Field(
        default=None,
        description="while the first roll waits for the committed seeds: when it stops waiting",
    )
    revealed: list[str] = Field(
        default_factory=list,
        description="while the first roll waits: the players whose seed is in (not the seeds)",
    )
    withheld: list[str] = Field(
        default_factory=list,
        description="the players whose commitment was dropped, their seed not revealed in time",
    )
    deal: str | None = Field(
        default=None,
        description="a duplicate tournament's game: the tournament whose deal (the same dice "
        "for every entrant) it plays; its seed is in no frame, and its record, replay and "
        "public page wait until the tournament is over (`deal_in_play`)",
    )


class GameView(Frame):
    game_id: str
    version: int
    status: Literal["waiting", "running", "finished", "cancelled", "deleted"]
    creator: str
    settings: GameSettings
    seats: list[SeatView]
    turns_per_sheet: int | None = Field(default=None, description="None before the start")
    waiting_for: list[str] = Field(
        default_factory=list,
        description="simultaneous: the players still playing the round, whom the table waits for",
    )
    slow_deadline: datetime | None = Field(default=None, description="slow games: the end")
    sheets: list[SheetView] = Field(default_factory=list)
    turn: TurnView | None = Field(
        default=None,
        description="the turn being played; in simultaneous, each-for-themself and slow games "
        "the recipient's own (a spectator's: the followed player's), since each player sees "
        "only their own dice",
    )
    winners: list[str] = Field(default_factory=list)
    outcome: str | None = None
    # The player offered to finish their sheet alone (rules.md 8), until they answer.
    finish_offer: str | None = None
    finish_counts: bool | None = Field(
        default=None,
        description="with a finish offer: whether the win can be recorded; false when the "
        "player had played under half of the turns when the others left, so the game ends "
        "cancelled whatever the answer (rules.md 8, decision 31)",
    )
    # None for a game stored before verifiable dice.
    fairness: FairnessView | None = None


class SeatRatingView(Frame):
    """A player's skill rating as the lobby shows it (issue 32, docs/competition.md)."""

    rating: int
    deviation: int
    provisional: bool = Field(description="shown with a ? until the deviation is 300 or less")
    games: int


class GameSummary(Frame):
    game_id: str
    status: Literal["waiting", "running"]
    creator: str
    players: list[str]
    nicknames: list[str | None] = Field(
        default_factory=list, description="the players' nicknames, in the order of `players`"
    )
    bots: list[str] = Field(
        default_factory=list, description="which of `players` are bots (their ids)"
    )
    seats: int
    grid: str
    columns: list[str]
    created_at: datetime
    pool: str | None = Field(
        default=None,
        description="the table's rating pool (individual/yamb-3, pairs/yamb-5, "
        "individual/classic); none for solo and a custom column set",
    )
    ratings: dict[str, SeatRatingView] = Field(
        default_factory=dict,
        description="a waiting table: each person's rating in its pool, by player id (a "
        "newcomer's is 1500, provisional)",
    )


class Ack(Frame):
    """The answer to an action that changed nothing more than what a `game` frame shows."""

    type: Literal["ack"] = "ack"
    request_id: str
    action: str
    game_id: str
    version: int


class GameFrame(Frame):
    """The whole state of a game: the answer to an action that changed it (with the action's
    requestId and name) and to sync, and sent to everyone else at the table after every change."""

    type: Literal["game"] = "game"
    request_id: str | None = None
    # The action this frame answers (with its requestId); None for sync and for the others.
    action: str | None = None
    # None (absent on the wire) answers a sync from a player who is in no game.
    game: GameView | None = None
    slow_games: list[str] | None = Field(
        default=None,
        description="the answer to sync: the slow games the player sits at (sync each by gameId)",
    )


class MismatchView(Frame):
    turn: int = Field(description="1-based index in `turns`")
    roll: int
    die: int
    expected: int | None
    recorded: int | None


class DiceRecordFrame(Frame):
    """The answer to `verify`: everything a third party needs to recompute every die."""

    type: Literal["dice_record"] = "dice_record"
    request_id: str
    game_id: str
    scheme: str
    dice_count: int
    same_dice: bool = Field(description="turn labels are the players' own turn numbers")
    seed: str
    commitment: str
    client_seeds: dict[str, str]
    commitments: dict[str, str] = Field(
        default_factory=dict,
        description="`yamb-dice/3`: player id to the SHA-256 committed before the start; every "
        "client seed must hash to its player's",
    )
    withheld: list[str] = Field(
        default_factory=list, description="committed players whose seed was not revealed in time"
    )
    seed_matches_commitment: bool
    deal: str | None = Field(
        default=None,
        description="a duplicate tournament's deal: the id the game key has in place of the "
        "game's id, the same for all its games (docs/dice.md)",
    )
    turns: list[str] = Field(
        description="per turn `seat:label:dice`, then per later roll `;kept:dice` (digits; "
        "kept: the positions held, 0-based), e.g. `0:3:35126;02:35146` (docs/dice.md)"
    )
    mismatch: MismatchView | None = Field(description="the first die that does not match, if any")


class HistoryFrame(Frame):
    """The answer to `history`: lines `start` to `start + len(turns) - 1` of `total`."""

    type: Literal["history"] = "history"
    request_id: str
    game_id: str
    start: int
    total: int
    turns: list[CorrectedTurn]


class GameListFrame(Frame):
    type: Literal["game_list"] = "game_list"
    request_id: str
    games: list[GameSummary]


_UNSAFE_CHARACTERS = re.compile(r"[^\x20-\x7e]")


def clip(text: str, limit: int = MAX_ERROR_MESSAGE) -> str:
    """Printable ASCII only (anything else becomes ?), at most `limit` characters: what an error
    message may carry of a client's input."""
    safe = _UNSAFE_CHARACTERS.sub("?", text)
    return safe if len(safe) <= limit else safe[: limit - 3] + "..."


def sentence(
    message: Text | Plural | str, language: str = DEFAULT_LANGUAGE, limit: int = MAX_ERROR_MESSAGE
) -> str:
    """A sentence of the server for a frame: rendered in the reader's language (its accents
    kept), characters that are not printable (controls, bidi overrides) made ?, at most `limit`
    characters. What it quotes of a client's input was clipped where it was quoted."""
    text = render(message, language)
    safe = "".join(c if c == " " or c.isprintable() else "?" for c in text)
    return safe if len(safe) <= limit else safe[: limit - 3] + "..."


class ErrorFrame(Frame):
    """A refusal: nothing changed. `code` is stable (the catalog below); `message` is for people,
    short, in the account's language (English, French, Danish or Croatian: docs/languages.md),
    and never echoes what the client sent beyond a few safe characters."""

    type: Literal["error"] = "error"
    request_id: str | None = None
    code: ErrorCode
    message: str = Field(max_length=MAX_ERROR_MESSAGE)
    fields: list[str] | None = Field(
        default=None,
        max_length=20,
        description="the fields of the action the refusal is about, camelCase as sent (for "
        "invalid_settings the settings involved; `account`: the player's account limits), so "
        "that a client shows the message where the field is",
    )


class DisconnectedFrame(Frame):
    """Sent to a connection before the server closes it: `replaced` by a newer connection of the
    same player (connecting again would take the seat back from it), `session_expired`, its
    sign-in token having expired (connect again with a fresh one), `signed_out`: the account
    was signed out everywhere (a password reset, a deletion, a ban, or the player's own
    request), and its token no longer works (sign in again), or `signed_in_elsewhere`: the
    player signed in on another device, which ends this one's session (product A2: its token
    no longer works; signing in here again ends the other's). `reason` is for people, in the
    account's language."""

    type: Literal["disconnected"] = "disconnected"
    code: Literal["replaced", "session_expired", "signed_out", "signed_in_elsewhere"]
    reason: str


class ReplayAnnouncementView(Frame):
    column: str
    row: str
    after_roll: int


class ReplayWriteView(Frame):
    column: str
    row: str
    score: int
    auto: bool = Field(description="written by the server when the clock ran out")


class ReplayTurnView(Frame):
    number: int = Field(description="1-based, in the order the turns ended")
    player_id: str
    rolls: list[RollView]
    announcement: ReplayAnnouncementView | None = None
    proposal: ReplayWriteView | None = Field(
        default=None, description="2 vs 2: the first player's proposal (the cell left empty)"
    )
    write: ReplayWriteView | None = Field(
        default=None, description="None: the turn ended without a write (its player left)"
    )
    regret: float | None = Field(
        default=None,
        description="Yahtzee-family grids: the expected points this turn's keeps and box lost "
        "against the optimal solitaire player (0: an optimal turn); Yamb: against the hard "
        "bot's choices (`against`)",
    )


class ReplayFrame(Frame):
    """One part of the answer to `replay`: the finished game's turns `first` to
    `first + len(turns) - 1` of `total`, in parts `part` of `parts`, each under 32 KB."""

    type: Literal["replay"] = "replay"
    request_id: str
    game_id: str
    part: int
    parts: int
    total: int
    first: int
    settings: GameSettings
    players: list[str]
    nicknames: list[str | None] | None = Field(
        default=None,
        description="each player's name at the table, in the order of players (absent once the "
        "game's item has expired and only its record is left)",
    )
    winners: list[str]
    outcome: str | None
    turns: list[ReplayTurnView]
    regret: dict[str, float] | None = Field(
        default=None,
        description="Yahtzee-family grids and Yamb: each player's regret over the whole game",
    )
    against: Literal["optimal", "hard"] | None = Field(
        default=None,
        description="what regret and luck are measured against: the optimal solitaire player "
        "(family grids) or the hard bot's choices (Yamb without a Directed column, not 2 vs 2)",
    )
    expected: float | None = Field(
        default=None,
        description="Yahtzee-family grids: the optimal player's average score from an empty "
        "sheet; Yamb: the hard bot's expected total of an empty sheet",
    )
    expected_by: dict[str, float] | None = Field(
        default=None,
        description="Yamb: each player who finished, what the hard bot expects turn by turn "
        "from the sheets they had; a total is expectedBy - regret + luck",
    )
    luck: dict[str, float] | None = Field(
        default=None,
        description="the points the dice gave (below 0: took) each player who finished, "
        "against an average game; a total is expected (Yamb: expectedBy) - regret + luck",
    )


class ChatFrame(Frame):
    """A game-chat message, to every player and spectator at the table (the sender's copy
    carries their requestId: the answer to their `chat`)."""

    type: Literal["chat"] = "chat"
    request_id: str | None = None
    game_id: str
    sender: str
    nickname: str | None = Field(default=None, description="the sender's nickname")
    spectator: bool = Field(description="the sender watches the game rather than plays in it")
    text: str
    sent_at: datetime


class ChatLine(Frame):
    """One line of a game's chat as kept for `chat_history`."""

    sender: str
    nickname: str | None = None
    spectator: bool
    text: str
    sent_at: datetime


class ChatHistoryFrame(Frame):
    """The answer to `chat_history`: the game's last lines, oldest first (at most
    yamb.chat.HISTORY_LINES, kept as long as the game's item)."""

    type: Literal["chat_history"] = "chat_history"
    request_id: str
    game_id: str
    messages: list[ChatLine]


class Pong(Frame):
    """The answer to `ping`."""

    type: Literal["pong"] = "pong"
    request_id: str


class HintFrame(Frame):
    """The answer to `hint`: the move the `level` bot would make now. `move` is `roll` (hold
    the dice at `keep`, 0-based positions, and roll the rest), `announce` or `write` (the
    cell)."""

    type: Literal["hint"] = "hint"
    request_id: str
    game_id: str
    level: str
    weaker_than: str | None = Field(
        default=None,
        description="when a weaker level answered: the level that should have (the optimal "
        "player, whose table is not built where the server runs); null when the strongest "
        "level for the grid answered",
    )
    move: Literal["roll", "announce", "write"]
    keep: list[int] | None = None
    column: str | None = None
    row: str | None = None


class RematchFrame(Frame):
    """To the other players of an ended game: one of them opened a table for a rematch, with
    the same settings; join it (join_game with its gameId) to accept."""

    type: Literal["rematch"] = "rematch"
    game_id: str = Field(description="the new table")
    from_game_id: str = Field(description="the game that has ended")
    by: str = Field(description="the player who asks for the rematch (the new table's creator)")
    nickname: str | None = Field(default=None, description="their nickname")


class GameDeletedFrame(Frame):
    type: Literal["game_deleted"] = "game_deleted"
    game_id: str


class MessageView(Frame):
    """A private message, or a line of the general chat."""

    id: str
    sender: str = Field(description="the sender's nickname")
    text: str
    sent_at: datetime
    mine: bool = Field(default=False, description="the reader sent it")
    club: TagView | None = Field(default=None, description="the sender's main club's tag (C1)")


class MessageFrame(Frame):
    """A private message: to its recipient when it arrives, and to its sender (with their
    requestId) as the answer to `send_message`."""

    type: Literal["message"] = "message"
    request_id: str | None = None
    nickname: str = Field(description="the other player's nickname")
    message: MessageView


class ConversationView(Frame):
    nickname: str = Field(description="the other player's nickname")
    last_text: str
    last_at: datetime
    unread: int


class ConversationsFrame(Frame):
    """The answer to `conversations` and `close_conversation`: newest first."""

    type: Literal["conversations"] = "conversations"
    request_id: str
    conversations: list[ConversationView]


class ConversationFrame(Frame):
    """The answer to `conversation`: its messages, oldest first; `before` asks for older ones
    (null: none left)."""

    type: Literal["conversation"] = "conversation"
    request_id: str
    nickname: str = Field(description="the other player's nickname")
    messages: list[MessageView]
    before: str | None = None


class GeneralChatFrame(Frame):
    """General chat lines, oldest first: the window to `general_chat_open`, the sender's own
    line to `general_chat`, and the batches to every connection that has it open (a line may
    come twice: its id tells)."""

    type: Literal["general_chat"] = "general_chat"
    request_id: str | None = None
    lines: list[MessageView]


class ClubChatFrame(Frame):
    """A line of a club's chat, or an announcement, to every member connected (and to the
    sender, with their requestId, as the answer to `club_chat`)."""

    type: Literal["club_chat"] = "club_chat"
    request_id: str | None = None
    club_id: str
    announcement: bool = False
    line: MessageView


class ClubInvitationFrame(Frame):
    """A club's invitation, to the invitee when they are connected (it also waits in their list
    of clubs: `GET /me/clubs`); answered over HTTP (`POST /me/clubs/invitations/{clubId}`)."""

    type: Literal["club_invitation"] = "club_invitation"
    club_id: str
    name: str
    tag: TagView
    by: str = Field(description="the inviter's nickname")


class InvitationView(Frame):
    invitation_id: str
    game_id: str
    by: str = Field(description="the inviter's nickname")
    to: str = Field(description="the invitee's nickname")
    sent_at: datetime
    expires_at: datetime
    settings: GameSettings | None = Field(default=None, description="the table's settings")


class InvitationFrame(Frame):
    """An invitation to a table: to the invitee (answer with `answer_invitation`), and to the
    inviter as the answer to `invite`."""

    type: Literal["invitation"] = "invitation"
    request_id: str | None = None
    invitation: InvitationView


class InvitationAnswerFrame(Frame):
    """To the inviter: the invitee's answer (a Yes has seated them at the table)."""

    type: Literal["invitation_answer"] = "invitation_answer"
    invitation_id: str
    game_id: str
    nickname: str = Field(description="the invitee's nickname")
    accepted: bool


class InvitationWithdrawnFrame(Frame):
    """To the invitee and, with its requestId, to the inviter: the invitation is taken back."""

    type: Literal["invitation_withdrawn"] = "invitation_withdrawn"
    request_id: str | None = None
    invitation_id: str


class TournamentGameFrame(Frame):
    """To a tournament's entrant: their next game is made and started (docs/competition.md)."""

    type: Literal["tournament_game"] = "tournament_game"
    tournament_id: str
    game_id: str


class InvitationsFrame(Frame):
    """The answer to `invitations` and to a No: the caller's pending invitation (null: none)."""

    type: Literal["invitations"] = "invitations"
    request_id: str
    received: InvitationView | None = None


class FairplayCheckFrame(Frame):
    """To one player only (S7): a "not a robot" check. Tap a die showing `face` among `dice`
    (answer with `fairplay_answer`) before `deadline`; until then their moves are refused with
    `fairplay_check`. Sent again with that refusal."""

    type: Literal["fairplay_check"] = "fairplay_check"
    game_id: str
    check_id: str
    dice: list[int]
    face: int
    question: str = Field(description="the question, in the player's language")
    deadline: datetime
    seconds: int = Field(description="the time to answer, from when the check was put")


class FairplayResultFrame(Frame):
    """To one player only: their check passed, or a yellow card (a wrong die, or no answer in
    time); `cards` of `cardsToBan` so far, `banned` at the last one."""

    type: Literal["fairplay_result"] = "fairplay_result"
    game_id: str
    check_id: str
    passed: bool
    cards: int
    cards_to_ban: int
    banned: bool
    message: str = Field(description="what happened, in the player's language")


ServerFrame = Annotated[
    Ack
    | GameFrame
    | GameListFrame
    | ErrorFrame
    | DisconnectedFrame
    | GameDeletedFrame
    | RematchFrame
    | DiceRecordFrame
    | HistoryFrame
    | ChatFrame
    | ReplayFrame
    | HintFrame
    | ChatHistoryFrame
    | Pong
    | MessageFrame
    | ConversationsFrame
    | ConversationFrame
    | GeneralChatFrame
    | ClubChatFrame
    | ClubInvitationFrame
    | InvitationFrame
    | InvitationAnswerFrame
    | InvitationWithdrawnFrame
    | InvitationsFrame
    | TournamentGameFrame
    | FairplayCheckFrame
    | FairplayResultFrame,
    Field(discriminator="type"),
]
SERVER_FRAMES: TypeAdapter[ServerFrame] = TypeAdapter(
    ServerFrame, config=ConfigDict(defer_build=True)
)


def encode(frame: Frame) -> str:
    # Nulls are sent: an absent field would read as its default (turnSeconds null is unlimited).
    return frame.model_dump_json(by_alias=True)
