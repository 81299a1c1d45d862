"""Tournaments (issue 32): what an operator or the schedule creates, who may enter, and how a
tournament moves from open to paid. Pure rules: the pairings are `yamb.competition.pairing`,
the points and standings `yamb.competition.standings`.

Three kinds, after Lichess's arena and Swiss and bridge's duplicate:
- **arena**: a time window in which every entrant who is there is paired as soon as they
  finish a game; points per result, more on a winning streak;
- **swiss**: a fixed number of rounds, each player paired with one of about the same score whom
  they have not met, an odd one out given a bye;
- **duplicate**: every entrant plays one game alone, within a window, on the same dice as
  everyone else (the tournament's deal, docs/dice.md); ranked by score: the same luck for all.

A tournament's dice are committed before it opens: `seed` is secret until it ends, its SHA-256
`commitment` is on the tournament's page from creation, and each game's seed is derived from it
(`game_seed`, `DEAL`): once revealed, anyone can check every game of the tournament against the
one commitment published before the first entry."""

import hashlib
import hmac
from datetime import datetime, timedelta
from typing import Any, Literal, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from yamb import fair_dice
from yamb.coded_error import CodedError
from yamb.errors import YambError
from yamb.i18n import Plural, Text
from yamb.settings import GameSettings, validate_settings

type Kind = Literal["arena", "swiss", "duplicate"]
KINDS: tuple[Kind, ...] = ("arena", "swiss", "duplicate")
# open: entries taken; running: games are played; finished: the last game ended, prizes due;
# paid: prizes paid (each once); cancelled: too few entrants at the start, fees refunded.
type Status = Literal["open", "running", "finished", "paid", "cancelled"]

# An arena's or a duplicate's window, and a Swiss's rounds (decided: configuration).
MIN_MINUTES, MAX_MINUTES = 5, 24 * 60
MIN_ROUNDS, MAX_ROUNDS = 2, 11
MAX_PRIZE_PLACES = 20
MAX_ENTRY_FEE = 10_000
MAX_PRIZE = 100_000
# Fewer entrants than this when it starts: the tournament is cancelled and fees refunded.
MIN_ENTRANTS: dict[Kind, int] = {"arena": 2, "swiss": 2, "duplicate": 1}
# A table's turn clock in tournaments: long enough to think, short enough for an arena.
TURN_SECONDS = 30
# The label that makes a duplicate tournament's dice one deal for every game (docs/dice.md).
DEAL = "deal"


class TournamentError(CodedError[str]):
    """A tournament request refused: `code` for clients, the sentence for people, and the HTTP
    status it answers with (409: the tournament's state forbids it)."""

    def __init__(self, message: Text | Plural | str, code: str, status: int = 409) -> None:
        super().__init__(message, code=code)
        self.status = status


class CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class TournamentPlan(CamelModel):
    """What an operator (or the schedule) chooses."""

    kind: Kind
    name: str = Field(min_length=3, max_length=60)
    starts_at: AwareDatetime
    # An arena's or a duplicate's window; a Swiss has rounds instead.
    minutes: int | None = Field(default=None, ge=MIN_MINUTES, le=MAX_MINUTES)
    rounds: int | None = Field(default=None, ge=MIN_ROUNDS, le=MAX_ROUNDS)
    # The game's rules (GameSettings' fields); seats, rank and clock are the tournament's.
    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": 1})
    # Its games rate (rules.md 6: a preset, 5 dice); a duplicate's solo games never do.
    ranked: bool = True
    entry_fee: int = Field(default=0, ge=0, le=MAX_ENTRY_FEE)
    prizes: list[int] = Field(default_factory=list, max_length=MAX_PRIZE_PLACES)
    # The schedule's slot, when the schedule made it (`yamb.competition.schedule`).
    series: str | None = Field(default=None, max_length=40)

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if self.kind == "swiss" and (self.rounds is None or self.minutes is not None):
            raise ValueError("a Swiss tournament has rounds, not minutes")
        if self.kind != "swiss" and (self.minutes is None or self.rounds is not None):
            raise ValueError("an arena or a duplicate tournament has minutes, not rounds")
        if any(prize < 1 or prize > MAX_PRIZE for prize in self.prizes):
            raise ValueError(f"each prize is 1 to {MAX_PRIZE} tokens")
        if self.prizes != sorted(self.prizes, reverse=True):
            raise ValueError("prizes go from the first place down, none above the one before")
        try:
            self.settings()  # the rules must make a game
        except YambError as error:
            raise ValueError(f"rules: {error}") from None
        return self

    def settings(self) -> GameSettings:
        """The settings of every game of the tournament: the plan's rules at the tournament's
        seats (2, or 1 for a duplicate's solo games), ranked and on its clock."""
        fixed = {
            "players": 1 if self.kind == "duplicate" else 2,
            "turnType": "turn_by_turn",
            "ranked": self.ranked and self.kind != "duplicate",
            "turnSeconds": TURN_SECONDS,
        }
        extra = set(self.rules) & {"players", "pairs", "turnType", "turn_type", "ranked"}
        if extra:
            raise ValueError(f"a tournament fixes {', '.join(sorted(extra))} itself")
        return validate_settings({**self.rules, **fixed})

    @property
    def ends_at(self) -> datetime | None:
        """An arena's or duplicate's window end (no game starts after it); None for a Swiss."""
        return None if self.minutes is None else self.starts_at + timedelta(minutes=self.minutes)


