"""Words a player reads, in their language (issue 29): English, French, Danish and Croatian.

A sentence is written once, in English, as the message id of a gettext catalogue
(`locales/<language>/LC_MESSAGES/yamb.po`, compiled to `.mo` by `scripts/catalogues`), with
`{name}` placeholders so that a translation may reorder it. Code that says something to a
player builds a `Text` (or a `Plural`) and the edge renders it in the reader's language; the
standard library's gettext reads the compiled catalogues (Babel, which extracts and compiles
them, is a development tool and never on a Lambda's path)."""

from yamb.i18n.formats import format_date, format_number
from yamb.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, Language, negotiate
from yamb.i18n.text import Plural, Text, listed, render

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Language",
    "Plural",
    "Text",
    "format_date",
    "format_number",
    "listed",
    "negotiate",
    "render",
]
