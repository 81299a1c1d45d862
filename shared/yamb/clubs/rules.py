"""What a club may be and what it costs (C1, C4, C5), as data: a name unique whatever the case
and the look-alike letters, a tag of 2-4 characters with its colours, a stock avatar or its
own, a description of at most 300 characters; 30 seats and 5 more per level; the treasury's
prices. Every text a player writes passes the decency filter."""

import re
import unicodedata

from yamb.clubs.errors import ClubError
from yamb.confusables import skeleton
from yamb.decency import find_offence
from yamb.i18n import Text

MIN_NAME_CHARS, MAX_NAME_CHARS = 3, 24
MIN_TAG_CHARS, MAX_TAG_CHARS = 2, 4
MAX_DESCRIPTION_CHARS = 300
MAX_REQUEST_MESSAGE_CHARS = 140

BASE_CAPACITY = 30
CAPACITY_PER_LEVEL = 5
MAX_CAPACITY = 100
MAX_LEVEL = (MAX_CAPACITY - BASE_CAPACITY) // CAPACITY_PER_LEVEL
# A deputy is always allowed, and one more per this many members.
MEMBERS_PER_EXTRA_DEPUTY = 20

# Clubs a player may be in; admin of at most one (C1).
CLUBS_FREE = 1
CLUBS_PREMIUM = 3

# A club's chat (C6): live, at most this many lines in a window of this many seconds whoever
# writes them (each is posted to every connected member: decision 191); announcements are
# kept this long, the latest this many shown.
CLUB_LINES_PER_WINDOW = 10
CLUB_CHAT_WINDOW_SECONDS = 10
ANNOUNCEMENT_DAYS = 30
ANNOUNCEMENTS_SHOWN = 20

# The club reward (E6): a club of at least this many members whose live members together have
# claimed these shares of all their week's tasks gets, into its treasury, each tier's tokens per
# member counted, each tier once a week.
CLUB_REWARD_MIN_MEMBERS = 10
CLUB_REWARD_TIERS: dict[int, int] = {50: 10, 80: 20}  # percent of the tasks -> tokens a member

MIN_DONATION = 10
# Tokens from the treasury: the level reached (1 to MAX_LEVEL) -> its price.
LEVEL_PRICES: dict[int, int] = {level: 300 + 100 * level for level in range(1, MAX_LEVEL + 1)}
# A rename: the first costs this much, and each one after it twice the one before.
FIRST_RENAME_PRICE = 250
# The club's own avatar (the picture is the client's): for life, as a player's own (E5).
OWN_AVATAR_PRICE = 500
OWN_AVATAR = "own"
# A club's treasury is a wallet (yamb.economy.ledger) whose owner is the club: every movement
# is a ledger entry on both sides, as a gift is.
TREASURY_OWNER = "club:"
STOCK_AVATARS = ("shield", "crown", "dice", "star", "anchor", "flame", "leaf", "wave")

# Letters and digits of any script, with single spaces and `_ - . ' &` between them.
_NAME = re.compile(r"^[^\W_](?:[\w.'&\- ]*[^\W_.'&\- ])?$")
_TAG = re.compile(r"^[^\W_]+$")
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def treasury_owner(club_id: str) -> str:
    return f"{TREASURY_OWNER}{club_id}"


def capacity(level: int) -> int:
    return min(MAX_CAPACITY, BASE_CAPACITY + CAPACITY_PER_LEVEL * level)


def deputies_allowed(members: int) -> int:
    return 1 + members // MEMBERS_PER_EXTRA_DEPUTY


def clubs_allowed(premium: bool) -> int:
    return CLUBS_PREMIUM if premium else CLUBS_FREE


def level_price(level: int) -> int:
    """The price of reaching `level` (ClubError max_level past the last one)."""
    if level not in LEVEL_PRICES:
        raise ClubError(
            Text("the club has reached its last level ({max_level})", max_level=MAX_LEVEL),
            code="max_level",
        )
    return LEVEL_PRICES[level]


