"""The terminal client's words in its player's language (issue 29).

Every sentence the client prints is a `Text` or `Plural` of the catalogue (yamb.i18n), said in
the one language of this client: `--language`, else the environment's locale (LANGUAGE,
LC_ALL, LC_MESSAGES, LANG, as gettext reads them), negotiated among ours; English otherwise.
A terminal has one reader, so the language is this process's, chosen once at the start."""

import os
from collections.abc import Mapping

from yamb.i18n import DEFAULT_LANGUAGE, Language, Plural, Text, negotiate, render

_language: list[Language] = [DEFAULT_LANGUAGE]


def use_language(language: Language) -> None:
    _language[0] = language


def language() -> Language:
    return _language[0]


def say(text: Text | Plural | str) -> str:
    """`text` in the client's language."""
    return render(text, _language[0])


def from_environment(environ: Mapping[str, str] | None = None) -> Language:
    """The language of the locale (`fr_FR.UTF-8`, `hr_HR`, LANGUAGE's `da:en`), as gettext
    looks for it: the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            locales = (part.split(".")[0].split("@")[0] for part in value.split(":"))
            tags = [tag.replace("_", "-") for tag in locales if tag and tag not in ("C", "POSIX")]
            # The locale's order is the reader's preference (weights fall off in order).
            header = ", ".join(f"{tag};q={1 - i / 10:.1f}" for i, tag in enumerate(tags[:9]))
            return negotiate(header)
    return DEFAULT_LANGUAGE


__all__ = ["from_environment", "language", "say", "use_language"]
