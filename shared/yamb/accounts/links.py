"""The one-time links mailed to a player (A1 verification, A3 reset, A6 e-mail change): a random
token in the link; only its digest is stored, so a read of the table gives no usable link."""

import hashlib
import secrets
from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from yamb.accounts.errors import AccountError

# 32 random bytes: unguessable, and the digest is the link's key.
TOKEN_BYTES = 32


class LinkKind(StrEnum):
    VERIFY = "verify"
    RESET = "reset"
    EMAIL = "email"


LIFETIMES = {
    LinkKind.VERIFY: timedelta(days=7),
    LinkKind.RESET: timedelta(hours=2),
    LinkKind.EMAIL: timedelta(days=7),
}


class Link(BaseModel):
    model_config = ConfigDict(frozen=True)

    digest: str
    kind: LinkKind
    player_id: str
    expires_at: datetime
    # An e-mail change: the address it confirms.
    new_email: str | None = None


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_link(
    kind: LinkKind, player_id: str, now: datetime, *, new_email: str | None = None
) -> tuple[str, Link]:
    """The token to mail and the link to store."""
    token = new_token()
    return token, Link(
        digest=digest(token),
        kind=kind,
        player_id=player_id,
        expires_at=now + LIFETIMES[kind],
        new_email=new_email,
    )


def check_live(link: Link | None, kind: LinkKind, now: datetime) -> Link:
    """The link, if it is one of `kind` and still valid; else the AccountError for it."""
    if link is None or link.kind != kind:
        raise AccountError(
            "this link is not valid: it was used already, or mistyped", code="link_invalid"
        )
    if now >= link.expires_at:
        raise AccountError("this link has expired: ask for a new one", code="link_expired")
    return link
