"""The referral API's messages in and out (HTTP, JSON in camelCase): the player's code and link,
their own referrer, their invitees with each referral's state, and the schemes."""

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.progression.referral import (
    DEFAULT_SCHEME,
    SCHEMES,
    VERIFICATION_REWARD,
    Scheme,
    SchemeName,
)

# A generous bound that stops absurd input before any rule looks at it.
_Text = Annotated[str, Field(max_length=64)]


class _Request(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ReferrerRequest(_Request):
    """PUT /me/referrer: the code of the player who invited me."""

    code: _Text


class SchemeRequest(_Request):
    """PUT /me/referral/invitees/{nickname}/scheme."""

    scheme: _Text


class SchemeView(_View):
    name: SchemeName
    weeks: int
    tokens_per_week: int

    @classmethod
    def of(cls, scheme: Scheme) -> "SchemeView":
        return cls(name=scheme.name, weeks=scheme.weeks, tokens_per_week=scheme.tokens)


class InviteeView(_View):
    nickname: str
    verified: bool
    # The first qualifying ranked game (None: not yet; then no scheme can be chosen).
    started_at: datetime | None
    # Until when the inviter may choose; after it the default scheme holds.
    choose_by: datetime | None
    # The scheme in force: the chosen one, or the default once the window is over.
    scheme: SchemeName | None
    can_choose: bool
    weeks_played: int
    weeks_paid: int


class ReferralView(_View):
    """GET /me/referral: what I share, who invited me, whom I invited."""

    code: str
    link: str
    referrer: str | None  # the nickname of my inviter
    invitees: list[InviteeView]
    schemes: list[SchemeView] = Field(
        default_factory=lambda: [SchemeView.of(s) for s in SCHEMES.values()]
    )
    default_scheme: SchemeName = DEFAULT_SCHEME
    verification_reward: int = VERIFICATION_REWARD


class ReferrerView(_View):
    """PUT /me/referrer's answer: the inviter taken (the two now follow each other)."""

    referrer: str
