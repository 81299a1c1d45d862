"""The HTTP API's messages in and out (docs/accounts.md): pydantic models with camelCase
names on the wire; a request with an unknown field is refused, not half-read."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.accounts.preferences import Preferences
from yamb.accounts.prices import next_change_at, nickname_change_price
from yamb.accounts.profile import Profile

# Generous bounds that only stop absurd input before any rule looks at it.
_Text = Annotated[str, Field(max_length=512)]
_Password = Annotated[str, Field(max_length=1024)]


class _Message(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class RegisterRequest(_Message):
    nickname: _Text
    email: _Text
    password: _Password
    # The code of the player who invited this one (E7: the `ref` of their link), if any.
    referral_code: Annotated[str, Field(max_length=64)] | None = None


class EmailRequest(_Message):
    email: _Text


class EmailChangeRequest(_Message):
    """A new address, with the password: an ID token alone cannot move the account."""

    email: _Text
    password: _Password


class TokenRequest(_Message):
    """A mailed link's token, posted from its page (verification, e-mail change)."""

    token: _Text


class ResetRequest(_Message):
    token: _Text
    password: _Password


class NicknameRequest(_Message):
    nickname: _Text


class PasswordChangeRequest(_Message):
    old_password: _Password
    new_password: _Password


class NicknameChangeView(_Message):
    changes_made: int
    next_price: int
    available_at: datetime | None


class DeletionView(_Message):
    requested_at: datetime
    purge_at: datetime


class AccountView(_Message):
    """What the player reads of their own account (GET /me and the answers of changes)."""

    player_id: str
    nickname: str
    email: str | None
    pending_email: str | None
    status: str
    created_at: datetime
    preferences: Preferences
    nickname_change: NicknameChangeView
    deletion: DeletionView | None
    # An operator reviews reports (S5): the page shows them the review queue.
    operator: bool = False

    @classmethod
    def of(cls, profile: Profile) -> "AccountView":
        deletion = None
        if profile.deletion_requested_at is not None and profile.purge_at is not None:
            deletion = DeletionView(
                requested_at=profile.deletion_requested_at, purge_at=profile.purge_at
            )
        return cls(
            player_id=profile.player_id,
            nickname=profile.nickname,
            email=profile.email,
            pending_email=profile.pending_email,
            status=profile.status,
            created_at=profile.created_at,
            preferences=profile.preferences,
            nickname_change=NicknameChangeView(
                changes_made=profile.nickname_changes,
                next_price=nickname_change_price(profile.nickname_changes),
                available_at=next_change_at(profile.nickname_changed_at),
            ),
            deletion=deletion,
            operator=profile.operator,
        )


class TokensView(_Message):
    """Fresh tokens for the device that changed the password (the others are signed out); for
    an account with an authenticator app (TOTP) none: `signInAgain`, with the app's code."""

    id_token: str | None = None
    access_token: str | None = None
    refresh_token: str | None = None
    expires_in: int | None = None
    sign_in_again: bool = False


class AcceptedView(_Message):
    message: str


class ErrorDetail(_Message):
    code: str
    message: str
    field: str | None = None


class ErrorView(_Message):
    error: ErrorDetail
