"""The languages the product speaks, and which one a reader gets."""

from typing import Literal

type Language = Literal["en", "fr", "da", "hr"]
LANGUAGES: tuple[Language, ...] = ("en", "fr", "da", "hr")
DEFAULT_LANGUAGE: Language = "en"


def negotiate(accept_language: str | None) -> Language:
    """The best of our languages for an `Accept-Language` header (RFC 9110: tags with
    optional q weights, `fr-CH` matching `fr`); English when none fits or the header is
    absent or malformed."""
    best: tuple[float, int, Language] | None = None
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        if weight <= 0 or primary not in LANGUAGES:
            continue
        # Higher weight first; among equals, the header's order.
        candidate = (weight, -position, _language(primary))
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    return DEFAULT_LANGUAGE if best is None else best[2]


def _language(tag: str) -> Language:
    for language in LANGUAGES:
        if language == tag:
            return language
    return DEFAULT_LANGUAGE
