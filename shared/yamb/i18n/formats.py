"""Dates and numbers as each language writes them, without Babel (a development tool, never on
a Lambda's path).

A date is a whole sentence of the catalogue, one per month (`"{day} March {year}"`), so that a
translation chooses the order, the dots and the month's case (Croatian's "5. ožujka 2027." is a
genitive); a number takes its language's digit grouping and decimal mark (CLDR's symbols)."""

from datetime import date

from yamb.i18n.languages import Language
from yamb.i18n.text import Text, render

# One sentence per month; the catalogue's translation of each is the language's date pattern.
_MONTHS = (
    Text("{day} January {year}"),
    Text("{day} February {year}"),
    Text("{day} March {year}"),
    Text("{day} April {year}"),
    Text("{day} May {year}"),
    Text("{day} June {year}"),
    Text("{day} July {year}"),
    Text("{day} August {year}"),
    Text("{day} September {year}"),
    Text("{day} October {year}"),
    Text("{day} November {year}"),
    Text("{day} December {year}"),
)

# CLDR's grouping separator and decimal mark (French groups with a narrow no-break space).
_SYMBOLS: dict[str, tuple[str, str]] = {
    "en": (",", "."),
    "fr": ("\u202f", ","),
    "da": (".", ","),
    "hr": (".", ","),
}


def format_date(day: date, language: Language | str) -> str:
    """`day` in words, in `language` ("5 March 2027", "5 mars 2027", "5. marts 2027")."""
    pattern = _MONTHS[day.month - 1]
    return render(Text(pattern.message, day=day.day, year=day.year), language)


def format_number(value: int | float, language: Language | str, *, decimals: int = 0) -> str:
    """`value` with its language's digit grouping and decimal mark ("12,345.5", "12 345,5")."""
    group, mark = _SYMBOLS.get(language, _SYMBOLS["en"])
    sign = "-" if value < 0 else ""
    whole, _, fraction = f"{abs(value):.{decimals}f}".partition(".")
    groups: list[str] = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    number = group.join(groups)
    return f"{sign}{number}{mark}{fraction}" if fraction else f"{sign}{number}"


__all__ = ["format_date", "format_number"]
