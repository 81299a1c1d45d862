"""Fair play (S7), pure: the two signals that a player's play looks automated, the "not a robot"
check that either one brings, and the yellow cards (docs/social.md, "Fair play").

- **Decision times** (`DECISION_TIMES`): a decision is the time from the moment the server shows
  a player their dice (a turn's first roll, or the answer to a roll) to their next roll or
  write. Over the player's last `window` decisions (carried from game to game), the rule fires
  when their median is under the human floor (too fast) or their coefficient of variation
  (standard deviation / mean) is under `cv_below` (too regular). It needs `window` decisions, so
  a pattern must hold for that long (too long), never for a few moves.
- **Agreement with the optimal player** (`AGREEMENT`): on the Yahtzee-family grids, each keep
  and each box a player chooses is compared with the optimal solitaire player's
  (yamb.session.regret.turn_matches). Over the player's last `games` finished family games, it
  fires when they made at least `min_moves` choices in at least `min_games` games and matched
  the optimal player in at least `match_rate` of them.

Either signal brings a check, never a card: only a failed or ignored check is a yellow card,
and `CARDS_TO_BAN` of them ban the account. A passed check clears the signals for `CLEARED_FOR`.
"""

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

type Signal = Literal["decision_times", "agreement"]


@dataclass(frozen=True, slots=True)
class DecisionTimesRule:
    # The decisions judged: the latest, carried from game to game.
    window: int = 40
    # Too fast: the median decision under this many milliseconds (a person reads the dice, at
    # the very least, and moves a pointer: a quarter of a second is below anyone's floor).
    median_floor_ms: int = 400
    # Too regular: standard deviation / mean under this (people: 0.5 to 1.5, and never below 0.3
    # over forty decisions; a script's fixed pause with a little noise: 0.05).
    cv_below: float = 0.15


@dataclass(frozen=True, slots=True)
class AgreementRule:
    # The finished family games judged: the player's latest.
    games: int = 5
    min_games: int = 3
    # Choices made over those games (a Yahtzee game has 13 boxes and up to 26 keeps).
    min_moves: int = 90
    # The share of them that matched the optimal player's.
    match_rate: float = 0.97


DECISION_TIMES = DecisionTimesRule()
AGREEMENT = AgreementRule()

# Decisions kept per player (the window and a margin), in the record and in a game's seat.
DECISIONS_KEPT = 60
# A decision longer than this is a person thinking, away or talking: kept at this value, so
# that one long pause does not hide a script's regularity for the forty decisions after it.
DECISION_CAP_MS = 60_000

CHECK_SECONDS = 30
CARDS_TO_BAN = 3
CLEARED_FOR = timedelta(days=7)
# Dice shown in a check.
CHECK_DICE = 5


def decision_times_signal(
    decisions_ms: Sequence[int], rule: DecisionTimesRule = DECISION_TIMES
) -> Literal["too_fast", "too_regular"] | None:
    """Why the latest decisions look automated, or None (too few of them to judge, or human)."""
    if len(decisions_ms) < rule.window:
        return None
    judged = [min(ms, DECISION_CAP_MS) for ms in decisions_ms[-rule.window :]]
    if statistics.median(judged) < rule.median_floor_ms:
        return "too_fast"
    mean = statistics.fmean(judged)
    if mean <= 0 or statistics.pstdev(judged) / mean < rule.cv_below:
        return "too_regular"
    return None


class GameAgreement(BaseModel):
    """One finished family game of a player: the choices they made and those that matched."""

    game_id: str
    matched: int = Field(ge=0)
    moves: int = Field(ge=0)


def agreement_signal(games: Sequence[GameAgreement], rule: AgreementRule = AGREEMENT) -> bool:
    """Whether the latest games match the optimal player implausibly often."""
    judged = [game for game in games[-rule.games :] if game.moves > 0]
    moves = sum(game.moves for game in judged)
    if len(judged) < rule.min_games or moves < rule.min_moves:
        return False
    return sum(game.matched for game in judged) >= rule.match_rate * moves


