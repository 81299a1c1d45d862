"""A player's settings (A4) and notification switches (A8)."""

import unicodedata
from typing import Annotated, Self

from iso3166 import countries_by_alpha2
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from yamb.accounts.errors import AccountError
from yamb.decency import find_offence
from yamb.i18n import Language, Text

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
            Text(
                "'{country}' is not an ISO 3166-1 country code (or null for Yamb world)",
                country=country,
            ),
            code="country_unknown",
            field="country",
        )
    return code


# A zero-width joiner is kept between emoji (a family, a rainbow flag); tag characters after the
# black flag spell a region's flag (Scotland's). Other format characters are refused.
_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_EMOJI_PARTS = frozenset({"So", "Sk"})


def _is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f"


def _emoji_join(text: str, index: int) -> bool:
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return (
        bool(before)
        and bool(after)
        and (unicodedata.category(before) in _EMOJI_PARTS or _is_variation_selector(before))
        and unicodedata.category(after) == "So"
    )


def _flag_tag(text: str, index: int) -> bool:
    start = index
    while start and "\U000e0020" <= text[start - 1] <= "\U000e007f":
        start -= 1
    return start > 0 and text[start - 1] == _BLACK_FLAG


def hidden_character(text: str) -> str | None:
    """The first character of `text` that is not shown as itself: a control character (NUL
    too), a bidi override, embedding or isolate, a zero-width or other format character (but a
    joiner between emoji and a region flag's tags), a lone surrogate."""
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs"):
            return char
        if category != "Cf":
            continue
        if "\U000e0020" <= char <= "\U000e007f" and _flag_tag(text, index):
            continue
        if char == _ZWJ and _emoji_join(text, index):
            continue
        return char
    return None


def check_description(text: str) -> str:
    # Line breaks and tabs are spaces (the description is one paragraph); what stays hidden
    # is refused, not dropped: it would change what the player wrote without telling them.
    cleaned = " ".join(text.split())
    hidden = hidden_character(cleaned)
    if hidden is not None:
        name = unicodedata.name(hidden, "a control character")
        raise AccountError(
            Text(
                "a description cannot hold invisible or control characters: U+{code_point} "
                "({character})",
                code_point=format(ord(hidden), "04X"),
                character=name.lower(),
            ),
            code="description_characters",
            field="description",
        )
    if len(cleaned) > MAX_DESCRIPTION_CHARS:
        raise AccountError(
            Text(
                "a description is at most {max_description_chars} characters (this one has "
                "{count})",
                max_description_chars=MAX_DESCRIPTION_CHARS,
                count=len(cleaned),
            ),
            code="description_too_long",
            field="description",
        )
    if find_offence(cleaned) is not None:
        raise AccountError(
            Text("this description contains a word the game does not allow"),
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
            raise ValueError(Text("name at least one setting to change"))
        return self

    @field_validator("language", "public_page", "notifications", "description")
    @classmethod
    def _not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError(Text("cannot be null"))
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
