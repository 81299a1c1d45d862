"""Whether a chat line is decent: the word lists of `yamb/wordlists` matched as whole words.

The lists (English, French, Danish) are data files shipped inside the package, read once on first
use. A line and the list entries go through the same normalisation, so that an entry matches
however it is written:

- Unicode NFKC and casefold (fullwidth "FUCK", "Fuck" are "fuck"); invisible format characters
  (soft hyphens, zero-width joiners, variation selectors) are dropped.
- Accents are stripped for a second comparison ("putaín" is "putain"), and the plain form is
  compared too, so a letter of its own such as the Danish ø is never read as another letter.
- Leetspeak in a word that holds a letter ("sh1t", "a$$"); a number alone ("455", "5 5 5") is never
  read as letters: in a dice game's chat it is a score or the dice.
- Letters spelled out one by one ("f.u.c.k", "f u c k"), a word cut by punctuation ("fu.ck"), and a
  letter stretched to three or more ("fuuuck"; a doubled letter is a spelling: "cull" is not "cul").
- Words run together in camel case ("BigDickEnergy", "KissMyAss"): each part is read as a word.

Matching is by whole words, and a phrase entry matches the same words in a row: "Scunthorpe",
"class", "Dickens" or the French "contre" are no match for the entries inside them. The few
entries of `embedded.txt`, which no ordinary word of the three languages holds, are found inside
words too: "xfuckx", "FuckYou", "megabitch" (each letter as its entry has it, or stretched:
"shiitake" does not hold "shit").
"""

import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

LANGUAGES = ("en", "fr", "da")

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
# Characters that are part of a word besides letters, digits and marks: leetspeak for a and s.
_WORD_SYMBOLS = frozenset("@$")
# A letter repeated this often is emphasis, whatever the spelling: "fuuuck".
_STRETCHED = 3
# A word cut by punctuation and glued back only from this length: "s&m" is not "sm".
_MIN_GLUED = 4

# A normalised word: its letters with each run squeezed to one, and the run lengths.
type _Runs = tuple[str, tuple[int, ...]]


