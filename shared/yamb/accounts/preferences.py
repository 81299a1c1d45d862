"""A player's settings (A4) and notification switches (A8)."""

from typing import Annotated, Literal, Self

from iso3166 import countries_by_alpha2
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from yamb.accounts.errors import AccountError
from yamb.decency import find_offence

LANGUAGES = ("en", "fr", "da", "hr")
type Language = Literal["en", "fr", "da", "hr"]
MAX_DESCRIPTION_CHARS = 280


class _Camel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        # "yes" is not a switch's value: only JSON's true and false are.
        strict=True,
    )


class InAppNotifications(_Camel):
    """A8's in-app groups."""

    rewards: bool = True
    referral: bool = True
    club: bool = True
    system: bool = True


class EmailNotifications(_Camel):
    """A8's e-mail groups. Account and security mail is not among them: it always goes."""

    return_reminders: bool = True
    tournaments: bool = True
    offers: bool = True


class Notifications(_Camel):
    in_app: InAppNotifications = InAppNotifications()
    email: EmailNotifications = EmailNotifications()


class Preferences(_Camel):
    language: Language = "en"
    # ISO 3166-1 alpha-2; None is the "Yamb world" flag.
    country: str | None = None
    notifications: Notifications = Notifications()
    public_page: bool = True
    description: str = ""
    # A finished game the player played (its result exists and names them).
    proud_game: str | None = None


def check_country(country: str | None) -> str | None:
    if country is None:
        return None
    code = country.upper()
    if code not in countries_by_alpha2:
        raise AccountError(
            f"{country!r} is not an ISO 3166-1 country code (or null for Yamb world)",
            code="country_unknown",
            field="country",
        )
    return code


def check_description(text: str) -> str:
    cleaned = " ".join(text.split())
    if len(cleaned) > MAX_DESCRIPTION_CHARS:
        raise AccountError(
            f"a description is at most {MAX_DESCRIPTION_CHARS} characters (this one has "
            f"{len(cleaned)})",
            code="description_too_long",
            field="description",
        )
    if find_offence(cleaned) is not None:
        raise AccountError(
            "this description contains a word the game does not allow",
            code="description_indecent",
            field="description",
        )
    return cleaned


class InAppChange(_Camel):
    rewards: bool | None = None
    referral: bool | None = None
    club: bool | None = None
    system: bool | None = None


class EmailChange(_Camel):
    return_reminders: bool | None = None
    tournaments: bool | None = None
    offers: bool | None = None


class NotificationsChange(_Camel):
    in_app: InAppChange | None = None
    email: EmailChange | None = None


class PreferencesChange(_Camel):
    """A PATCH of the settings: what it names changes, the rest stays. `country: null` is the
    Yamb world flag, `proudGame: null` clears the game."""

    language: Language | None = None
    country: Annotated[str | None, Field(max_length=8)] = None
    notifications: NotificationsChange | None = None
    public_page: bool | None = None
    description: Annotated[str | None, Field(max_length=4 * MAX_DESCRIPTION_CHARS)] = None
    proud_game: Annotated[str | None, Field(max_length=64)] = None

    @model_validator(mode="after")
    def _something(self) -> Self:
        if not self.model_fields_set:
            raise ValueError("name at least one setting to change")
        return self

    @field_validator("language", "public_page", "notifications", "description")
    @classmethod
    def _not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("cannot be null")
        return value


def _merged[M: BaseModel](current: M, change: BaseModel | None) -> M:
    if change is None:
        return current
    updates = {name: getattr(change, name) for name in change.model_fields_set}
    nested = {
        name: _merged(getattr(current, name), value)
        for name, value in updates.items()
        if isinstance(value, BaseModel)
    }
    flat = {name: value for name, value in updates.items() if not isinstance(value, BaseModel)}
    return current.model_copy(update={**flat, **nested})


def apply_change(current: Preferences, change: PreferencesChange) -> Preferences:
    """The settings after `change` (checked: country, description; the proud game is checked
    by the service, which can read results)."""
    named = change.model_fields_set
    updates: dict[str, object] = {}
    if "language" in named:
        updates["language"] = change.language
    if "country" in named:
        updates["country"] = check_country(change.country)
    if "public_page" in named:
        updates["public_page"] = change.public_page
    if "description" in named:
        updates["description"] = check_description(change.description or "")
    if "proud_game" in named:
        updates["proud_game"] = change.proud_game
    if "notifications" in named:
        updates["notifications"] = _merged(current.notifications, change.notifications)
    return current.model_copy(update=updates)
