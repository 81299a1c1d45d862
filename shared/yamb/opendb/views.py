"""What the open database publishes beside the games: the file names, the licence and README
texts, and the listing's models (the HTTP API's `GET /database`, the manifest). No game model:
the boards function lists the months without loading one."""

from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

# The line format's version: a reader checks it before anything else.
LINE_FORMAT: Final = "yamb-game/1"
LICENCE_NAME = "CC0 1.0 Universal (public domain dedication)"
LICENCE_URL = "https://creativecommons.org/publicdomain/zero/1.0/"
LICENCE_FILE = "LICENSE.txt"
README_FILE = "README.md"
MANIFEST_FILE = "manifest.json"


def month_file_name(month: str) -> str:
    return f"yamb_games_{month}.jsonl.gz"


def is_file_name(name: str) -> bool:
    """A name the database serves: a month's file, the manifest, the licence or the README."""
    if name in (MANIFEST_FILE, LICENCE_FILE, README_FILE):
        return True
    prefix, suffix = "yamb_games_", ".jsonl.gz"
    middle = name.removeprefix(prefix).removesuffix(suffix)
    return (
        name.startswith(prefix)
        and name.endswith(suffix)
        and len(middle) == len("2026-11")
        and middle[4] == "-"
        and (middle[:4] + middle[5:]).isdigit()
    )


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class DatabaseFile(_View):
    name: str = Field(description="the file's name, e.g. yamb_games_2026-11.jsonl.gz")
    url: str = Field(description="where to download it (GET, no sign-in)")
    bytes: int = Field(description="its size")
    sha256: str = Field(description="its SHA-256, hex")
    games: int = Field(description="the games in it, one per line")


class DatabaseMonth(_View):
    month: str = Field(description="YYYY-MM (UTC): the games that ended in it")
    exported_at: datetime
    files: list[DatabaseFile]


class Licence(_View):
    name: str = LICENCE_NAME
    url: str = LICENCE_URL
    file: str = Field(description="the licence beside the files")


class DatabaseView(_View):
    """The open game database: every month exported, newest first, with the licence."""

    format: str = Field(default=LINE_FORMAT, description="the lines' format (docs/competition.md)")
    licence: Licence
    readme: str = Field(description="the README: the line format and how to verify a game")
    months: list[DatabaseMonth]
    verify: str = Field(
        default="yamb verify --game yamb_games_YYYY-MM.jsonl.gz",
        description="how to verify a game of a file with the `yamb` tool",
    )


LICENCE_TEXT = f"""Yamb open game database
=======================

{LICENCE_NAME}
{LICENCE_URL}legalcode

To the extent possible under law, the Yamb project has waived all copyright and related or
neighboring rights to the Yamb open game database (every file yamb_games_YYYY-MM.jsonl.gz and
manifest.json published beside this file). You can copy, modify, distribute and use the data,
even for commercial purposes, all without asking permission.

The files hold finished public games: their rules, dates, outcome, the players' nicknames and
totals, each game's dice record with its revealed seed, and each turn's moves. They hold no
e-mail address, no chat and no other personal data.
"""

README_TEXT = f"""# Yamb open game database

Every finished public game of a month (UTC), one file per month, published after the month
ends: `yamb_games_YYYY-MM.jsonl.gz`, gzip of JSON Lines, one game per line, in the order the
games ended. `manifest.json` lists every month with each file's size, SHA-256 and number of
games. Licence: {LICENCE_NAME} ({LICENCE_URL}), see {LICENCE_FILE}.

A line (format `{LINE_FORMAT}`):

- `id`, `rules` (the rule set: grid, preset or columns, dice, players, turn type, ...), `play`
  (`individual` or `pairs`), `createdAt`, `endedAt`, `outcome`, `tournament`;
- `seats`: in seat order, each `nickname`, `bot` (a bot's level, or null), `total`, `full`,
  `left`, `winner`;
- `dice`: the game's dice record, as the `verify` action answers it: `scheme`, `gameId`,
  `diceCount`, `sameDice`, `seed` (the server's seed, revealed), `commitment` (its SHA-256,
  published before the first roll), `clientSeeds`, `turns` (per turn `seat:label:dice`, then
  `;kept:dice` per later roll);
- `moves`: per turn, its moves (`|a<column>.<row>@<roll>` an announcement, `|w<column>.<row>:
  <score>` a write, `!` when the clock wrote it, `|p...` a 2 vs 2 proposal).

Which games: played to their end by at least two seats (people or bots), not cancelled, on
the server's dice (not a scorekeeping table of real dice).

Verify a file: its SHA-256 against the manifest (`sha256sum`). Verify a game: every die from
its revealed seed, with the `yamb` tool of the project:

    yamb verify --game yamb_games_2026-11.jsonl.gz     # every game of the file
    zcat yamb_games_2026-11.jsonl.gz | head -n 1 > game.json
    yamb verify --game game.json                        # one game

or with a verifier of your own written from the dice scheme (docs/dice.md).
"""


class DatabaseFileLink(_View):
    url: str = Field(description="where the file downloads for the next hour (also `Location`)")
