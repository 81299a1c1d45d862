"""Nicknames (A1, A5): at most 16 characters of letters, digits and `_ - .`, unique whatever the
letter case, and decent by the game chat's filter."""

import re
import unicodedata

from yamb.accounts.errors import AccountError
from yamb.decency import find_offence

MAX_NICKNAME_CHARS = 16
# Letters and digits of any script, joined by `_ - .`, starting and ending with one; no spaces
# (a name is one word on a sheet) and nothing invisible or combining (the name is NFC first).
_ALLOWED = re.compile(r"^[^\W_](?:[\w.\-]*[^\W_])?$")
# A purged account's nickname (A7): not a name anyone can register, as `#` is refused.
PURGED_PREFIX = "#"


def nickname_key(nickname: str) -> str:
    """What makes two nicknames the same one: NFKC and casefold ("Ana", "ANA", and
    "Ana" in fullwidth letters)."""
    return unicodedata.normalize("NFKC", nickname).casefold()


def check_nickname(nickname: str) -> str:
    """The nickname as it is kept (NFC, stripped), or an AccountError naming the rule broken."""
    cleaned = unicodedata.normalize("NFC", nickname.strip())
    if not cleaned:
        raise AccountError("a nickname is needed", code="nickname_empty", field="nickname")
    if len(cleaned) > MAX_NICKNAME_CHARS:
        raise AccountError(
            f"a nickname is at most {MAX_NICKNAME_CHARS} characters (this one has {len(cleaned)})",
            code="nickname_too_long",
            field="nickname",
        )
    if not _ALLOWED.match(cleaned):
        raise AccountError(
            "a nickname is letters and digits, with _ - or . between them",
            code="nickname_characters",
            field="nickname",
        )
    # "big_fuck", "Big.Fuck": the joiners separate words for the filter.
    if find_offence(re.sub(r"[_.\-]", " ", cleaned)) is not None:
        raise AccountError(
            "this nickname contains a word the game does not allow",
            code="nickname_indecent",
            field="nickname",
        )
    return cleaned


def purged_nickname(player_id: str) -> str:
    """What a deleted account is called in its opponents' games: an id, not a name."""
    return f"{PURGED_PREFIX}{player_id.replace('-', '')[:12]}"
