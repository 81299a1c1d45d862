"""A live game as stored between actions: settings, seats, the engine's state, clocks, timers."""

import base64
import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from yamb import fair_dice
from yamb.economy.looks import Looks
from yamb.game import Game
from yamb.layout import layout_for
from yamb.settings import GameSettings
from yamb.snapshot import dump_game, load_game
from yamb.social.fairplay import FairplayCheck, Signal

# "deleted": a table removed before its start, kept a day so that a repeated request finds it.
type Status = Literal["waiting", "running", "finished", "cancelled", "deleted"]
# "deadline": a slow game's deadline passed with at least one sheet finished.
type Outcome = Literal[
    "completed", "resigned", "abandoned", "cancelled", "declined_finish", "deadline"
]

# A client repeats only its last few requests; each kept one costs bytes on every write.
RECENT_REQUESTS_KEPT = 16
# 72-bit keys and 48-bit fingerprints: a collision among 16 kept requests is out of reach.
_KEY_BYTES = 9
_FINGERPRINT_BYTES = 6


class TurnClock(BaseModel):
    """The clock of a turn: running until `deadline`, or frozen with `frozen_ms` left while its
    player is away. Neither is set when the turn has no clock."""

    deadline: datetime | None = None
    frozen_ms: int | None = None
    # The turn in which the clock was already resumed with the 5-second floor.
    floor_used_in_turn: int | None = None


class TurnSlot(Protocol):
    """What a turn keeps beside the engine's dice: its clock, the locked dice, the pending
    choice and when its player was given the dice (the time bonus). Turn by turn the game
    keeps one for the seat in turn; in a game of own turns every seat keeps its own (OwnTurn)."""

    clock: TurnClock
    locks: list[int]
    pending: tuple[int, int] | None
    decision_from: datetime | None
    announced_after: int | None


class OwnTurn(BaseModel):
    """A seat's own turn in simultaneous, each-for-themself and slow games (a TurnSlot)."""

    # The seat's turn number (its own count) while a turn is under way; 0 between turns.
    number: int = 0
    clock: TurnClock = Field(default_factory=TurnClock)
    locks: list[int] = Field(default_factory=list)
    pending: tuple[int, int] | None = None
    decision_from: datetime | None = None
    # The roll after which the turn's announcement was made (for its replay).
    announced_after: int | None = None
    # The dice record of the turn under way (FairPlay's turn form), added to the game's record
    # when the turn ends, so that the record holds whole turns whatever the others do meanwhile.
    dice_line: str | None = None


class PairsTurn(BaseModel):
    """A 2 vs 2 team turn beside the engine's (rules.md 7): which part is played (1: the first
    player, who proposes; 2: the partner, who writes), the proposal as (column, row, value),
    the Announced cells opened this team turn (binding nobody), and whether the partner's
    clock has run out into their 10 extra seconds with the dice locked."""

    part: Literal[1, 2] = 1
    proposal: tuple[int, int, int] | None = None
    # (column, row, the part that announced it)
    opened: list[tuple[int, int, int]] = Field(default_factory=list)
    grace: bool = False


class SeatFairplay(BaseModel):
    """What fair play (yamb.session.fairplay) keeps of a person's seat: their record as they sat
    down (read once then, so that a move reads nothing more), when their dice were shown, their
    decisions this game (milliseconds), and a "not a robot" check put to them."""

    # The record was read at the sit-down: only then is the seat judged.
    judged: bool = False
    carried: list[int] = Field(default_factory=list)
    suspect: Signal | None = None
    cleared_until: datetime | None = None
    shown_at: datetime | None = None
    decisions: list[int] = Field(default_factory=list)
    check: FairplayCheck | None = None


class Seat(BaseModel):
    player_id: str
    # The player's nickname when they sat down (the sign-in's), for clients to show.
    nickname: str | None = None
    # Their cosmetics then (None: none, or a game stored before them).
    looks: Looks | None = None
    # The player's live connection, kept here so that a broadcast needs no other read.
    connection_id: str | None = None
    present: bool = True
    left: bool = False
    # Left after playing a turn, by not coming back: an abandoned game in the statistics.
    abandoned: bool = False
    return_deadline: datetime | None = None
    # The player paused their turn (yamb.session.pausing): its clock is frozen, the return
    # deadline runs as if they were away; and the turn (its number) in which they last paused.
    paused: bool = False
    paused_in_turn: int | None = None
    # When the away player is mailed a return reminder (A8; yamb.session.reminders): once per
    # absence, in a slow game or at a waiting table; None once sent, or when present.
    remind_at: datetime | None = None
    # Milliseconds spent deciding, at a table with the time bonus (yamb.session.decisions).
    decision_ms: int = 0
    # The seat's own turn, in a game of own turns once it has started.
    own: OwnTurn | None = None
    # A bot's level (yamb.bots), None for a person; a bot has no connection and never leaves.
    bot: str | None = None
    # When the bot makes its next move (yamb.session.bot_turns): a deadline like any other.
    bot_due: datetime | None = None
    # Fair play (S7): None for a bot, and for a game stored before it (nothing measured yet).
    fairplay: SeatFairplay | None = None

    @property
    def away(self) -> bool:
        """Gone or paused: the return deadline runs."""
        return not self.present or self.paused


