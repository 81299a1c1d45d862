"""The words of the badges and the weekly tasks (badges.json, catalogue.json) as catalogue
sentences (issue 29).

Babel extracts `Text("…")` literals from Python, not JSON's fields: each title and description
of the two files is written here once more, and tests/unit/test_progression_words.py fails when a
file's sentence is not here (or one here is no file's). The server renders a rule's English
title or description in the reader's language with `said`."""

from yamb.i18n import Language, Text, text

# Each badge's title and what it counts (badges.json), Pioneer last.
BADGE_WORDS: tuple[tuple[Text, Text], ...] = (
    (Text("Weekly challenge"), Text("Complete all of a week's tasks")),
    (Text("Champion"), Text("Win a fair game (against a real player, not solo, no bot)")),
    (Text("Veteran"), Text("Play a turn on different days")),
    (Text("Collector"), Text("Unlock cosmetics (dice, sheet or effect)")),
    (Text("Sociable"), Text("Play against different real players")),
    (Text("Benefactor"), Text("Give tokens (gifts of tokens or premium)")),
    (Text("Master"), Text("Write a Yamb (five of a kind) in a 5-dice game")),
    (Text("Poker"), Text("Write a maximal poker (four sixes)")),
    (Text("Aces"), Text("Write maximal aces (five ones)")),
    (Text("Premium seniority"), Text("Gather days of premium (bought or given)")),
    (Text("Recruiter"), Text("Bring active players (invite friends)")),
    (Text("Monthly board - 1st place"), Text("Finish a month 1st on a board")),
    (Text("Monthly board - 2nd place"), Text("Finish a month 2nd on a board")),
    (Text("Monthly board - 3rd place"), Text("Finish a month 3rd on a board")),
    (Text("Pairs of the month"), Text("Be in the winning pair of the monthly 2 vs 2 board")),
    (Text("Pioneer"), Text("Be among the first verified players")),
)

# Each weekly task's title (catalogue.json).
TASK_WORDS: tuple[Text, ...] = (
    Text("Finish 3 games"),
    Text("Finish 6 games"),
    Text("Play 80 turns"),
    Text("Fill your whole sheet in 2 games"),
    Text("Finish a slow game"),
    Text("Play against 3 different players"),
    Text("Play against 5 different players"),
    Text("Play a 2 vs 2 game"),
    Text("Finish a game at a table of 3 or 4"),
    Text("Win 2 games"),
    Text("Win a ranked game"),
    Text("Write a Yamb (five of a kind)"),
    Text("Take the upper bonus in 3 columns"),
    Text("Score 800 or more on a sheet"),
    Text("Play 2 different column presets"),
    Text("Play 4 different column presets"),
    Text("Play a game of preset 5"),
    Text("Play a game with 6 dice"),
    Text("Play a game of Yahtzee, Yatzy, Yacht or Generala"),
    Text("Play 3 games with members of your club"),
)


def said(english: str, language: Language) -> str:
    """A title or description of the two files (its English, the message id) in `language`;
    as it is when the catalogue has no translation yet."""
    return text.catalogue(language).gettext(english)


__all__ = ["BADGE_WORDS", "TASK_WORDS", "said"]
