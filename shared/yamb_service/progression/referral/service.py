"""Referral (E7): a code and a link per player, one referrer per invitee, the inviter's rewards.

The code is made at the first look at it (GET /me/referral). A referrer is taken at
registration (the code checked before any account is made) or later by PUT /me/referrer, until
the player's first game against other people; the two then follow each other (favorites, within
their bound). Every reward is one wallet change under its own key, so a repeat pays nothing:
`referral:verified:<invitee>` when the invitee's e-mail is verified (or at once, when the
referrer is taken after that), `referral:week:<invitee>:<week>` for each week of the scheme the
invitee played a qualifying ranked game in, paid by the weekly job (`pay_week`).

`record_game` runs for every finished game (the table's stream, through the results function):
one read per person at a ranked table of people, and a write only for an invitee's week not
marked yet (the first one starts the referral and counts the inviter's Recruiter badge)."""

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from aws_lambda_powertools.metrics import MetricUnit
from yamb.accounts.nicknames import MAX_NICKNAME_CHARS
from yamb.accounts.profile import AccountStatus, Profile
from yamb.i18n import Text
from yamb.progression.errors import ProgressionError
from yamb.progression.referral import (
    VERIFICATION_REWARD,
    Referral,
    check_choice,
    check_referrer,
    due_weeks,
    may_qualify,
    new_code,
    normal_code,
    qualifies,
    scheme_in_force,
    scheme_named,
    scheme_weeks,
    settled,
    skipped_in,
    unknown_code,
    worth_marking,
)
from yamb.progression.referral_messages import InviteeView, ReferralView, ReferrerView
from yamb.results.periods import Period, week_of

from yamb_service.accounts.ports import Profiles
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger, metrics
from yamb_service.economy.ports import Change, WalletStore
from yamb_service.progression.referral.ports import ReferralStore
from yamb_service.results import MAX_FAVORITES

if TYPE_CHECKING:  # types only: the session's models are not imported at run time (an account
    # function takes a referral without them)
    from yamb.session.results import GameResult

    from yamb_service.results.ports import ResultsStore

# A race lost (another game's record, a choice at the same moment) is read again this often.
ATTEMPTS = 5
# A drawn code another player holds is drawn again (1 chance in 6.5e11 a code held).
CODE_ATTEMPTS = 5
_BATCH = 100
TAKE_ATTEMPTS = 5  # a transaction that only met another is tried again
# Who may be paid (as prizes: a deleting account may still come back) and whose code works.
_PAYABLE = (AccountStatus.ACTIVE, AccountStatus.DELETING)
_GONE = (AccountStatus.PURGING, AccountStatus.DELETED)


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class ReferralPayout:
    """What one run of `pay_week` did (the weekly job's answer and logs)."""

    week: str
    referrals: int = 0  # started and not settled, looked at
    paid: int = 0  # weeks paid now
    tokens: int = 0  # what they paid
    already_paid: int = 0  # weeks found paid by their key (a run at the same time)
    skipped: int = 0  # this week is one of the scheme's and the invitee did not play in it
    waiting: int = 0  # the scheme can still be chosen: weeks played wait for it
    unpaid: int = 0  # weeks due to a closed account: not paid
    settled: int = 0  # referrals with nothing more to pay, taken off the index
    failed: int = 0  # referrals whose payment failed (logged): the next run pays them


