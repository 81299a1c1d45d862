"""The public page (R5, GET /pages/<nickname> for a browser) in its visitor's language (issue
29): its words are catalogue sentences, its numbers as the language writes them, `<html lang>`
set. Everything from a player (nickname, description, country) is escaped text."""

import html

from yamb.i18n import Language, Text, format_number, render
from yamb.results.messages import StatisticsView

# The percent sign as each language sets it (CLDR): French with a narrow no-break space,
# Danish and Croatian with a no-break space.
_PERCENT = {
    "en": "{number}%",
    "fr": "{number}\u202f%",
    "da": "{number}\u00a0%",
    "hr": "{number}\u00a0%",
}


def page(language: Language, title: str, text: str, content: str, style: str) -> str:
    """A whole page: `title` and `text` are escaped here, `content` is HTML already."""
    paragraph = f"<p>{html.escape(text)}</p>" if text else ""
    return (
        f"<!doctype html><html lang={language}><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} · Yamb</title><style>{style}</style>"
        f"<body><h1>{html.escape(title)}</h1>{paragraph}{content}</body></html>"
    )


def missing_page(language: Language, style: str) -> str:
    """The page of a nickname that has none (switched off, deleted, unknown)."""
    return page(
        language,
        render(Text("No such page"), language),
        render(Text("This player has no public page."), language),
        "",
        style,
    )


def statistics_page(view: StatisticsView, language: Language, style: str) -> str:
    return page(language, view.nickname, "", _statistics(view, language), style)


def _percent(share: float | None, language: Language) -> str:
    if share is None:
        return "-"
    return _PERCENT.get(language, _PERCENT["en"]).format(
        number=format_number(round(share * 100), language)
    )


def _statistics(view: StatisticsView, language: Language) -> str:
    e = html.escape
    number = format_number
    place = view.main_board_place
    medals = view.medals.gold + view.medals.silver + view.medals.bronze
    figures = [
        (Text("Games"), number(view.games, language)),
        (Text("Wins"), _percent(view.win_rate, language)),
        (
            Text("Main board"),
            "-" if place is None else render(Text("#{place}", place=place), language),
        ),
        (Text("Medals"), number(medals, language)),
        (
            Text("Won / lost"),
            render(
                Text(
                    "{wins} / {losses}",
                    wins=number(view.wins, language),
                    losses=number(view.losses, language),
                ),
                language,
            ),
        ),
        (Text("Abandoned"), number(view.abandoned, language)),
        (Text("Bonus"), _percent(view.rates.bonus, language)),
        (Text("Yamb"), _percent(view.rates.yamb, language)),
        (Text("Poker"), _percent(view.rates.poker, language)),
        (Text("Crossed out"), _percent(view.rates.crossed_out, language)),
    ]
    rows = "".join(
        f"<tr><th align=left>{e(render(name, language))}</th><td>{e(value)}</td></tr>"
        for name, value in figures
    )
    records = "".join(
        f"<tr><th align=left>{e(kind)}</th><td>{e(number(record.score, language))}</td></tr>"
        for kind, record in sorted(view.records.items())
    )
    about = f"<p>{e(view.description)}</p>" if view.description else ""
    country = ""
    if view.country:
        said = render(Text("Country: {country}", country=view.country), language)
        country = f"<p>{e(said)}</p>"
    heading = e(render(Text("Records"), language))
    return f"{about}{country}<table>{rows}</table>" + (
        f"<h2>{heading}</h2><table>{records}</table>" if records else ""
    )


__all__ = ["missing_page", "page", "statistics_page"]
