"""A tiny compiled catalogue for tests: a few translated sentences written as `.mo` files into a
temporary folder, and yamb.i18n pointed at it, so that a test proves a sentence is rendered in
its reader's language without depending on the real catalogues (translated elsewhere)."""

from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from yamb.i18n import text

# A translation: a message id and its string, or a (singular, plural) id and its forms.
type Translations = Mapping[str | tuple[str, str], str | tuple[str, ...]]
# Each language's translations, as `use_catalogues` and the `catalogue` fixture take them.
type Languages = Mapping[str, Translations]


def use_catalogues(
    monkeypatch: pytest.MonkeyPatch, folder: Path, languages: Mapping[str, Translations]
) -> None:
    """Compiles `languages` ({"fr": {"Hello {nickname},": "Bonjour {nickname},"}}) into
    `folder` and makes yamb.i18n read its catalogues from there for the rest of the test."""
    for language, translations in languages.items():
        catalog = Catalog(locale=language, domain=text.DOMAIN)
        for message_id, string in translations.items():
            catalog.add(message_id, string)
        target = folder / language / "LC_MESSAGES" / f"{text.DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            write_mo(out, catalog)
    monkeypatch.setattr(text, "LOCALES", folder)
    # A cache of its own, dropped with the patch: the next test reads the real catalogues.
    monkeypatch.setattr(text, "catalogue", cache(text.catalogue.__wrapped__))


__all__ = ["Languages", "Translations", "use_catalogues"]
