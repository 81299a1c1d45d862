"""The account life cycle (product A1-A8; docs/accounts.md has a sequence per flow).

Cognito holds the password and signs the tokens; the profile item holds who the player is. Every
change of a profile is a conditional write on its version, read again and retried when another
request won; a flow that touches Cognito and the table orders its steps so that a crash between
them leaves nothing a player can see half-done (each step's comment says how).
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from yamb.accounts.emails import check_email, email_key
from yamb.accounts.errors import AccountError
from yamb.accounts.links import (
    Link,
    LinkKind,
    check_live,
    invalid_link,
    matches,
    new_link,
    token_owner,
)
from yamb.accounts.mail import ADDRESS_BOUNDS, MailKind
from yamb.accounts.nicknames import check_nickname, purged_nickname
from yamb.accounts.passwords import check_password
from yamb.accounts.preferences import Preferences, PreferencesChange, apply_change
from yamb.accounts.prices import check_change_allowed
from yamb.accounts.profile import (
    UNVERIFIED_LIFETIME,
    AccountStatus,
    Profile,
    refusal,
    reminder_due,
)
from yamb.economy.errors import EconomyError
from yamb.i18n import DEFAULT_LANGUAGE, Language, Text

from yamb_service.accounts.mailer import send_gated
from yamb_service.accounts.ports import (
    AccountStore,
    EmailTakenError,
    IdentityProvider,
    LiveConnections,
    Mailer,
    NicknameTakenError,
    PlayedGames,
    Referrals,
    StaleProfileError,
    Tokens,
    TournamentEntries,
)
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.economy.ports import Change, Plan, WalletStore
from yamb_service.push.service import PushDevices

# Where each mailed link leads (the HTTP API's routes).
LINK_PATHS = {
    LinkKind.VERIFY: "/accounts/verify",
    LinkKind.RESET: "/accounts/password-reset",
    LinkKind.EMAIL: "/accounts/email-change",
}
# The links a web client's screen takes instead, when one is configured (WEB_BASE_URL): a reset
# link opens the client's #/reset, which posts the new password to the same API. The token is in
# the fragment, which a browser sends to no server (no log, no Referer keeps it).
CLIENT_LINK_PATHS = {LinkKind.RESET: "/#/reset"}
# The mails anyone can cause to an address, counted against its bound (the links are counted
# in _mail_link).
_BOUNDED = frozenset({MailKind.ACCOUNT_EXISTS, MailKind.EMAIL_CHANGE_NOTICE})
_LINK_MAILS = {
    LinkKind.VERIFY: MailKind.VERIFY_EMAIL,
    LinkKind.RESET: MailKind.RESET_PASSWORD,
    LinkKind.EMAIL: MailKind.CHANGE_EMAIL,
}
# What the previous device of a player who signs in again is told (A2).
SIGNED_IN_ELSEWHERE = Text("you signed in on another device: sign in here again to play here")
# A profile read and written again when another request changed it meanwhile.
SAVE_ATTEMPTS = 5
# A Cognito user this old with no profile is what a sign-up that died half-way left: its
# address may be taken again (a younger one may be a sign-up still under way).
ORPHAN_AGE = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class DailyReport:
    unverified_deleted: int = 0
    reminders_sent: int = 0
    purged: int = 0
    failed: list[str] = field(default_factory=list)


class DailyJobError(Exception):
    """The daily job went through every due account, but some failed: raised (after the others
    were handled) so that Lambda counts an error, retries the event and, past the retries, sends
    it to the job's dead-letter queue. A run again skips what is done and retries what is not."""

    def __init__(self, report: DailyReport) -> None:
        shown = ", ".join(report.failed[:20]) + (", ..." if len(report.failed) > 20 else "")
        super().__init__(
            f"the daily account job failed for {len(report.failed)} account(s): {shown}"
        )
        self.report = report