def reward_tiers(members: int, claimed: int, tasks: int) -> list[tuple[int, int]]:
    """The club reward's tiers reached (percent, tokens) by `members` live members who claimed
    `claimed` of their `tasks` week's tasks; none under CLUB_REWARD_MIN_MEMBERS."""
    if members < CLUB_REWARD_MIN_MEMBERS or tasks <= 0:
        return []
    return [
        (percent, per_member * members)
        for percent, per_member in sorted(CLUB_REWARD_TIERS.items())
        if claimed * 100 >= percent * tasks
    ]


def rename_price(renames_before: int) -> int:
    return int(FIRST_RENAME_PRICE * 2**renames_before)


def name_key(name: str) -> str:
    """What makes two club names the same one (C1: whatever the case and the look-alike
    letters): UTS 39's skeleton (a Cyrillic e is an e), casefolded, the skeleton again, spaces
    ignored, and i read as l, since a capital I and a small l are drawn alike ("DlCE KINGS"
    is "Dice Kings")."""
    # The skeleton before casefolding too: a capital Cyrillic Ka is a K, its small one a kra.
    seen = skeleton(unicodedata.normalize("NFKC", name))
    return search_key(seen).replace("i", "l")


def search_key(text: str) -> str:
    """A name, or its first letters, as the clubs' list compares them: casefolded first, then
    the skeleton, spaces ignored (as the players list, yamb.social.players.search_key: one
    searching types "DICE" or "dice" for "Dice Kings" alike)."""
    return skeleton(unicodedata.normalize("NFKC", text.strip()).casefold()).replace(" ", "")


def check_name(name: str) -> str:
    """The name as it is kept (NFC, single spaces), or a ClubError naming the rule broken."""
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not MIN_NAME_CHARS <= len(cleaned) <= MAX_NAME_CHARS:
        raise ClubError(
            Text(
                "a club's name is {min_chars} to {max_chars} characters",
                min_chars=MIN_NAME_CHARS,
                max_chars=MAX_NAME_CHARS,
            ),
            code="club_name_invalid",
            field="name",
        )
    if not _NAME.match(cleaned):
        raise ClubError(
            Text("a club's name is letters and digits, with spaces or _ - . ' & between them"),
            code="club_name_invalid",
            field="name",
        )
    if find_offence(re.sub(r"[_.'&\-]", " ", cleaned)) is not None:
        raise ClubError(
            Text("this name contains a word the game does not allow"),
            code="club_name_indecent",
            field="name",
        )
    return cleaned


def check_tag(tag: str) -> str:
    cleaned = unicodedata.normalize("NFC", tag.strip())
    if not MIN_TAG_CHARS <= len(cleaned) <= MAX_TAG_CHARS or not _TAG.match(cleaned):
        raise ClubError(
            Text(
                "a tag is {min_chars} to {max_chars} letters or digits",
                min_chars=MIN_TAG_CHARS,
                max_chars=MAX_TAG_CHARS,
            ),
            code="club_tag_invalid",
            field="tag",
        )
    if find_offence(cleaned) is not None:
        raise ClubError(
            Text("this tag contains a word the game does not allow"),
            code="club_tag_indecent",
            field="tag",
        )
    return cleaned


def check_colour(colour: str, field: str) -> str:
    cleaned = colour.strip().lower()
    if not _COLOUR.match(cleaned):
        raise ClubError(
            Text("a colour is written #rrggbb"), code="club_colour_invalid", field=field
        )
    return cleaned


def check_description(description: str) -> str:
    cleaned = unicodedata.normalize("NFC", description.strip())
    if len(cleaned) > MAX_DESCRIPTION_CHARS:
        raise ClubError(
            Text(
                "a description is at most {max_chars} characters",
                max_chars=MAX_DESCRIPTION_CHARS,
            ),
            code="club_description_invalid",
            field="description",
        )
    if find_offence(cleaned) is not None:
        raise ClubError(
            Text("this description contains a word the game does not allow"),
            code="club_description_invalid",
            field="description",
        )
    return cleaned


def check_stock_avatar(avatar: str) -> str:
    if avatar not in STOCK_AVATARS:
        raise ClubError(
            Text("choose one of the stock avatars, or buy the club's own"),
            code="club_avatar_invalid",
            field="avatar",
        )
    return avatar
