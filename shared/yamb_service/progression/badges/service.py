"""Badges (E8): counted as things happen, paid at login.

Where each badge's count comes from (docs/progression.md, "Badges"):
- finished games (`record_game`, from the table's stream): Champion, Veteran, Sociable, Master,
  Poker, Aces, into the player's counts, once per game and player (the game's marker);
- the weekly tasks (the week's all-tasks bonus: Weekly challenge) and the referral (an invitee's
  first qualifying ranked game: Recruiter) add to the counts themselves;
- the economy, in the wallet transaction of the gift or the purchase: Benefactor (tokens given,
  as tokens or premium) and Premium seniority (premium days bought for oneself or received);
- read when paying: Collector (the cosmetics in the wardrobe: a short, bounded list) and the
  monthly boards (the prize awards the results keep: a few a month at most).

`pay_due` pays each level reached and not paid yet, one wallet change per level under the key
`badge:<badge>:<level>:<player>` with the level paid written in the same transaction: a second
login, or two racing, pay nothing more. Pioneer is given at verification (`enrol_pioneer`)."""

from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from aws_lambda_powertools.metrics import MetricUnit
from yamb.accounts.nicknames import MAX_NICKNAME_CHARS
from yamb.accounts.profile import AccountStatus, Profile
from yamb.i18n import DEFAULT_LANGUAGE, Language, Text
from yamb.progression import badges
from yamb.progression.badge_messages import (
    BadgesView,
    BadgeView,
    PaidView,
    PioneerView,
    PublicBadgesView,
    PublicBadgeView,
)
from yamb.progression.badges import BADGE_IDS, BadgeId, GameTally
from yamb.progression.errors import ProgressionError
from yamb.progression.words import said

from yamb_service.accounts.ports import Profiles
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger, metrics
from yamb_service.economy.ports import Change, WalletStore, WardrobeStore
from yamb_service.progression.badges.ports import (
    PLAYED_TTL,
    BadgeStore,
    opponent_marker,
    played_marker,
)

if TYPE_CHECKING:  # types only: the session's models and the results' ports are not imported
    # at run time (an account function enrols a pioneer without them)
    from yamb.session.results import GameResult

    from yamb_service.results.ports import ResultsStore