class Tournament(CamelModel):
    tournament_id: str
    plan: TournamentPlan
    status: Status = "open"
    created_at: AwareDatetime
    # Secret until the tournament ends (never in a view before): the dice of all its games.
    seed: str
    commitment: str
    round: int = 0  # a Swiss's round under way (0: none yet)
    entrants: int = 0
    finished_at: AwareDatetime | None = None
    announced: bool = False
    # A Swiss round's pairings chosen (with the round, in one write) whose games are not yet
    # written: a round of more pairings than one transaction takes is made in parts, and a run
    # that stops between them leaves the rest here for the next, never a round half-paired.
    pending: list[list[str]] = Field(default_factory=list)
    # Cancelled: every fee refunded (the refunds are retried by each run until then).
    refunded: bool = False
    version: int = 0

    @property
    def kind(self) -> Kind:
        return self.plan.kind

    @property
    def active(self) -> bool:
        """Whether the job still has something to do with it."""
        return self.status in {"open", "running", "finished"} or (
            self.status == "cancelled" and not self.refunded
        )

    @property
    def rounds(self) -> int:
        """A Swiss's rounds: the plan's, but never more than a round robin of its entrants has
        (then every round would repeat a game); 0 for the other kinds."""
        planned = self.plan.rounds or 0
        if not self.entrants:
            return planned
        return min(planned, self.entrants - 1 if self.entrants % 2 == 0 else self.entrants)


def new_tournament(
    tournament_id: str, plan: TournamentPlan, seed: str, now: datetime
) -> Tournament:
    """An open tournament whose dice are fixed by `seed` now (its commitment published)."""
    if plan.starts_at <= now:
        raise TournamentError(
            Text("a tournament starts in the future"), code="starts_in_the_past", status=400
        )
    return Tournament(
        tournament_id=tournament_id,
        plan=plan,
        created_at=now,
        seed=seed,
        commitment=fair_dice.commitment(seed),
    )


def game_seed(tournament_seed: str, label: str) -> str:
    """A game's server seed from the tournament's: HMAC-SHA256(seed, label) in hex, the label
    the game's id, or `DEAL` for every game of a duplicate tournament."""
    return hmac.new(bytes.fromhex(tournament_seed), label.encode(), hashlib.sha256).hexdigest()


def require_entry_open(tournament: Tournament, now: datetime) -> None:
    """Entries: while open, and into an arena's or a duplicate's window while it runs (a game
    is still to be had); a Swiss takes no one after its first round is paired."""
    status = tournament.status
    late = tournament.kind != "swiss" and status == "running"
    ends_at = tournament.plan.ends_at
    if status == "open" or (late and ends_at is not None and now < ends_at):
        return
    if status == "running" or (late and ends_at is not None):
        raise TournamentError(
            Text("this tournament has started: entries are closed"), code="tournament_started"
        )
    raise TournamentError(Text("this tournament is over"), code="tournament_over")


def due_to_start(tournament: Tournament, now: datetime) -> bool:
    return tournament.status == "open" and now >= tournament.plan.starts_at


def window_open(tournament: Tournament, now: datetime) -> bool:
    """Whether a game of the tournament may still start (arena, duplicate: its window)."""
    ends_at = tournament.plan.ends_at
    return tournament.status == "running" and (ends_at is None or now < ends_at)


def tournament_id_for(series: str, starts_at: datetime) -> str:
    """A scheduled tournament's id: its series and start, so a rerun of the schedule finds it."""
    return f"{series}-{starts_at:%Y%m%d%H%M}"


class TournamentGame(CamelModel):
    """A game of the tournament: its pairing, then its result."""

    game_id: str
    round: int = 0  # a Swiss's round; 0 elsewhere
    players: list[str]
    created_at: AwareDatetime
    # The table was made (a pairing whose table failed is made again by the next run).
    started: bool = False
    ended: bool = False
    # Its table could not be made (a player sat at another game): no result, no points.
    void: bool = False
    # A Swiss pairing whose table could not be made: who could sit won, who sat elsewhere lost.
    forfeit: bool = False
    totals: dict[str, int] = Field(default_factory=dict)
    winners: list[str] = Field(default_factory=list)
    version: int = 0


def tournament_game_id(tournament_id: str, serial: int) -> str:
    """The tournament's `serial`-th game's id (0 first): a run repeated after a failure makes
    the same table, never a second, and no two pairings share an id."""
    text = f"{tournament_id}/{serial}"
    return "t" + hashlib.sha256(text.encode()).hexdigest()[:19]