class ReferralService:
    def __init__(
        self,
        store: ReferralStore,
        results: "ResultsStore",
        accounts: Profiles,
        wallets: WalletStore,
        now: Callable[[], datetime] = _utc_now,
        *,
        web_base_url: str,
        codes: Callable[[], str] = new_code,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store = store
        self.results = results
        self.accounts = accounts
        self.wallets = wallets
        self.now = now
        self.web_base_url = web_base_url.rstrip("/")
        self.codes = codes
        self.sleep = sleep

    # -------------------------------------------------------------- the code and the view

    def code(self, player_id: str) -> str:
        """The player's code, made at the first call."""
        code = self.store.code_of(player_id)
        for _ in range(CODE_ATTEMPTS):
            if code is not None:
                return code
            drawn = self.codes()
            made = self.store.make_code(player_id, drawn)
            if made == "made":
                return drawn
            if made == "had_one":
                code = self.store.code_of(player_id)
        raise ServiceBusyError()

    def link(self, code: str) -> str:
        return f"{self.web_base_url}/?ref={code}"

    def referral(self, player_id: str) -> ReferralView:
        code = self.code(player_id)
        mine = self.store.referral(player_id)
        invitees = self.store.invitees(player_id)
        referrals = self.store.referrals(invitees)
        profiles = self.accounts.profiles([*invitees, *([] if mine is None else [mine.inviter])])
        now = self.now()
        views = [
            _invitee_view(referrals[i], profiles[i], now)
            for i in invitees
            if i in referrals and i in profiles and profiles[i].status not in _GONE
        ]
        referrer = None if mine is None else profiles.get(mine.inviter)
        return ReferralView(
            code=code,
            link=self.link(code),
            referrer=None if referrer is None or referrer.status in _GONE else referrer.nickname,
            invitees=sorted(views, key=lambda v: v.nickname.casefold()),
        )

    # -------------------------------------------------------------- taking a referrer

    def inviter_of(self, code_text: str) -> str:
        """The player whose code this is (unknown_referral_code when none, or a closed
        account's): what registration checks before it makes anything."""
        code = normal_code(code_text)
        owner = None if code is None else self.store.owner_of(code)
        profile = None if owner is None else self.accounts.get(owner)
        if profile is None or profile.status not in _PAYABLE:
            raise unknown_code(code_text)
        return profile.player_id

    def refer(self, invitee: str, code_text: str, *, new_account: bool = False) -> Referral:
        """`invitee` takes the code's owner as referrer (again: the same answer), and the two
        follow each other; a verified invitee's reward is paid at once. `new_account`: an
        account registering, which has played nothing (no statistics to read)."""
        now = self.now()
        inviter = self.inviter_of(code_text)
        existing = self.store.referral(invitee)
        played = (
            not new_account
            and existing is None
            and inviter != invitee
            and self._played_people(invitee)
        )
        referral = existing
        for _ in range(TAKE_ATTEMPTS):
            if not check_referrer(invitee, inviter, referral, played_people=played):
                break
            taking = Referral(invitee=invitee, inviter=inviter, taken_at=now, version=1)
            if self.store.take(taking):
                referral = taking
                metrics.add_metric(name="ReferrerTaken", unit=MetricUnit.Count, value=1)
                logger.info("referrer taken", invitee=invitee, inviter=inviter)
                break
            # Another request took one meanwhile (the same one is a repeat), or the
            # transaction only met another: read again, and try again if nothing was taken.
            referral, played = self.store.referral(invitee), False
        if referral is None:
            raise ServiceBusyError()
        # Both follows, and the reward of a verified invitee, are idempotent: a repeat (after a
        # crash here) completes what is missing.
        self._follow(invitee, inviter)
        self._follow(inviter, invitee)
        profile = self.accounts.get(invitee)
        if profile is not None and profile.status != AccountStatus.UNVERIFIED:
            self._pay_verification(referral, now)
        return referral

    def take_referrer(self, invitee: str, code_text: str) -> ReferrerView:
        """PUT /me/referrer: `refer` for a signed-in player."""
        referral = self.refer(invitee, code_text)
        inviter = self.accounts.get(referral.inviter)
        return ReferrerView(referrer="" if inviter is None else inviter.nickname)

    def _played_people(self, player_id: str) -> bool:
        """Whether the player has finished a game against another person. Statistics do not
        tell ranked games apart, and a mark per ranked game would cost every game a write: the
        door closes at the first game against people, ranked or not."""
        stats = self.results.statistics([player_id]).get(player_id)
        return stats is not None and stats.wins + stats.losses > 0

    def _follow(self, player: str, favorite: str) -> None:
        """`player` follows `favorite`, unless their favorites are at their bound (the
        favorites board reads every favorite's row)."""
        followed = self.results.favorites(player)
        if favorite in followed:
            return
        if len(followed) >= MAX_FAVORITES:
            logger.info("referral follow left out: favorites full", player=player)
            return
        self.results.set_favorite(player, favorite, on=True)

    # -------------------------------------------------------------- the invitee verified

    def on_verified(self, player_id: str, now: datetime) -> None:
        """Called as an account is verified (AccountService.on_verified): pays the inviter of
        a referred player, once."""
        referral = self.store.referral(player_id)
        if referral is not None:
            self._pay_verification(referral, now)

    def _pay_verification(self, referral: Referral, now: datetime) -> None:
        inviter = self.accounts.get(referral.inviter)
        if inviter is None or inviter.status not in _PAYABLE:
            logger.warning("referral reward not paid: account closed", inviter=referral.inviter)
            return
        applied = self.wallets.change(
            f"referral:verified:{referral.invitee}",
            [
                Change(
                    referral.inviter,
                    VERIFICATION_REWARD,
                    "referral",
                    counterparty=referral.invitee,
                    detail="verified",
                )
            ],
            now,
        )
        if applied.written:
            metrics.add_metric(name="ReferralVerificationPaid", unit=MetricUnit.Count, value=1)

    def _payable(self, players: Iterable[str]) -> set[str]:
        profiles = self.accounts.profiles(players)
        return {p for p, profile in profiles.items() if profile.status in _PAYABLE}

    # -------------------------------------------------------------- games

    def record_game(self, ended: "GameResult") -> None:
        """Each referred person of a qualifying game: the week marked played, the referral
        started at the first one. Idempotent: marks are set members, the start is written on
        the version read (a repeat or a race finds it started and only marks)."""
        if not may_qualify(ended):
            return
        week = week_of(ended.ended_at).id
        for player_id in dict.fromkeys(p.player_id for p in ended.players):
            self._count(player_id, ended, week)

    def _count(self, invitee: str, ended: "GameResult", week: str) -> None:
        for _ in range(ATTEMPTS):
            referral = self.store.referral(invitee)
            if referral is None or not qualifies(ended, referral):
                return
            if referral.started_at is None:
                if self.store.start(referral, referral.started(ended.ended_at), week):
                    metrics.add_metric(name="ReferralStarted", unit=MetricUnit.Count, value=1)
                    logger.info("referral started", invitee=invitee, inviter=referral.inviter)
                    return
                continue  # started meanwhile (a repeat, another game): read it again
            if worth_marking(referral, week, ended.ended_at):
                self.store.mark_week(invitee, week)
            return
        raise ServiceBusyError()

    # -------------------------------------------------------------- the scheme

    def choose_scheme(
        self, inviter: str, invitee_nickname: str, scheme: str, now: datetime
    ) -> InviteeView:
        scheme_named(scheme)
        invitee = self._invitee(inviter, invitee_nickname)
        for attempt in range(ATTEMPTS):
            referral = self.store.referral(invitee.player_id)
            if referral is None or referral.inviter != inviter:
                raise _not_yours(invitee_nickname)
            chosen = check_choice(referral, scheme, now)
            after = referral.model_copy(
                update={"scheme": chosen.name, "version": referral.version + 1}
            )
            if self.store.choose(referral, after):
                logger.info("referral scheme chosen", invitee=invitee.player_id, scheme=scheme)
                return _invitee_view(after, invitee, now)
            self.sleep(0.01 * (attempt + 1))
        raise ServiceBusyError()

    def _invitee(self, inviter: str, nickname: str) -> Profile:
        owner = (
            self.accounts.nickname_owner(nickname)
            if 0 < len(nickname) <= MAX_NICKNAME_CHARS
            else None
        )
        profile = None if owner is None else self.accounts.get(owner)
        if profile is None or profile.status in _GONE:
            raise _not_yours(nickname)
        return profile

    # -------------------------------------------------------------- the weekly payment

    def pay_week(self, week: Period, now: datetime) -> ReferralPayout:
        """Pays, for every started referral, each week of its scheme up to `week` (the week
        that just ended) that the invitee played and that is not paid yet: exactly once each,
        by its key; none while the scheme can still be chosen (they wait, not lost). A
        referral with nothing left to pay leaves the index the run reads."""
        if week.kind != "week" or week.end is None:
            raise ValueError(f"a week is paid, not {week.id}")
        counts: Counter[str] = Counter()
        invitees = list(self.store.started_before(week.end))
        for start in range(0, len(invitees), _BATCH):
            referrals = self.store.referrals(invitees[start : start + _BATCH])
            payable = self._payable({r.inviter for r in referrals.values()})
            for referral in referrals.values():
                counts["referrals"] += 1
                try:
                    self._pay_referral(referral, week, now, payable, counts)
                except Exception:
                    # One referral's failure stops no other's: each week it owes stays
                    # unpaid (its key unused) and the next run pays it.
                    counts["failed"] += 1
                    metrics.add_metric(name="ReferralPaymentFailed", unit=MetricUnit.Count, value=1)
                    logger.exception("referral weeks not paid", invitee=referral.invitee)
        payout = ReferralPayout(week=week.id, **counts)
        logger.info(
            "referral weeks paid",
            week=week.id,
            paid=payout.paid,
            tokens=payout.tokens,
            already_paid=payout.already_paid,
            settled=payout.settled,
        )
        return payout

    def _pay_referral(
        self,
        referral: Referral,
        week: Period,
        now: datetime,
        payable: set[str],
        counts: Counter[str],
    ) -> None:
        if scheme_in_force(referral, now) is None:
            counts["waiting"] += 1
            return
        counts["skipped"] += skipped_in(referral, week, now)
        for due in due_weeks(referral, week, now):
            if referral.inviter not in payable:
                counts["unpaid"] += 1
                continue
            applied = self.wallets.change(
                f"referral:week:{referral.invitee}:{due.week}",
                [
                    Change(
                        referral.inviter,
                        due.tokens,
                        "referral",
                        counterparty=referral.invitee,
                        detail=f"week {due.week}",
                    )
                ],
                now,
                also=[self.store.paid_part(referral.invitee, due.week, referral.version)],
            )
            if applied.written:
                counts["paid"] += 1
                counts["tokens"] += due.tokens
                metrics.add_metric(name="ReferralWeekPaid", unit=MetricUnit.Count, value=1)
            else:
                counts["already_paid"] += 1
        if settled(referral, week, now):
            self.store.settle(referral.invitee)
            counts["settled"] += 1


def _not_yours(nickname: str) -> ProgressionError:
    return ProgressionError(
        Text("'{nickname}' is not a player you invited", nickname=nickname[:40]),
        code="not_your_invitee",
        field="nickname",
    )


def _invitee_view(referral: Referral, profile: Profile, now: datetime) -> InviteeView:
    scheme = scheme_in_force(referral, now)
    played = referral.played
    if scheme is not None and referral.started_at is not None:
        played = played & {w.id for w in scheme_weeks(referral.started_at, scheme.weeks)}
    return InviteeView(
        nickname=profile.nickname,
        verified=profile.status != AccountStatus.UNVERIFIED,
        started_at=referral.started_at,
        choose_by=referral.choose_by,
        scheme=None if scheme is None else scheme.name,
        can_choose=referral.choose_by is not None and scheme is None,
        weeks_played=len(played),
        weeks_paid=len(referral.paid),
    )
