"""What the account service needs from the outside world: storage, the identity provider
(Cognito), mail (SES) and the live connection of a player. Adapters: account_store, cognito,
mailer; tests hand in fakes or run the real ones on moto."""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from yamb.accounts.errors import AccountError
from yamb.accounts.links import Link, LinkKind
from yamb.accounts.mail import MailBound
from yamb.accounts.mail_text import Mail
from yamb.accounts.profile import AccountStatus, Profile
from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text

from yamb_service.common.ports import TransactionPart


class NicknameTakenError(AccountError):
    code = "nickname_taken"

    def __init__(self, nickname: str) -> None:
        super().__init__(
            Text("the nickname '{nickname}' is taken", nickname=nickname), field="nickname"
        )


class EmailTakenError(AccountError):
    code = "email_taken"

    def __init__(self, field: str = "email") -> None:
        super().__init__(Text("an account with this e-mail address exists"), field=field)


class StaleProfileError(AccountError):
    """The profile changed since it was read: the caller reads it again and retries."""

    code = "conflict"

    def __init__(self) -> None:
        super().__init__(Text("the account changed meanwhile: try again"))


@dataclass(frozen=True, slots=True)
class UserRecord:
    player_id: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Tokens:
    id_token: str
    access_token: str
    refresh_token: str
    expires_in: int


class AccountStore(Protocol):
    def get(self, player_id: str) -> Profile | None: ...
    def create(self, profile: Profile) -> None:
        """The profile and its nickname's reservation, in one transaction; NicknameTakenError
        when the nickname is someone's (whatever the letter case)."""

    def save(self, profile: Profile) -> Profile:
        """Writes `profile` if the stored one still has its version; the saved profile (next
        version). StaleProfileError when it changed meanwhile."""

    def rename(
        self,
        profile: Profile,
        old_nickname: str,
        also: Sequence[TransactionPart] = (),
    ) -> Profile:
        """Saves `profile` (its new nickname) and moves the reservation from `old_nickname`
        to it, in one transaction with `also`'s writes (the price paid from the wallet)."""

    def purge(self, profile: Profile, *, release: str) -> None:
        """Saves `profile` (already stripped of personal data) and frees the reservation of
        the nickname `release`, in one transaction."""

    def delete(self, profile: Profile) -> None:
        """Removes a never-verified account's profile and its reservation together."""

    def nickname_owner(self, nickname: str) -> str | None: ...
    def put_link(self, link: Link) -> None:
        """Stores the link as its player's one live link of its kind: the one before ends."""

    def restore_link(self, link: Link) -> None:
        """Stores a used link again when the step it allowed failed (it stays usable), unless
        a newer link of its kind was made meanwhile."""

    def take_link(self, link: Link) -> bool:
        """Removes the link if it is still its player's live one of its kind; whether it was
        (a link works once: of two uses at once, one gets True)."""

    def peek_link(self, player_id: str, kind: LinkKind) -> Link | None:
        """The player's live link of `kind`, if any."""

    def count_mail(self, address: str, bound: MailBound, now: datetime) -> bool:
        """Counts one more mail to `address` in `bound`'s window of `now`, unless the window
        holds `bound.limit` already; whether it was counted (a conditional write: requests at
        once cannot count past the limit)."""

    def due(self, status: AccountStatus, before: datetime) -> Iterator[str]:
        """The ids of accounts in `status` since before `before` (unverified: created;
        deleting: asked), oldest first."""

    def played_in(self, game_id: str, player_id: str) -> bool:
        """Whether the game has ended with `player_id` at the table."""


class Profiles(Protocol):
    """What the other domains read of the accounts (yamb_service.accounts.dynamo)."""

    def get(self, player_id: str) -> Profile | None: ...
    def profiles(self, player_ids: Iterable[str]) -> dict[str, Profile]:
        """The profiles of these players that exist, by player id."""

    def nickname_owner(self, nickname: str) -> str | None: ...


class IdentityProvider(Protocol):
    def create_user(self, email: str, password: str) -> str:
        """A user who signs in with `email` and `password`; their id (the player id).
        EmailTakenError when the address is an account's."""

    def delete_user(self, player_id: str) -> None: ...
    def mark_verified(self, player_id: str) -> None: ...
    def set_password(self, player_id: str, password: str, *, field: str = "password") -> None:
        """A refused password is an AccountError about `field`."""

    def check_password(self, email: str, password: str) -> bool: ...
    def sign_in(self, email: str, password: str) -> Tokens | None:
        """Tokens, or None when the account asks for its authenticator app's code (TOTP): the
        device then signs in again itself."""
        ...

    def change_email(self, player_id: str, email: str) -> None: ...
    def sign_out_everywhere(self, player_id: str, session: int) -> None:
        """Every refresh token is revoked, then new tokens carry `session`."""

    def disable(self, player_id: str) -> None: ...
    def find(self, email: str) -> "UserRecord | None":
        """The user who signs in with `email`, if any."""


class Mailer(Protocol):
    def send(self, to: str, mail: Mail) -> None:
        """`mail` (composed in its recipient's language) to `to`."""


class LiveConnections(Protocol):
    def close(
        self,
        player_id: str,
        *,
        reason: Text | Plural | str,
        code: Literal["signed_out", "signed_in_elsewhere"] = "signed_out",
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        """Tells the player's live connection why (`code`, the disconnected frame's, and
        `reason` in the account's `language`), and closes it (if they have one)."""


class PlayedGames(Protocol):
    def rename_seats(
        self, player_id: str, nickname: str, now: datetime, *, only_in_play: bool = False
    ) -> int:
        """The player's seats in the games still stored that name them renamed `nickname` (the
        purge's id name; a nickname change's new name, `only_in_play`: in games still waiting or
        running, a finished one keeps the name it was played under); how many games were
        written."""


class TournamentEntries(Protocol):
    def rename_entries(self, player_id: str, nickname: str) -> int:
        """The player's entries in the tournaments stored (which keep the nickname they entered
        under, for the standings) renamed `nickname`, the purge's id name; how many were
        written."""


class Referrals(Protocol):
    """The referral a registration takes (progression.referral.service.ReferralService)."""

    def inviter_of(self, code: str) -> str:
        """The code's owner; a ProgressionError unknown_referral_code when none."""

    def refer(self, invitee: str, code: str, *, new_account: bool = False) -> object: ...