def _is_invisible(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or "\ufe00" <= char <= "\ufe0f"


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return "".join(char for char in folded if not _is_invisible(char))


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    kept = "".join(char for char in decomposed if unicodedata.category(char) not in ("Mn", "Me"))
    return unicodedata.normalize("NFC", kept)


def _tokens(text: str) -> list[list[str]]:
    """The words of each whitespace-separated chunk of `text`: runs of letters, digits, marks,
    @ and $; any other symbol (an emoji) is a word of its own; punctuation separates."""
    chunks: list[list[str]] = []
    for chunk in text.split():
        words: list[str] = []
        current: list[str] = []
        for char in chunk:
            category = unicodedata.category(char)
            if category[0] in "LNM" or char in _WORD_SYMBOLS:
                current.append(char)
                continue
            if current:
                words.append("".join(current))
                current = []
            if category == "So":
                words.append(char)
        if current:
            words.append("".join(current))
        if words:
            chunks.append(words)
    return chunks


def _unleet(word: str) -> str:
    return word if word.isdigit() else word.translate(_LEET)


def _is_word(word: str) -> bool:
    return unicodedata.category(word[0]) != "So"


def _forms(text: str) -> list[str]:
    """`text` folded, then also without its accents if it has any."""
    folded = _fold(text)
    stripped = _strip_accents(folded)
    return [folded] if stripped == folded else [folded, stripped]


def _chunks(form: str) -> list[list[str]]:
    return [[_unleet(word) for word in words] for words in _tokens(form)]


def _spelled(words: list[str], *, first_apart: bool = False) -> list[str]:
    """Single letters in a row read as one word: "f.u.c.k", "f u c k". With `first_apart`, the
    first of them stays a word of its own: "a p u t a i n" is "a" then "putain"."""
    spelled: list[str] = []
    letters: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1 and word.isalpha():
            letters.append(word)
            continue
        if first_apart and len(letters) > 2:
            spelled.append(letters.pop(0))
        spelled.extend(["".join(letters)] if len(letters) > 1 else letters)
        letters = []
        if word:
            spelled.append(word)
    return spelled


def _camel_split(text: str) -> str:
    """Words run together in camel case set apart ("BigDickEnergy" is "Big Dick Energy"): a
    lowercase letter followed by a capital starts a word. "Dickens" and "McDonald" stay whole
    words where it matters: a part is matched as a whole word, never inside one."""
    out: list[str] = []
    for before, char in zip(" " + text, text, strict=False):
        if before.islower() and char.isupper():
            out.append(" ")
        out.append(char)
    return "".join(out)


def _readings(text: str) -> list[list[str]]:
    """The word sequences a line is read as: its words, its camel-case words set apart, its
    spelled-out words glued, and each chunk cut by punctuation glued ("fu.ck", "f*ck*ng"; an
    emoji is set aside)."""
    readings: list[list[str]] = []
    camel = _camel_split(text)
    forms = _forms(text) + ([] if camel == text else _forms(camel))
    for form in forms:
        chunks = _chunks(form)
        words = [word for chunk in chunks for word in chunk]
        readings.append(words)
        for first_apart in (False, True):
            spelled = _spelled(words, first_apart=first_apart)
            if spelled != words and spelled not in readings:
                readings.append(spelled)
        if len(chunks) != len(words):
            glued = ["".join(word for word in chunk if _is_word(word)) for chunk in chunks]
            readings.append([word for word in glued if word])
    return readings


def _runs(word: str) -> _Runs:
    squeezed: list[str] = []
    counts: list[int] = []
    for char in word:
        if squeezed and squeezed[-1] == char:
            counts[-1] += 1
        else:
            squeezed.append(char)
            counts.append(1)
    return "".join(squeezed), tuple(counts)


def _stretches(found: tuple[int, ...], entry: tuple[int, ...]) -> bool:
    return all(
        seen == wanted or (seen > wanted and seen >= _STRETCHED)
        for seen, wanted in zip(found, entry, strict=True)
    )


class WordList:
    """Entries (words or phrases) matched as whole words in any text; see the module's doc."""

    __slots__ = ("_embedded", "_heads", "_index", "_longest")

    def __init__(self, entries: Iterable[str], embedded: Iterable[str] = ()) -> None:
        # The squeezed phrase -> the run lengths it must show, and the entry as written.
        self._index: dict[str, list[tuple[tuple[int, ...], str]]] = {}
        self._heads: set[str] = set()
        self._longest = 0
        # A phrase glued into one word ("blow job" as "blowjob") comes after the entries as
        # written, so that an entry written that way is the one found.
        glued: list[tuple[str, list[str]]] = []
        for entry in entries:
            for form in _forms(entry):
                words = [word for chunk in _chunks(form) for word in chunk]
                self._add(entry, words)
                if len(words) > 1 and len("".join(words)) >= _MIN_GLUED:
                    glued.append((entry, ["".join(words)]))
        for entry, words in glued:
            self._add(entry, words)
        # Entries found inside words: (the squeezed letters, their run lengths, the entry).
        self._embedded: list[tuple[str, tuple[int, ...], str]] = []
        for entry in embedded:
            for form in _forms(entry):
                words = [word for chunk in _chunks(form) for word in chunk]
                if len(words) == 1:
                    squeezed, counts = _runs(words[0])
                    self._embedded.append((squeezed, counts, entry))

    def _add(self, entry: str, words: list[str]) -> None:
        if not words:
            return
        runs = [_runs(word) for word in words]
        key, counts = _join(runs)
        known = self._index.setdefault(key, [])
        if all(existing != (counts, entry) for existing in known):
            known.append((counts, entry))
        self._heads.add(runs[0][0])
        self._longest = max(self._longest, len(words))

    def __len__(self) -> int:
        return len({entry for known in self._index.values() for _, entry in known})

    def find(self, text: str) -> str | None:
        """The first entry `text` holds, as the list writes it; None if it holds none."""
        for words in _readings(text):
            runs = [_runs(word) for word in words]
            for start, (head, _) in enumerate(runs):
                if head not in self._heads:
                    continue
                # The longest phrase first, and an entry written as the text before a stretched
                # one: "xxx" is "xxx", not "xx" stretched.
                for end in range(min(start + self._longest, len(runs)), start, -1):
                    key, counts = _join(runs[start:end])
                    known = self._index.get(key, ())
                    exact = [entry for wanted, entry in known if wanted == counts]
                    stretched = [entry for wanted, entry in known if _stretches(counts, wanted)]
                    if exact or stretched:
                        return (exact or stretched)[0]
        return self._find_embedded(text)

    def _find_embedded(self, text: str) -> str | None:
        if not self._embedded:
            return None
        for words in _readings(text):
            for word in words:
                squeezed, counts = _runs(word)
                for letters, wanted, entry in self._embedded:
                    if _holds(squeezed, counts, letters, wanted):
                        return entry
        return None


def _holds(squeezed: str, counts: tuple[int, ...], letters: str, wanted: tuple[int, ...]) -> bool:
    """Whether a word (its squeezed letters and run lengths) holds an entry's letters with the
    entry's runs: each as the entry has it, or stretched; a run at either end of the entry may
    go on outside it ("xxfuck")."""
    start = squeezed.find(letters)
    while start >= 0:
        found = counts[start : start + len(letters)]
        last = len(letters) - 1
        if all(
            seen >= need if index in (0, last) else (seen == need or seen >= max(need, _STRETCHED))
            for index, (seen, need) in enumerate(zip(found, wanted, strict=True))
        ):
            return True
        start = squeezed.find(letters, start + 1)
    return False


def _join(runs: list[_Runs]) -> _Runs:
    key = " ".join(squeezed for squeezed, _ in runs)
    counts: list[int] = []
    for index, (_, word_counts) in enumerate(runs):
        if index:
            counts.append(1)
        counts.extend(word_counts)
    return key, tuple(counts)


def read_entries(text: str) -> list[str]:
    """The entries of a word list file: one a line, blank lines and `#` comments skipped."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


@cache
def list_entries(language: str) -> tuple[str, ...]:
    """The entries of one language's list, read from the package's data (`yamb/wordlists`)."""
    if language not in LANGUAGES:
        raise ValueError(f"no word list for {language!r}")
    data = resources.files("yamb").joinpath("wordlists", f"{language}.txt")
    return tuple(read_entries(data.read_text(encoding="utf-8")))


@cache
def embedded_entries() -> tuple[str, ...]:
    """The entries found inside words too (`yamb/wordlists/embedded.txt`)."""
    data = resources.files("yamb").joinpath("wordlists", "embedded.txt")
    return tuple(read_entries(data.read_text(encoding="utf-8")))


# Entries of another language's list that are ordinary words of this one: a line written in it
# is not refused for them (a Danish "slut på spillet" is "the end of the game", "fart" is
# speed). Only whole-word entries: the embedded ones are none of these.
ORDINARY_WORDS: dict[str, frozenset[str]] = {
    "da": frozenset({"slut", "fart", "kok"}),
}


@cache
def default_list(language: str | None = None) -> WordList:
    """Every language's entries in one list, built once a writer's language; a `language`
    leaves out the entries that are ordinary words in it (ORDINARY_WORDS)."""
    ordinary = ORDINARY_WORDS.get(language or "", frozenset())
    return WordList(
        (
            entry
            for listed in LANGUAGES
            for entry in list_entries(listed)
            if entry.casefold() not in ordinary
        ),
        embedded_entries(),
    )


def find_offence(text: str, language: str | None = None) -> str | None:
    """The list entry `text` holds, as the list writes it (None if it holds none); `language`:
    the writer's, whose ordinary words are not offences."""
    return default_list(language).find(text)
