"""Referral (E7) as pure rules: the codes, the reward schemes, which games count and which weeks
are paid.

A player's code is 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L, nor U),
read case-insensitively. A player takes one referrer, ever. The inviter is paid
VERIFICATION_REWARD once the invitee's e-mail is verified. The invitee's first qualifying ranked
game starts the referral: the inviter then has PICK_WINDOW to choose a scheme, after which the
default one holds. A scheme covers the N consecutive ISO weeks (UTC) starting with the week of
that first game, and pays each of them once if the invitee played a qualifying ranked game in it.

A qualifying game (for one invitee): ranked, every seat a person (a bot anywhere: none counts),
ended after the referrer was taken, the invitee played a turn in it, and someone at the table
is neither the invitee nor their inviter (games between the two of them do not count)."""

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict

from yamb.i18n import Text
from yamb.progression.errors import ProgressionError
from yamb.results.periods import Period, week_of

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult

# Without 0/O, 1/I/L (read alike) and U (fewer words by chance): 30 characters, 8 of them are
# 6.5e11 codes, so a random one is almost never taken and a guessed one almost never exists.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
VERIFICATION_REWARD = 25
PICK_WINDOW = timedelta(days=7)

type SchemeName = Literal["short", "long"]
SCHEME_NAMES: tuple[SchemeName, ...] = get_args(SchemeName.__value__)


@dataclass(frozen=True, slots=True)
class Scheme:
    name: SchemeName
    weeks: int
    tokens: int  # a week played

    @property
    def most(self) -> int:
        return self.weeks * self.tokens


SCHEMES: dict[SchemeName, Scheme] = {
    "short": Scheme("short", weeks=4, tokens=50),
    "long": Scheme("long", weeks=52, tokens=25),
}
# When the inviter does not choose: the short one, the smaller promise (200 tokens at most, not
# 1300) to an inviter who did not look, settled within a month of the first game.
DEFAULT_SCHEME: SchemeName = "short"
LONGEST_WEEKS = max(scheme.weeks for scheme in SCHEMES.values())


