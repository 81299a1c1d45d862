"""A sentence for a player, kept as its message id and values until its reader is known."""

import gettext
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from yamb.i18n.languages import DEFAULT_LANGUAGE, Language

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "yamb"


@dataclass(frozen=True, slots=True)
class Text:
    """`Text("no player is called {nickname}", nickname="Ben")`: an English sentence (the
    message id `scripts/catalogues` extracts) and the values of its placeholders. `str()` is
    the English; `render(text, "fr")` the French."""

    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, message: str, /, **params: Any) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        return render(self, DEFAULT_LANGUAGE)


@dataclass(frozen=True, slots=True)
class Plural:
    """`Plural("{count} token", "{count} tokens", count)`: the form the reader's language
    takes for `count` (Croatian has three), with `count` among the placeholders."""

    singular: str
    plural: str
    count: int
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, singular: str, plural: str, count: int, /, **params: Any) -> None:
        object.__setattr__(self, "singular", singular)
        object.__setattr__(self, "plural", plural)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "params", {"count": count, **params})

    def __str__(self) -> str:
        return render(self, DEFAULT_LANGUAGE)


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language; English (the message ids) has none."""
    return gettext.translation(DOMAIN, LOCALES, languages=[language], fallback=True)


def render(text: "Text | Plural | str", language: str = DEFAULT_LANGUAGE) -> str:
    """The sentence in `language`, its placeholders filled (their values rendered too, when
    they are sentences themselves); a plain string is returned as it is."""
    if isinstance(text, str):
        return text
    words = catalogue(language)
    if isinstance(text, Plural):
        pattern = words.ngettext(text.singular, text.plural, text.count)
    else:
        pattern = words.gettext(text.message)
    values = {name: _value(value, language) for name, value in text.params.items()}
    try:
        return pattern.format_map(values)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders drifted (the catalogue test forbids it): the
        # English rather than nothing.
        english = text.message if isinstance(text, Text) else text.plural
        return english.format_map(values)


def listed(items: "Sequence[Text | Plural | str]") -> "Text | Plural | str":
    """Items said one after another, separated by ", " (each rendered in the reader's language;
    the separator is a message too, for a language that lists otherwise)."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Text("{first}, {rest}", first=items[0], rest=listed(items[1:]))


def _value(value: Any, language: str) -> Any:
    if isinstance(value, Text | Plural):
        return render(value, language)
    return value


__all__ = ["DOMAIN", "LOCALES", "Language", "Plural", "Text", "catalogue", "listed", "render"]