class Timers(BaseModel):
    """What the game knows of the timers that wake it (yamb.session.timers): the heartbeat lane
    that serves the turn clock, and the one-shot wakes started for other deadlines. A timer is
    named after the version of the write that started it, so a start repeated by a retry of
    that write is the same timer."""

    lane: int = 0
    lane_running: bool = False
    # When the lane wakes the game unless a heartbeat comes first: last heartbeat + its length.
    lane_fires_at: datetime | None = None
    # One-shot wakes started and still wanted: (the Unix second it wakes at, its id).
    wakes: list[tuple[int, int]] = Field(default_factory=list)


def request_key(player_id: str, request_id: str) -> str:
    digest = hashlib.sha256(f"{player_id}:{request_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:_KEY_BYTES]).decode()


def action_fingerprint(canonical_action: str) -> str:
    """Tells a repeat of an action from another action sent under the same requestId."""
    digest = hashlib.sha256(canonical_action.encode()).digest()
    return base64.urlsafe_b64encode(digest[:_FINGERPRINT_BYTES]).decode()


class FairPlay(BaseModel):
    """The game's verifiable dice (yamb.fair_dice): the secret seed, never in a frame or a log
    before the game ends, its commitment, the players' own seeds, and the dice record: per
    turn `seat:label:dice` and per later roll `;kept:dice` (digits), e.g. `0:3:35126;02:35146`."""

    server_seed: str
    commitment: str
    # The scheme the game's dice follow (docs/dice.md): games stored before /2 are /1.
    scheme: str = fair_dice.SCHEME_1
    # The seeds mixed into the key: under /3 the revealed ones, once every committed seed was
    # revealed or its deadline passed (before: added in the clear with `add_seed`).
    client_seeds: dict[str, str] = Field(default_factory=dict)
    # /3: each seated player's commitment (SHA-256 of their seed), sent while the table waits.
    commitments: dict[str, str] = Field(default_factory=dict)
    # While the reveals are open (after the start, before the first roll): the seeds revealed
    # so far, in no frame until they close, and when they close at the latest.
    reveals: dict[str, str] = Field(default_factory=dict)
    reveal_by: datetime | None = None
    # The players whose commitment was dropped, their seed not revealed by the deadline.
    withheld: list[str] = Field(default_factory=list)
    # What the key mixes in place of the game's id: a duplicate tournament's deal, the same
    # for all its games, so that they share their dice (docs/dice.md); None: the game's id.
    deal: str | None = None
    # The latest turns; the earlier ones are stored apart, in `archived_chunks` chunks.
    turns: list[str] = Field(default_factory=list)
    archived_chunks: int = 0

    def key(self, game_id: str) -> bytes:
        dealt = game_id if self.deal is None else self.deal
        return fair_dice.game_key(self.server_seed, dealt, self.client_seeds, self.scheme)

    def seat_of_dice(self, seat: int, same_dice: bool) -> int | None:
        """The seat that goes into a turn's dice, or None where the scheme binds none."""
        return seat if fair_dice.binds_seats(self.scheme, same_dice) else None

    @staticmethod
    def first_roll(seat: int, label: int, dice: tuple[int, ...]) -> str:
        return f"{seat}:{label}:{_digits(dice)}"

    @staticmethod
    def next_roll(line: str, kept: list[int], dice: tuple[int, ...]) -> str:
        return f"{line};{_digits(kept)}:{_digits(dice)}"

    @staticmethod
    def label_of(line: str) -> int:
        return int(line.split(":", 2)[1])


def _digits(values: Iterable[int]) -> str:
    return "".join(str(value) for value in values)


class GameSession(BaseModel):
    model_config = ConfigDict(validate_assignment=False)

    game_id: str
    version: int = 0
    created_at: datetime
    creator: str
    settings: GameSettings
    status: Status = "waiting"
    seats: list[Seat]
    # Turns started so far (1 for the first); actions may name the turn they are meant for.
    turn: int = 0
    engine: dict[str, Any] | None = None
    clock: TurnClock = Field(default_factory=TurnClock)
    # Dice positions the player in turn has locked; they stay locked until released.
    locks: list[int] = Field(default_factory=list)
    pending: tuple[int, int] | None = None
    # The last player left was offered to finish their sheet and has not answered yet.
    finish_offer: str | None = None
    # The turns that player had played when the others left: the 50% rule counts these, not
    # the ones played alone afterwards (rules.md 8).
    offered_turns: int | None = None
    solo_finish: bool = False
    winners: list[str] = Field(default_factory=list)
    outcome: Outcome | None = None
    ended_at: datetime | None = None
    timers: Timers = Field(default_factory=Timers)
    # (request key, action fingerprint, version stored by the write that applied it), oldest first.
    recent_requests: list[tuple[str, str, int]] = Field(default_factory=list)
    # A scorekeeping table (settings.physical_dice): the turns played, in the `yamb check`
    # record's turn form, and the dice and announcement typed in the turn under way.
    history: list[dict[str, Any]] = Field(default_factory=list)
    typed_rolls: list[list[int]] = Field(default_factory=list)
    typed_announcement: dict[str, Any] | None = None
    # When the seat in turn was given its dice, while the time bonus measures it.
    decision_from: datetime | None = None
    # The roll after which the turn's announcement was made (for its replay).
    announced_after: int | None = None
    # Verifiable dice; None for a game stored before they existed (its dice came from secrets).
    fair: FairPlay | None = None
    # A slow game's end, set when it starts (rules.md 7).
    slow_deadline: datetime | None = None
    # A 2 vs 2 game's team turn under way.
    pairs: PairsTurn | None = None
    # The tournament the table was made for (its seats are the pairing's, no one else's).
    tournament: str | None = None

    @property
    def awaiting_seeds(self) -> bool:
        """Started, its first roll waiting for the players' committed seeds (yamb.session.seeds)."""
        return self.fair is not None and self.fair.reveal_by is not None

    @property
    def own_turns(self) -> bool:
        """Every seat plays turns of its own (simultaneous, each for themself, slow)."""
        return self.settings.turn_type != "turn_by_turn"

    def slot(self, seat: int) -> TurnSlot:
        """What the turn of `seat` keeps beside its dice (see TurnSlot)."""
        if not self.own_turns:
            return self
        held = self.seats[seat]
        if held.own is None:
            held.own = OwnTurn()
        return held.own

    def engine_seat(self, seat: int) -> int:
        """The engine's seat of a seat: its team's in 2 vs 2 (seats 0-1 and 2-3 are teams)."""
        return seat // 2 if self.settings.pairs else seat

    def seat_in_turn(self, game: Game) -> int:
        """The seat whose move it is, turn by turn: in 2 vs 2 the team in turn's first player,
        then its second."""
        if self.settings.pairs:
            part = self.pairs.part if self.pairs is not None else 1
            return game.seat * 2 + part - 1
        return game.seat

    def close_own_turn(self, seat: int) -> None:
        """A seat's own turn ended (written, given up, or the game ended): its dice record
        joins the game's and its clock stops. Turn by turn the record is the game's all along."""
        own = self.seats[seat].own
        if not self.own_turns or own is None:
            return
        if own.dice_line is not None and self.fair is not None:
            self.fair.turns.append(own.dice_line)
        self.seats[seat].own = OwnTurn()

    # -- seats -----------------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return index
        return None

    @property
    def player_ids(self) -> list[str]:
        return [seat.player_id for seat in self.seats]

    @property
    def bot_ids(self) -> set[str]:
        return {seat.player_id for seat in self.seats if seat.bot is not None}

    @property
    def people(self) -> int:
        """The seats people hold (bots not counted)."""
        return sum(seat.bot is None for seat in self.seats)

    def remaining_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if not seat.left]

    @property
    def in_play(self) -> bool:
        return self.status in ("waiting", "running")

    # -- the engine ------------------------------------------------------------------------

    def new_game(self) -> Game:
        settings = self.settings
        layout = layout_for(settings.grid, settings.column_ids, settings.dice)
        # 2 vs 2: the engine plays one sheet per team, named after its first player.
        players = self.player_ids[::2] if settings.pairs else self.player_ids
        return Game(layout, players, own_turns=self.own_turns)

    def game(self) -> Game:
        if self.engine is None:
            raise ValueError("the game has not started")
        return load_game(self.engine)

    def store(self, game: Game) -> None:
        self.engine = dump_game(game)

    # -- idempotency -----------------------------------------------------------------------

    def remember(self, player_id: str, request_id: str, fingerprint: str) -> None:
        """Keeps the request with the version the coming write stores: a repeat of it gets the
        same answer."""
        key = request_key(player_id, request_id)
        kept = [entry for entry in self.recent_requests if entry[0] != key]
        kept.append((key, fingerprint, self.version + 1))
        self.recent_requests = kept[-RECENT_REQUESTS_KEPT:]

    def recalled(self, player_id: str, request_id: str) -> tuple[str, int] | None:
        """(fingerprint, version) of a request this game applied, if it is still kept."""
        key = request_key(player_id, request_id)
        for entry_key, fingerprint, version in self.recent_requests:
            if entry_key == key:
                return fingerprint, version
        return None