# The levels one call pays at most: a login is answered within Cognito's 5 seconds whatever a
# player has gathered (the rest is paid at the next login or on the badges page).
MAX_PAID_PER_CALL = 10
# A game's record that met another game's markers is read again this often.
ATTEMPTS = 12
_VISIBLE = (AccountStatus.ACTIVE, AccountStatus.DELETING, AccountStatus.BANNED)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class BadgeService:
    def __init__(
        self,
        store: BadgeStore,
        wallets: WalletStore,
        accounts: Profiles,
        now: Callable[[], datetime] = _utc_now,
        *,
        results: "ResultsStore",
        wardrobes: WardrobeStore,
    ) -> None:
        self.store = store
        self.wallets = wallets
        self.accounts = accounts
        self.now = now
        self.results = results
        self.wardrobes = wardrobes

    # -------------------------------------------------------------- finished games

    def record_game(self, ended: "GameResult") -> None:
        """The game's badge counts, for each person of a game that counts (none for solo or
        bot games), once: a repeated or concurrent delivery adds nothing more."""
        recorded = 0
        for tally in badges.game_tallies(ended):
            recorded += self._record(ended.game_id, tally)
        if recorded:
            metrics.add_metric(name="BadgeCountsRecorded", unit=MetricUnit.Count, value=recorded)

    def _record(self, game_id: str, tally: GameTally) -> int:
        wanted: list[tuple[str, datetime | None]] = [
            (opponent_marker(opponent), None) for opponent in sorted(tally.opponents)
        ]
        if tally.day is not None:
            day_end = datetime.combine(tally.day, time(), UTC) + timedelta(days=1)
            wanted.append((played_marker(tally.day.isoformat()), day_end + PLAYED_TTL))
        for attempt in range(ATTEMPTS):
            present = self.store.present(tally.player_id, (sk for sk, _ in wanted))
            new = [(sk, expires) for sk, expires in wanted if sk not in present]
            adds: dict[str, int] = {
                "champion": tally.champion,
                "master": tally.master,
                "poker": tally.poker,
                "aces": tally.aces,
                "veteran": sum(1 for sk, _ in new if sk.startswith("PLAYED#")),
                "sociable": sum(1 for sk, _ in new if sk.startswith("OPPONENT#")),
            }
            if not any(adds.values()) and not new:
                return 0
            outcome = self.store.record(game_id, tally.player_id, adds, new, self.now())
            if outcome == "recorded":
                return 1
            if outcome == "recorded_before":
                return 0
            self.store.pause(attempt)
        raise ServiceBusyError()

    # -------------------------------------------------------------- counts and payment

    def counts(self, player_id: str) -> dict[BadgeId, int]:
        """Every badge's count for the player."""
        stored = self.store.counts(player_id)
        found: dict[BadgeId, int] = {badge: stored.get(badge, 0) for badge in BADGE_IDS}
        found["collector"] = len(self.wardrobes.wardrobe(player_id).owned)
        found.update(badges.award_counts(self.results.awards(player_id)))
        return found

    def pay_due(self, player_id: str, now: datetime) -> list[PaidView]:
        """Each level reached and not paid yet, paid once (up to MAX_PAID_PER_CALL of them,
        lowest first); what this call paid (a level a racing call paid is not in it)."""
        counts = self.counts(player_id)
        paid, _ = self.store.held(player_id)
        return self._pay(player_id, badges.due(counts, paid), now)

    def _pay(self, player_id: str, owed: list[badges.Due], now: datetime) -> list[PaidView]:
        catalogue = badges.catalogue()
        done: list[PaidView] = []
        for due in owed[:MAX_PAID_PER_CALL]:
            name = catalogue.level_name(due.level) or str(due.level)
            applied = self.wallets.change(
                due.key(player_id),
                [Change(player_id, due.tokens, "badge", detail=f"badge {due.badge} {name}")],
                now,
                also=[self.store.paid_part(player_id, due.badge, due.level)],
            )
            if applied.written:
                done.append(
                    PaidView(badge=due.badge, level=due.level, level_name=name, tokens=due.tokens)
                )
        if done:
            metrics.add_metric(name="BadgeLevelsPaid", unit=MetricUnit.Count, value=len(done))
            logger.info("badge levels paid", levels=[f"{p.badge}:{p.level}" for p in done])
        return done

    # -------------------------------------------------------------- views

    def mine(self, player_id: str, language: Language = DEFAULT_LANGUAGE) -> BadgesView:
        """The player's badges, after paying what is due (a player who stays signed in, on
        refreshed tokens, passes no login: this page pays them); their words in `language`."""
        counts = self.counts(player_id)
        paid_levels, pioneer = self.store.held(player_id)
        paid = self._pay(player_id, badges.due(counts, paid_levels), self.now())
        for done in paid:
            paid_levels[done.badge] = max(paid_levels.get(done.badge, 0), done.level)
        catalogue = badges.catalogue()
        views = []
        for rule in catalogue.badges:
            count = counts[rule.id]
            level = max(rule.level_of(count), paid_levels.get(rule.id, 0))
            following = rule.next_threshold(level)
            views.append(
                BadgeView(
                    badge=rule.id,
                    title=said(rule.title, language),
                    does=said(rule.does, language),
                    level=level,
                    level_name=catalogue.level_name(level),
                    count=count,
                    next_threshold=following,
                    next_reward=None if following is None else rule.reward(level + 1),
                )
            )
        return BadgesView(badges=views, pioneer=self._pioneer(pioneer, language), paid=paid)

    def of_player(self, nickname: str, language: Language = DEFAULT_LANGUAGE) -> PublicBadgesView:
        """Another player's badges reached, with their levels (no counts), in the reader's
        `language`."""
        profile = self._player(nickname)
        counts = self.counts(profile.player_id)
        paid_levels, pioneer = self.store.held(profile.player_id)
        catalogue = badges.catalogue()
        shown = []
        for rule in catalogue.badges:
            level = max(rule.level_of(counts[rule.id]), paid_levels.get(rule.id, 0))
            if level:
                shown.append(
                    PublicBadgeView(
                        badge=rule.id,
                        title=said(rule.title, language),
                        level=level,
                        level_name=catalogue.level_name(level) or str(level),
                    )
                )
        return PublicBadgesView(
            nickname=profile.nickname, badges=shown, pioneer=self._pioneer(pioneer, language)
        )

    def _pioneer(self, number: int | None, language: Language) -> PioneerView | None:
        if number is None:
            return None
        return PioneerView(title=said(badges.catalogue().pioneer.title, language), number=number)

    def _player(self, nickname: str) -> Profile:
        missing = ProgressionError(
            Text("no player is called '{nickname}'", nickname=nickname[:40]),
            code="unknown_player",
            field="nickname",
        )
        if not 0 < len(nickname) <= MAX_NICKNAME_CHARS:  # no key to read: no one has it
            raise missing
        owner = self.accounts.nickname_owner(nickname)
        profile = self.accounts.get(owner) if owner is not None else None
        if profile is None or profile.status not in _VISIBLE:
            raise missing
        return profile

    # -------------------------------------------------------------- Pioneer

    def enrol_pioneer(self, player_id: str, now: datetime) -> int | None:
        """At verification (AccountService.on_verified): Pioneer with its number for one of the
        first verified players; None for the others, and for a repeat."""
        number = self.store.enrol_pioneer(player_id, badges.pioneer_places())
        if number is not None:
            metrics.add_metric(name="PioneerGiven", unit=MetricUnit.Count, value=1)
            logger.info("pioneer badge given", player_id=player_id, number=number)
        return number