def new_code(choose: Callable[[str], str] = secrets.choice) -> str:
    return "".join(choose(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """The code as stored (capitals), or None when it cannot be one (no read is needed)."""
    code = text.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def unknown_code(text: str) -> ProgressionError:
    return ProgressionError(
        Text("no player has the referral code '{code}'", code=text[:20]),
        code="unknown_referral_code",
        field="referralCode",
    )


def scheme_named(name: str) -> Scheme:
    if name not in SCHEMES:
        raise ProgressionError(
            Text(
                "unknown scheme '{name}': {scheme_names}",
                name=name[:20],
                scheme_names=" or ".join(SCHEME_NAMES),
            ),
            code="unknown_scheme",
            field="scheme",
        )
    return SCHEMES[name]


class Referral(BaseModel):
    """One invitee's referral: who invited them, when it started (the first qualifying ranked
    game) and the scheme chosen; the weeks played (of those a scheme can cover) and paid."""

    model_config = ConfigDict(frozen=True)

    invitee: str
    inviter: str
    taken_at: datetime
    started_at: datetime | None = None
    choose_by: datetime | None = None
    scheme: SchemeName | None = None
    played: frozenset[str] = frozenset()
    paid: frozenset[str] = frozenset()
    version: int = 0

    def started(self, at: datetime) -> "Referral":
        return self.model_copy(update={"started_at": at, "choose_by": at + PICK_WINDOW})


# ----------------------------------------------------------------------------- taking one


def check_referrer(
    invitee: str, inviter: str, existing: Referral | None, *, played_people: bool
) -> bool:
    """Whether `invitee` may take `inviter` now: True when it is new, False when it is the one
    taken before (a repeat); otherwise the error says why not."""
    if inviter == invitee:
        raise ProgressionError(
            Text("that is your own referral code"), code="own_referral_code", field="code"
        )
    if existing is not None:
        if existing.inviter == inviter:
            return False
        raise ProgressionError(
            Text("you were invited by someone already: a player has one referrer"),
            code="already_referred",
            field="code",
        )
    if played_people:
        raise ProgressionError(
            Text("a referrer is taken before one's first game against other players"),
            code="referral_closed",
            field="code",
        )
    return True


# ----------------------------------------------------------------------------- games


def may_qualify(ended: "GameResult") -> bool:
    """What a game must be for anyone at it (nothing to read when it is not): ranked, not
    cancelled (it counts for nobody, rules.md 8), two people or more, no bot."""
    players = ended.players
    return (
        ended.settings.ranked
        and ended.outcome != "cancelled"
        and len(players) >= 2
        and all(p.bot is None for p in players)
    )


def qualifies(ended: "GameResult", referral: Referral) -> bool:
    """Whether the game counts for this invitee: it may qualify, it ended once the referrer
    was taken, the invitee played a turn in it, and someone at the table is neither the
    invitee nor the inviter."""
    if not may_qualify(ended) or ended.ended_at < referral.taken_at:
        return False
    mine = [p for p in ended.players if p.player_id == referral.invitee]
    others = {p.player_id for p in ended.players} - {referral.invitee, referral.inviter}
    return any(p.turns > 0 for p in mine) and bool(others)


def scheme_weeks(started_at: datetime, weeks: int) -> list[Period]:
    """The `weeks` consecutive ISO weeks from the week of `started_at`."""
    first = week_of(started_at)
    assert first.start is not None
    return [week_of(first.start + timedelta(weeks=n)) for n in range(weeks)]


def scheme_in_force(referral: Referral, now: datetime) -> Scheme | None:
    """The chosen scheme, or the default once the window is over; None while it can still be
    chosen (or before the first game)."""
    if referral.scheme is not None:
        return SCHEMES[referral.scheme]
    if referral.choose_by is not None and (now >= referral.choose_by or referral.paid):
        return SCHEMES[DEFAULT_SCHEME]
    return None


def worth_marking(referral: Referral, week_id: str, at: datetime) -> bool:
    """Whether a week played (at `at`) is one a scheme may pay and not marked yet: of the
    scheme in force (chosen, or the default once the window is over), or the longest
    scheme's while it can still be chosen."""
    if referral.started_at is None or week_id in referral.played:
        return False
    scheme = scheme_in_force(referral, at)
    weeks = scheme.weeks if scheme is not None else LONGEST_WEEKS
    return week_id in {w.id for w in scheme_weeks(referral.started_at, weeks)}


# ----------------------------------------------------------------------------- choosing


def check_choice(referral: Referral, name: str, now: datetime) -> Scheme:
    """The scheme the inviter may choose now for this referral, or why not."""
    scheme = scheme_named(name)
    if referral.choose_by is None:
        raise ProgressionError(
            Text("the scheme is chosen once your invitee has played a ranked game"),
            code="no_scheme_to_choose",
            field="scheme",
        )
    if referral.scheme is not None:
        raise ProgressionError(
            Text("the {scheme} scheme was chosen already", scheme=referral.scheme),
            code="scheme_chosen",
            field="scheme",
        )
    if now >= referral.choose_by or referral.paid:
        raise ProgressionError(
            Text(
                "the scheme could be chosen until {until}: the {default_scheme} one holds",
                until=referral.choose_by.isoformat(),
                default_scheme=DEFAULT_SCHEME,
            ),
            code="scheme_window_over",
            field="scheme",
        )
    return scheme


# ----------------------------------------------------------------------------- paying


@dataclass(frozen=True, slots=True)
class WeekDue:
    week: str
    tokens: int


def due_weeks(referral: Referral, up_to: Period, now: datetime) -> list[WeekDue]:
    """The weeks to pay now: the scheme's weeks up to `up_to` that have ended, were played and
    are not paid yet; none while the scheme is not known (a week played meanwhile waits)."""
    scheme = scheme_in_force(referral, now)
    if scheme is None or referral.started_at is None or up_to.end is None:
        return []
    return [
        WeekDue(week.id, scheme.tokens)
        for week in scheme_weeks(referral.started_at, scheme.weeks)
        if week.end is not None
        and week.end <= min(up_to.end, now)
        and week.id in referral.played
        and week.id not in referral.paid
    ]


def skipped_in(referral: Referral, week: Period, now: datetime) -> bool:
    """Whether `week` is one of the scheme's weeks and the invitee did not play in it."""
    scheme = scheme_in_force(referral, now)
    if scheme is None or referral.started_at is None or week.id in referral.played:
        return False
    return week.id in {w.id for w in scheme_weeks(referral.started_at, scheme.weeks)}


# A game recorded late (the stream's redelivery) still counts within this after the last week.
SETTLE_GRACE = timedelta(days=7)


def settled(referral: Referral, up_to: Period, now: datetime) -> bool:
    """Whether a run that paid the weeks due up to `up_to` leaves nothing more to pay: the
    scheme is known and its last week is within `up_to` and ended a grace period ago (a week
    left unpaid then is one its inviter could not be paid for: a closed account)."""
    scheme = scheme_in_force(referral, now)
    if scheme is None or referral.started_at is None or up_to.end is None:
        return False
    last = scheme_weeks(referral.started_at, scheme.weeks)[-1]
    assert last.end is not None
    return last.end <= up_to.end and now >= last.end + SETTLE_GRACE