class AccountService:
    def __init__(
        self,
        *,
        store: AccountStore,
        identity: IdentityProvider,
        mailer: Mailer,
        connections: LiveConnections,
        wallets: WalletStore,
        now: Callable[[], datetime],
        on_verified: Sequence[Callable[[str, datetime], object]] = (),
        referrals: Referrals | None = None,
        games: PlayedGames | None = None,
        devices: PushDevices | None = None,
        tournaments: TournamentEntries | None = None,
    ) -> None:
        self.store = store
        # The tournament entries that keep the nickname (the purge renames them).
        self.tournaments = tournaments
        # The devices the player's pushes go to (Web Push): forgotten by the purge.
        self.devices = devices
        # The games whose seats keep the nickname (the purge renames them).
        self.games = games
        self.referrals = referrals
        # What a verification pays (progression: the referrer's reward, Pioneer): each is
        # idempotent, and runs before the profile says verified, so a link used again after a
        # crash pays what is missing.
        self.on_verified = on_verified
        self.wallets = wallets
        self.identity = identity
        self.mailer = mailer
        self.connections = connections
        self.now = now

    # ------------------------------------------------------------------ reading

    def profile(self, player_id: str) -> Profile:
        profile = self.store.get(player_id)
        if profile is None:
            raise AccountError(Text("this account does not exist"), code="account_not_found")
        return profile

    def _update(self, player_id: str, change: Callable[[Profile], Profile]) -> Profile:
        """`change` applied to the stored profile and saved, read again if it lost a race."""
        for _ in range(SAVE_ATTEMPTS):
            try:
                return self.store.save(change(self.profile(player_id)))
            except StaleProfileError:
                metrics.add_metric(name="ProfileSaveRetried", unit=MetricUnit.Count, value=1)
        raise StaleProfileError

    # ------------------------------------------------------------------ A1 register

    def register(
        self,
        *,
        nickname: str,
        email: str,
        password: str,
        link_base: str,
        referral_code: str | None = None,
        language: Language = DEFAULT_LANGUAGE,
    ) -> Profile | None:
        """A new unverified account, and its verification mail; with a referral code, the
        code's owner as its referrer (an unknown code is refused before anything is made).
        `language`: the account's first language preference (the sign-up page's, negotiated
        from its Accept-Language), which its mails and the server's sentences follow.
        An address that is an account's makes nothing: its owner is told by mail (a new
        verification link if the account is unverified), and None is returned, which the
        caller answers as it answers a new account (nobody learns whose address it is)."""
        nickname = check_nickname(nickname)
        email = check_email(email)
        check_password(password)
        if self.store.nickname_owner(nickname) is not None:
            raise NicknameTakenError(nickname)  # before a Cognito user exists for nothing
        if referral_code is not None and not referral_code.strip():
            referral_code = None  # a form's empty field: no code
        if referral_code is not None and self.referrals is not None:
            self.referrals.inviter_of(referral_code)
        try:
            player_id = self._create_user(email, password)
        except EmailTakenError:
            self._tell_owner(email, link_base)
            return None
        profile = Profile(
            player_id=player_id,
            nickname=nickname,
            email=email,
            status=AccountStatus.UNVERIFIED,
            created_at=self.now(),
            preferences=Preferences(language=language),
        )
        try:
            # The reservation and the profile in one transaction: of sign-ups racing for a
            # nickname one wins; the others' Cognito users go again.
            self.store.create(profile)
        except BaseException:
            self.identity.delete_user(player_id)
            raise
        metrics.add_metric(name="AccountRegistered", unit=MetricUnit.Count, value=1)
        logger.info("account registered", player_id=player_id)
        if referral_code is not None and self.referrals is not None:
            self._take_referrer(player_id, referral_code)
        self._mail_link(profile, LinkKind.VERIFY, link_base)
        return profile

    def _take_referrer(self, player_id: str, referral_code: str) -> None:
        """Before the verification link exists, so the reward of a verification finds the
        referrer. The account stands if this fails (the code's owner just closed their account,
        the table was busy): the player can still take a referrer before their first game."""
        assert self.referrals is not None
        try:
            self.referrals.refer(player_id, referral_code, new_account=True)
        except Exception:
            logger.exception("referrer not taken at registration", player_id=player_id)

    def _tell_owner(self, email: str, link_base: str) -> None:
        """A sign-up with an account's address: its owner gets a verification link (an
        unverified account) or a notice that someone tried (any other), within the address's
        mail bound."""
        metrics.add_metric(name="SignUpWithTakenAddress", unit=MetricUnit.Count, value=1)
        owner = self._profile_by_email(email)
        if owner is None or owner.email is None:
            return  # a sign-up under way, or a purge: nobody to tell
        if owner.status == AccountStatus.UNVERIFIED:
            self._mail_link(owner, LinkKind.VERIFY, link_base)
        elif owner.status in (AccountStatus.ACTIVE, AccountStatus.DELETING):
            self.mail(
                owner,
                owner.email,
                MailKind.ACCOUNT_EXISTS,
                {"nickname": owner.nickname},
            )

    def _create_user(self, email: str, password: str) -> str:
        try:
            return self.identity.create_user(email, password)
        except EmailTakenError:
            # A sign-up that died between its Cognito user and its profile holds the address:
            # freed once old enough (a younger one may still be under way).
            owner = self.identity.find(email)
            if owner is None or self.store.get(owner.player_id) is not None:
                raise
            if self.now() - owner.created_at < ORPHAN_AGE:
                raise
            logger.warning("a half-made sign-up freed its address", player_id=owner.player_id)
            self.identity.delete_user(owner.player_id)
            return self.identity.create_user(email, password)

    def request_verification(self, email: str, link_base: str) -> None:
        """A new verification link, if the address is an unverified account's. Says nothing
        either way (no account can be probed)."""
        profile = self._profile_by_email(email)
        if profile is not None and profile.status == AccountStatus.UNVERIFIED:
            self._mail_link(profile, LinkKind.VERIFY, link_base)

    def check_link(self, token: str, kind: LinkKind) -> Profile:
        """The account a live link of `kind` is for (the link stays usable: a mail scanner's
        visit does not use it up)."""
        return self.profile(self._live_link(token, kind).player_id)

    def _live_link(self, token: str, kind: LinkKind) -> Link:
        """The player's live link of `kind` whose token this is; link_invalid for a used,
        replaced or mistyped one, link_expired for an old one."""
        stored = self.store.peek_link(token_owner(token), kind)
        return check_live(matches(stored, token), kind, self.now())

    def verify(self, token: str) -> Profile:
        with self._using_link(token, LinkKind.VERIFY) as link:
            profile = self.profile(link.player_id)
            if profile.status != AccountStatus.UNVERIFIED:
                return profile
            # Cognito first: a crash after it leaves an unverified profile; a new link does it.
            self.identity.mark_verified(profile.player_id)
            for paid in self.on_verified:
                paid(profile.player_id, self.now())
            verified = self._update(profile.player_id, _verified)
        metrics.add_metric(name="AccountVerified", unit=MetricUnit.Count, value=1)
        logger.info("account verified", player_id=profile.player_id)
        return verified

    # ------------------------------------------------------------------ A2, A6 signing out

    def signed_in(self, player_id: str, email: str | None, *, at: int = 0) -> None:
        """Cognito's PostAuthentication, once the password is verified: an unverified, banned,
        purged or unknown account may not sign in (the AccountError says why); any other login
        ends the previous device's session (A2: the sign-in's moment `at`, Unix seconds on the
        clock of the tokens' `auth_time`, is recorded first, so the authorizers refuse tokens of
        earlier sign-ins; then the live connection is told and closed), cancels a pending
        deletion, and the profile's copy of the address follows Cognito's (`email`, the one
        just used)."""
        profile = self.store.get(player_id)
        if profile is None or profile.status != AccountStatus.DELETING:
            problem = refusal(profile)
            if problem is not None:
                raise problem
        assert profile is not None
        if at > profile.signed_in_at:
            profile = self._update(
                player_id,
                lambda p: p.model_copy(update={"signed_in_at": max(p.signed_in_at, at)}),
            )
        try:
            self.connections.close(
                player_id,
                reason=SIGNED_IN_ELSEWHERE,
                code="signed_in_elsewhere",
                language=profile.preferences.language,
            )
        except Exception:  # its token is refused already: a close that fails fails no sign-in
            logger.exception("the previous device's connection was not closed")
            metrics.add_metric(name="PreviousDeviceNotClosed", unit=MetricUnit.Count, value=1)
        if email is not None and profile.email != email and profile.pending_email == email:
            self._update(
                player_id,
                lambda p: p.model_copy(update={"email": email, "pending_email": None}),
            )
        if profile.status != AccountStatus.DELETING:
            return
        kept = self._update(player_id, _deletion_cancelled)
        if kept.email is not None:
            self.mail(kept, kept.email, MailKind.DELETION_CANCELLED, {"nickname": kept.nickname})
        metrics.add_metric(name="AccountDeletionCancelled", unit=MetricUnit.Count, value=1)
        logger.info("account deletion cancelled by a login", player_id=player_id)

    def sign_out_everywhere(self, player_id: str, *, reason: Text | str) -> int:
        """Every token issued so far stops working at once (the generation moves on first),
        then Cognito revokes the refresh tokens and issues the new generation; the live
        connection is told and closed. The new generation."""
        profile = self._update(player_id, lambda p: p.model_copy(update={"session": p.session + 1}))
        self.identity.sign_out_everywhere(player_id, profile.session)
        self.connections.close(player_id, reason=reason, language=profile.preferences.language)
        metrics.add_metric(name="SignedOutEverywhere", unit=MetricUnit.Count, value=1)
        logger.info("signed out everywhere", player_id=player_id, reason=str(reason))
        return profile.session

    # ------------------------------------------------------------------ A3 reset

    def request_reset(self, email: str, link_base: str, client_base: str | None = None) -> None:
        """A reset link, if the address is a verified account's; says nothing either way. With
        `client_base` (the web client's address) the link opens the client's reset screen, else
        the API's own page."""
        profile = self._profile_by_email(email)
        if profile is not None and profile.status in (
            AccountStatus.ACTIVE,
            AccountStatus.DELETING,
        ):
            self._mail_link(profile, LinkKind.RESET, link_base, client_base=client_base)

    def reset_password(self, token: str, password: str) -> None:
        # A weak password (ours or Cognito's verdict) leaves the link usable for a better one.
        check_password(password)
        with self._using_link(token, LinkKind.RESET) as link:
            self.identity.set_password(link.player_id, password)
        # A pending e-mail change ends with it (its link then finds no pending address): the
        # owner warned of a change they did not ask for stops it this way.
        self._update(link.player_id, lambda p: p.model_copy(update={"pending_email": None}))
        self.sign_out_everywhere(link.player_id, reason=Text("the password was reset"))

    # ------------------------------------------------------------------ A4 settings

    def update_preferences(self, player_id: str, change: PreferencesChange) -> Profile:
        if change.proud_game is not None and not self.store.played_in(change.proud_game, player_id):
            raise AccountError(
                Text("that is not a finished game of yours"), code="game_unknown", field="proudGame"
            )

        def changed(profile: Profile) -> Profile:
            return profile.model_copy(
                update={"preferences": apply_change(profile.preferences, change)}
            )

        return self._update(player_id, changed)

    # ------------------------------------------------------------------ A5 nickname

    def change_nickname(self, player_id: str, nickname: str) -> Profile:
        nickname = check_nickname(nickname)
        for _ in range(SAVE_ATTEMPTS):
            profile = self.profile(player_id)
            if nickname == profile.nickname:
                raise AccountError(
                    Text("this is the nickname already"),
                    code="nickname_unchanged",
                    field="nickname",
                )
            now = self.now()
            price = check_change_allowed(
                changes_made=profile.nickname_changes,
                last_change=profile.nickname_changed_at,
                tokens=self.wallets.wallet(player_id).balance,
                now=now,
            )
            renamed = profile.model_copy(
                update={
                    "nickname": nickname,
                    "nickname_changes": profile.nickname_changes + 1,
                    "nickname_changed_at": now,
                }
            )
            # Paid from the wallet in the rename's transaction, once per change number.
            key = f"nickname:{player_id}:{renamed.nickname_changes}"
            try:
                plan = self.wallets.plan(
                    key, [Change(player_id, -price, "nickname", detail=nickname)], now
                )
            except EconomyError as error:  # the balance moved since it was read
                raise AccountError(error.text, code="not_enough_tokens") from None
            if not isinstance(plan, Plan):
                continue  # that change was made meanwhile: read the profile again
            try:
                saved = self.store.rename(
                    renamed,
                    old_nickname=profile.nickname,
                    also=[self.wallets.part_of(plan)],
                )
            except StaleProfileError:
                continue
            metrics.add_metric(name="NicknameChanged", unit=MetricUnit.Count, value=1)
            logger.info("nickname changed", player_id=player_id, price=price)
            self._rename_seats(player_id, nickname, now)
            return saved
        raise StaleProfileError

    def _rename_seats(self, player_id: str, nickname: str, now: datetime) -> None:
        """After the rename is written, the seats at the player's games still in play take the
        new name. A seat that could not is logged and keeps the old name until the player sits
        down again; the rename is not undone for it."""
        if self.games is None:
            return
        try:
            self.games.rename_seats(player_id, nickname, now, only_in_play=True)
        except Exception:
            logger.exception("the seats were not renamed", player_id=player_id)
            metrics.add_metric(name="SeatRenameFailed", unit=MetricUnit.Count, value=1)

    # ------------------------------------------------------------------ A6 changes

    def change_password(self, player_id: str, old: str, new: str) -> Tokens | None:
        """The new password, every other device signed out; fresh tokens for this one (None for
        an account with an authenticator app: this device signs in again with its code)."""
        check_password(new, field="newPassword")
        profile = self.profile(player_id)
        assert profile.email is not None, "an account that can sign in has an address"
        if not self.identity.check_password(profile.email, old):
            raise AccountError(
                Text("the current password is not right"),
                code="password_wrong",
                field="oldPassword",
            )
        self.identity.set_password(player_id, new, field="newPassword")
        # The live connection closes too (nothing says it is this device's): this device
        # connects again with the fresh tokens.
        self.sign_out_everywhere(player_id, reason=Text("the password was changed"))
        return self.identity.sign_in(profile.email, new)

    def request_email_change(
        self, player_id: str, email: str, password: str, link_base: str
    ) -> Profile:
        """A link to the new address, once the password is given (a stolen ID token alone
        cannot move the account), and a notice to the address the account leaves."""
        email = check_email(email)
        profile = self.profile(player_id)
        assert profile.email is not None, "an account that can sign in has an address"
        if not self.identity.check_password(profile.email, password):
            raise AccountError(
                Text("the password is not right"), code="password_wrong", field="password"
            )
        if email_key(email) == email_key(profile.email):
            raise AccountError(
                Text("this is the address already"), code="email_unchanged", field="email"
            )
        if self.identity.find(email) is not None:
            raise EmailTakenError
        pending = self._update(player_id, lambda p: p.model_copy(update={"pending_email": email}))
        self._mail_link(pending, LinkKind.EMAIL, link_base, to=email, new_email=email)
        self.mail(
            pending,
            profile.email,
            MailKind.EMAIL_CHANGE_NOTICE,
            {"nickname": pending.nickname, "newEmail": email},
        )
        logger.info("e-mail change asked", player_id=player_id)
        return pending

    def confirm_email_change(self, token: str) -> Profile:
        link = self._live_link(token, LinkKind.EMAIL)
        profile = self.profile(link.player_id)
        if link.new_email is None or profile.pending_email != link.new_email:
            raise AccountError(
                Text("this link was replaced by a newer e-mail change"), code="link_invalid"
            )
        with self._using_link(token, LinkKind.EMAIL):
            # Cognito first: the address is unique there (EmailTakenError if another account
            # took it meanwhile). A crash after it leaves the profile's copy behind until the
            # next sign-in, whose trigger brings it in line (signed_in).
            self.identity.change_email(profile.player_id, link.new_email)

        new_email = link.new_email

        def moved(current: Profile) -> Profile:
            return current.model_copy(update={"email": new_email, "pending_email": None})

        changed = self._update(profile.player_id, moved)
        logger.info("e-mail address changed", player_id=profile.player_id)
        return changed

    # ------------------------------------------------------------------ A7 deletion

    def request_deletion(self, player_id: str) -> Profile:
        now = self.now()

        def deleting(profile: Profile) -> Profile:
            if profile.status != AccountStatus.ACTIVE:
                raise AccountError(
                    Text("an account that is {status} cannot be deleted", status=profile.status),
                    code="account_locked",
                )
            return profile.model_copy(
                update={
                    "status": AccountStatus.DELETING,
                    "deletion_requested_at": now,
                    "deletion_reminders": 0,
                }
            )

        profile = self._update(player_id, deleting)
        self.sign_out_everywhere(player_id, reason=Text("the account is being deleted"))
        self._mail_deletion(profile, now)
        metrics.add_metric(name="AccountDeletionRequested", unit=MetricUnit.Count, value=1)
        return profile

    def _mail_deletion(self, profile: Profile, now: datetime) -> None:
        purge_at = profile.purge_at
        assert purge_at is not None and profile.email is not None
        days_left = max(1, round((purge_at - now) / timedelta(days=1)))
        self.mail(
            profile,
            profile.email,
            MailKind.DELETION,
            {
                "nickname": profile.nickname,
                "purgeDate": purge_at.date(),
                "daysLeft": days_left,
            },
        )

    def purge(self, player_id: str) -> bool:
        """Erases a deleting account's personal data after its grace period: the profile
        stays (the opponents' games name its id) with a nickname that is an id. Whether it
        was purged (a login may have cancelled the deletion first)."""

        def purging(current: Profile) -> Profile:
            if current.status == AccountStatus.DELETING:
                return current.model_copy(update={"status": AccountStatus.PURGING})
            return current

        # The purge begins on the profile's version: from here a login cannot cancel it (and
        # one that cancelled first is seen), so Cognito's user is never deleted under an
        # account that stays.
        profile = self._update(player_id, purging)
        if profile.status != AccountStatus.PURGING:
            return False
        # Then Cognito (it frees the address; gone already is fine): a crash after it leaves
        # the purge begun, and the next run finishes it.
        self.identity.delete_user(player_id)
        # Then the games still stored that show the nickname on a seat (before the profile's
        # write: a crash here leaves the purge begun, and the next run renames what is left).
        if self.games is not None:
            self.games.rename_seats(player_id, purged_nickname(player_id), self.now())
        # And the tournaments' entries, which keep the nickname for their standings.
        if self.tournaments is not None:
            self.tournaments.rename_entries(player_id, purged_nickname(player_id))
        # And the devices' push subscriptions (their endpoints are the player's).
        if self.devices is not None:
            self.devices.forget(player_id)
        stripped = Profile(
            player_id=player_id,
            nickname=purged_nickname(player_id),
            email=None,
            status=AccountStatus.DELETED,
            created_at=profile.created_at,
            version=profile.version,
            session=profile.session + 1,
            preferences=Preferences(public_page=False),
        )
        self.store.purge(stripped, release=profile.nickname)
        metrics.add_metric(name="AccountPurged", unit=MetricUnit.Count, value=1)
        logger.info("account purged", player_id=player_id)
        return True

    # ------------------------------------------------------------------ operators

    def ban(self, player_id: str, reason: str) -> Profile:
        banned = self._update(
            player_id, lambda p: p.model_copy(update={"status": AccountStatus.BANNED})
        )
        self.identity.disable(player_id)
        self.sign_out_everywhere(
            player_id, reason=Text("the account was banned: {reason}", reason=reason)
        )
        metrics.add_metric(name="AccountBanned", unit=MetricUnit.Count, value=1)
        return banned

    # ------------------------------------------------------------------ daily job

    def daily(self, now: datetime) -> DailyReport:
        """Never-verified accounts past 30 days go (nickname and address freed); deleting
        accounts get their reminders, and are purged after 30 days. One account's failure does
        not stop the others; at the end, any failure is counted (AccountsNotHandled) and raised
        (DailyJobError), never returned as a success. A run repeated does nothing twice."""
        now = now.astimezone(UTC)
        unverified = reminders = purged = 0
        failed: list[str] = []
        for player_id in self.store.due(AccountStatus.UNVERIFIED, now - UNVERIFIED_LIFETIME):
            try:
                unverified += self._drop_unverified(player_id, now)
            except Exception:
                logger.exception("an unverified account was not deleted", player_id=player_id)
                failed.append(player_id)
        for player_id in self.store.due(AccountStatus.DELETING, now):
            try:
                profile = self.profile(player_id)
                purge_at = profile.purge_at
                if profile.status == AccountStatus.PURGING or (
                    purge_at is not None and now >= purge_at
                ):
                    purged += self.purge(player_id)
                elif self._remind(profile, now):
                    reminders += 1
            except Exception:
                logger.exception("a deleting account was not handled", player_id=player_id)
                failed.append(player_id)
        report = DailyReport(
            unverified_deleted=unverified, reminders_sent=reminders, purged=purged, failed=failed
        )
        if failed:
            metrics.add_metric(name="AccountsNotHandled", unit=MetricUnit.Count, value=len(failed))
            raise DailyJobError(report)
        return report

    def _drop_unverified(self, player_id: str, now: datetime) -> int:
        profile = self.store.get(player_id)
        if (
            profile is None
            or profile.status != AccountStatus.UNVERIFIED
            or now - profile.created_at < UNVERIFIED_LIFETIME
        ):
            return 0
        # The profile first, on its version (a verification that won keeps the account); a
        # crash after it leaves a Cognito user without a profile, which a sign-up with its
        # address reclaims (_create_user).
        self.store.delete(profile)
        self.identity.delete_user(player_id)
        logger.info("never-verified account deleted", player_id=player_id)
        return 1

    def _remind(self, profile: Profile, now: datetime) -> bool:
        index = reminder_due(profile, now)
        if index is None:
            return False

        def counted(current: Profile) -> Profile:
            if reminder_due(current, now) != index:
                raise _AlreadyRemindedError
            return current.model_copy(update={"deletion_reminders": index + 1})

        # Counted before it is sent, on the profile's version: of two runs at once one sends
        # it; a crash between sends it never rather than twice.
        try:
            reminded = self._update(profile.player_id, counted)
        except _AlreadyRemindedError:
            return False
        self._mail_deletion(reminded, now)
        return True

    # ------------------------------------------------------------------ links and mail

    def _profile_by_email(self, email: str) -> Profile | None:
        try:
            email = check_email(email)
        except AccountError:
            return None
        user = self.identity.find(email)
        return None if user is None else self.store.get(user.player_id)

    def _mail_link(
        self,
        profile: Profile,
        kind: LinkKind,
        link_base: str,
        *,
        to: str | None = None,
        new_email: str | None = None,
        client_base: str | None = None,
    ) -> None:
        """A new link of `kind` (the one before it ends) mailed, within the address's bound:
        beyond it no link is made, so the last one mailed stays the live one. It leads to the
        web client at `client_base` when the client has a screen for it, else to the API."""
        address = to or profile.email
        assert address is not None
        if not self._within_bound(address):
            return
        token, link = new_link(kind, profile.player_id, self.now(), new_email=new_email)
        self.store.put_link(link)
        query = urlencode({"token": token})
        if client_base and kind in CLIENT_LINK_PATHS:
            url = f"{client_base.rstrip('/')}{CLIENT_LINK_PATHS[kind]}?{query}"
        else:
            url = f"{link_base.rstrip('/')}{LINK_PATHS[kind]}?{query}"
        self._send(profile, address, _LINK_MAILS[kind], {"nickname": profile.nickname, "link": url})

    def _within_bound(self, address: str) -> bool:
        """Counts a mail to `address` (ADDRESS_BOUNDS); False, and nothing to send, once a
        window's limit is reached."""
        now = self.now()
        for bound in ADDRESS_BOUNDS:
            if not self.store.count_mail(address, bound, now):
                metrics.add_metric(name="MailBoundReached", unit=MetricUnit.Count, value=1)
                logger.warning("mail bound reached", window=str(bound.window))
                return False
        return True

    def mail(self, profile: Profile, to: str, kind: MailKind, data: Mapping[str, object]) -> bool:
        """Sends unless the player switched the mail's group off (A8), or mail to `to` reached
        its bound (ADDRESS_BOUNDS, for the mails anyone can cause); whether it went."""
        if kind in _BOUNDED and not self._within_bound(to):
            return False
        return self._send(profile, to, kind, data)

    def _send(self, profile: Profile, to: str, kind: MailKind, data: Mapping[str, object]) -> bool:
        """Through the one mail gate (A8: mailer.send_gated); whether it went."""
        return send_gated(self.mailer, profile, kind, data, to=to)

    @contextmanager
    def _using_link(self, token: str, kind: LinkKind) -> Iterator[Link]:
        """The live link of `kind` for `token`, used up (a second use, or the use of a link
        it replaced, finds nothing), and put back if the step it allows fails (the player
        tries it again)."""
        link = self._live_link(token, kind)
        if not self.store.take_link(link):
            raise invalid_link()
        try:
            yield link
        except BaseException:
            self.store.restore_link(link)
            raise


class _AlreadyRemindedError(Exception):
    """Another run counted this reminder first."""


def _verified(profile: Profile) -> Profile:
    if profile.status != AccountStatus.UNVERIFIED:
        return profile
    return profile.model_copy(update={"status": AccountStatus.ACTIVE})


def _deletion_cancelled(profile: Profile) -> Profile:
    if profile.status != AccountStatus.DELETING:
        return profile
    return profile.model_copy(
        update={
            "status": AccountStatus.ACTIVE,
            "deletion_requested_at": None,
            "deletion_reminders": 0,
        }
    )
