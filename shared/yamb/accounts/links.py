"""The one-time links mailed to a player (A1 verification, A3 reset, A6 e-mail change): a random
secret in the link; only its digest is stored, so a read of the table gives no usable link.

A player has at most one live link of each kind: the token names its player
(`<player id>.<secret>`), the store keeps one link per player and kind, and a new link of a kind
replaces the one before (a second reset mail ends the first link; using a link ends it)."""

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from yamb.accounts.errors import AccountError
from yamb.i18n import Text

# 32 random bytes: unguessable.
TOKEN_BYTES = 32
_SEPARATOR = "."


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


def new_token(player_id: str) -> str:
    return f"{player_id}{_SEPARATOR}{secrets.token_urlsafe(TOKEN_BYTES)}"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_owner(token: str) -> str:
    """The player a token names; link_invalid when it names none (mistyped, cut short)."""
    player_id, separator, secret = token.rpartition(_SEPARATOR)
    if not separator or not player_id or not secret:
        raise invalid_link()
    return player_id


def matches(link: Link | None, token: str) -> Link | None:
    """The stored link if `token` is its token (compared in constant time), else None."""
    if link is None or not hmac.compare_digest(link.digest, digest(token)):
        return None
    return link


def new_link(
    kind: LinkKind, player_id: str, now: datetime, *, new_email: str | None = None
) -> tuple[str, Link]:
    """The token to mail and the link to store."""
    token = new_token(player_id)
    return token, Link(
        digest=digest(token),
        kind=kind,
        player_id=player_id,
        expires_at=now + LIFETIMES[kind],
        new_email=new_email,
    )


def invalid_link() -> AccountError:
    return AccountError(
        Text("this link is not valid: it was used already, replaced by a newer one, or mistyped"),
        code="link_invalid",
    )


def check_live(link: Link | None, kind: LinkKind, now: datetime) -> Link:
    """The link, if it is one of `kind` and still valid; else the AccountError for it."""
    if link is None or link.kind != kind:
        raise invalid_link()
    if now >= link.expires_at:
        raise AccountError(Text("this link has expired: ask for a new one"), code="link_expired")
    return link