class FairplayRecord(BaseModel):
    """A player's fair-play record (one item, yamb_service.social.fairplay)."""

    # The latest decisions (milliseconds), oldest first.
    decisions: list[int] = Field(default_factory=list)
    # The latest finished family games, oldest first.
    games: list[GameAgreement] = Field(default_factory=list)
    # A signal found at a game's end, to be checked in the player's next game.
    suspect: Signal | None = None
    cleared_until: datetime | None = None
    cards: int = 0
    # The checks that gave a card (the latest): a card is given once per check.
    carded: list[str] = Field(default_factory=list)
    checks_passed: int = 0
    banned: bool = False

    def cleared(self, now: datetime) -> bool:
        return self.cleared_until is not None and now < self.cleared_until

    def with_decisions(self, decisions_ms: Sequence[int]) -> "FairplayRecord":
        kept = [*self.decisions, *decisions_ms][-DECISIONS_KEPT:]
        return self.model_copy(update={"decisions": kept})

    def with_game(self, game: GameAgreement) -> "FairplayRecord":
        games = [g for g in self.games if g.game_id != game.game_id]
        return self.model_copy(update={"games": [*games, game][-AGREEMENT.games :]})

    def judged(self, now: datetime) -> "FairplayRecord":
        """The signal the record shows now, kept as `suspect` until a check settles it."""
        if self.cleared(now):
            return self.model_copy(update={"suspect": None})
        if self.suspect is not None:
            return self
        if agreement_signal(self.games):
            return self.model_copy(update={"suspect": "agreement"})
        if decision_times_signal(self.decisions) is not None:
            return self.model_copy(update={"suspect": "decision_times"})
        return self

    def passed(self, now: datetime) -> "FairplayRecord":
        """A passed check: the signals are cleared for a while, and the evidence with them."""
        return self.model_copy(
            update={
                "suspect": None,
                "cleared_until": now + CLEARED_FOR,
                "decisions": [],
                "games": [],
                "checks_passed": self.checks_passed + 1,
            }
        )

    def carded_for(self, check_id: str) -> "FairplayRecord":
        """A yellow card for a failed or ignored check (once per check)."""
        if check_id in self.carded:
            return self
        cards = self.cards + 1
        return self.model_copy(
            update={
                "cards": cards,
                "carded": [*self.carded, check_id][-CARDS_TO_BAN * 2 :],
                "suspect": None,
                "banned": self.banned or cards >= CARDS_TO_BAN,
            }
        )


class Picker(Protocol):
    """Where a check's dice and question come from (secrets.SystemRandom on the server)."""

    def randint(self, a: int, b: int, /) -> int: ...

    def choice[T](self, seq: Sequence[T], /) -> T: ...


class FairplayCheck(BaseModel):
    """A "not a robot" check: tap a die showing `face` among `dice`, before `deadline`. The
    answer is verified here, never sent to another player."""

    check_id: str
    signal: Signal
    dice: list[int]
    face: int
    issued_at: datetime
    deadline: datetime

    def overdue(self, now: datetime) -> bool:
        return now >= self.deadline

    def passes(self, position: int, now: datetime) -> bool:
        return (
            not self.overdue(now)
            and 0 <= position < len(self.dice)
            and (self.dice[position] == self.face)
        )


def new_check(check_id: str, signal: Signal, now: datetime, pick: Picker) -> FairplayCheck:
    """Dice of their own (not the game's), and a face that shows on at least one of them."""
    dice = [pick.randint(1, 6) for _ in range(CHECK_DICE)]
    face = pick.choice(sorted(set(dice)))
    return FairplayCheck(
        check_id=check_id,
        signal=signal,
        dice=dice,
        face=face,
        issued_at=now,
        deadline=now + timedelta(seconds=CHECK_SECONDS),
    )


class FairplayStanding(BaseModel):
    """What a player sees of their own record (`GET /me/fairplay`): never the evidence."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    cards: int = Field(description="yellow cards: failed or ignored checks")
    cards_to_ban: int = Field(description="the cards that ban the account")
    checks_passed: int
    banned: bool


def standing_of(record: FairplayRecord) -> FairplayStanding:
    return FairplayStanding(
        cards=record.cards,
        cards_to_ban=CARDS_TO_BAN,
        checks_passed=record.checks_passed,
        banned=record.banned,
    )
