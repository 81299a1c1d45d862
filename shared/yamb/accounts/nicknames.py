"""Nicknames (A1, A5): at most 16 characters of letters, digits and `_ - .`, unique whatever the
letter case and whatever the look-alike letters (UTS 39's skeleton), and decent by the game
chat's filter."""

import re
import unicodedata

from yamb.accounts.errors import AccountError
from yamb.confusables import skeleton
from yamb.decency import find_offence
from yamb.i18n import Text

MAX_NICKNAME_CHARS = 16
# Letters and digits of any script, joined by `_ - .`, starting and ending with one; no spaces
# (a name is one word on a sheet) and nothing invisible or combining (the name is NFC first).
_ALLOWED = re.compile(r"^[^\W_](?:[\w.\-]*[^\W_])?$")
# A purged account's nickname (A7): not a name anyone can register, as `#` is refused.
PURGED_PREFIX = "#"


def nickname_key(nickname: str) -> str:
    """What makes two nicknames the same one: the UTS 39 skeleton of the casefolded name
    ("Ana", "ANA", "Ana" in fullwidth letters, "ana" with a Cyrillic a (U+0430) or a Greek Alpha
    (U+0391) for its first letter).
    The skeleton is taken before the casefold too, so that a capital that looks like another
    lowercase letter counts as it looks: "biIl" (capital I) is "bill", as casefolding first
    would make it "biil"."""
    folded = unicodedata.normalize("NFKC", skeleton(unicodedata.normalize("NFKC", nickname)))
    return skeleton(folded.casefold())


def legacy_nickname_key(nickname: str) -> str:
    """The key reservations had before the skeleton (NFKC and casefold): an account made then is
    still reserved under it until scripts/migrate-nicknames moves it (docs/accounts.md)."""
    return unicodedata.normalize("NFKC", nickname).casefold()


def check_nickname(nickname: str) -> str:
    """The nickname as it is kept (NFC, stripped), or an AccountError naming the rule broken."""
    cleaned = unicodedata.normalize("NFC", nickname.strip())
    if not cleaned:
        raise AccountError(Text("a nickname is needed"), code="nickname_empty", field="nickname")
    if len(cleaned) > MAX_NICKNAME_CHARS:
        raise AccountError(
            Text(
                "a nickname is at most {max_nickname_chars} characters (this one has {count})",
                max_nickname_chars=MAX_NICKNAME_CHARS,
                count=len(cleaned),
            ),
            code="nickname_too_long",
            field="nickname",
        )
    if not _ALLOWED.match(cleaned):
        raise AccountError(
            Text("a nickname is letters and digits, with _ - or . between them"),
            code="nickname_characters",
            field="nickname",
        )
    # "big_fuck", "Big.Fuck": the joiners separate words for the filter, and so does a capital
    # after a lowercase letter ("BigAss" is "Big Ass"); the filter's embedded entries are found
    # in "xfuckx" and "FuckYou" whatever the case.
    if find_offence(_words(cleaned)) is not None:
        raise AccountError(
            Text("this nickname contains a word the game does not allow"),
            code="nickname_indecent",
            field="nickname",
        )
    return cleaned


def _words(nickname: str) -> str:
    """The nickname as the words it reads as: split at its joiners and its camel humps."""
    spaced = re.sub(r"[_.\-]", " ", nickname)
    return "".join(
        f" {char}" if index and char.isupper() and spaced[index - 1].islower() else char
        for index, char in enumerate(spaced)
    )


def purged_nickname(player_id: str) -> str:
    """What a deleted account is called in its opponents' games: an id, not a name."""
    return f"{PURGED_PREFIX}{player_id.replace('-', '')[:12]}"
