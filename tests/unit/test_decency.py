"""The chat's word lists: whole words in English, French and Danish, however they are written,
and no word flagged for an entry hidden inside it (the Scunthorpe problem)."""

import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from yamb.decency import LANGUAGES, WordList, embedded_entries, find_offence, list_entries


def test_word_lists_are_read_from_the_package_for_each_language() -> None:
    # given the lists shipped in yamb/wordlists
    # when each language's entries are read
    sizes = {language: len(list_entries(language)) for language in LANGUAGES}

    # then each has its entries and none of its header comments
    assert sizes == {"en": 403, "fr": 91, "da": 20}
    assert not any(
        entry.startswith("#") for language in LANGUAGES for entry in list_entries(language)
    )


def test_word_lists_every_entry_finds_itself() -> None:
    # given every entry of every list
    entries = [entry for language in LANGUAGES for entry in list_entries(language)]

    # when each is looked for as a chat line of its own
    found = {entry: find_offence(entry) for entry in entries}

    # then each is found as the list writes it
    assert {entry: entry for entry in entries} == found


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("what the fuck was that roll", "fuck"),
        ("you BITCH", "bitch"),
        ("Bullshit, nobody rolls five sixes", "bullshit"),
        ("that was a blow job of a turn", "blow job"),
    ],
)
def test_find_offence_english_words_and_phrases(text: str, entry: str) -> None:
    # given an English line / when it is checked / then its entry is found
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("putain, encore un yamb", "putain"),
        ("t'es vraiment un con", "con"),
        ("Quel connard !", "connard"),
        ("nique ta mère", "nique ta mère"),
        ("espèce d'enculé", "enculé"),
    ],
)
def test_find_offence_french_words_and_phrases(text: str, entry: str) -> None:
    # given a French line / when it is checked / then its entry is found
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("sikke noget lort", "lort"),
        ("dit RØVHUL", "røvhul"),
        ("din luder", "luder"),
        ("fissehår", "fissehår"),
    ],
)
def test_find_offence_danish_words(text: str, entry: str) -> None:
    # given a Danish line / when it is checked / then its entry is found
    assert find_offence(text) == entry


def test_find_offence_ignores_accents_but_keeps_danish_letters() -> None:
    # given lines written with missing or extra accents, and Danish letters written as others
    # when they are checked
    extra = find_offence("putaín")
    missing = [find_offence("nique ta mere"), find_offence("encule"), find_offence("fissehar")]
    other_letter = find_offence("rov")

    # then accents do not matter, but ø is a letter of its own: "rov" is not "røv"
    assert extra == "putain"
    assert missing == ["nique ta mère", "enculé", "fissehår"]
    assert other_letter is None


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("sh1t happens", "shit"),
        ("you 4ss", "ass"),
        ("a$$", "ass"),
        ("@ss", "ass"),
        ("b1tch", "bitch"),
        ("c0n", "con"),
        ("7i7s", "tits"),
        ("pu7ain", "putain"),
    ],
)
def test_find_offence_leetspeak(text: str, entry: str) -> None:
    # given a word with digits or symbols for letters / when checked / then it is read as letters
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    "text",
    ["I scored 455", "my dice: 4 5 5 1 3", "5 5 5 5 5 is a yamb", "1 4 5 5 7", "$5 says I win"],
)
def test_find_offence_numbers_alone_are_not_leetspeak(text: str) -> None:
    # given scores and dice, which a dice game's chat is full of
    # when checked / then no number is read as letters ("455" is not "ass")
    assert find_offence(text) is None


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("f.u.c.k", "fuck"),
        ("f u c k you", "fuck"),
        ("f-u-c-k", "fuck"),
        ("f*u*c*k", "fuck"),
        ("fu.ck", "fuck"),
        ("fuuuck", "fuck"),
        ("f u u u c k", "fuck"),
        ("shiiiiit", "shit"),
        ("c.o.n", "con"),
        ("p.u.t.a.i.n", "putain"),
        ("fu\u00adck", "fuck"),  # a soft hyphen
        ("f\u200bu\u200bc\u200bk", "fuck"),  # zero-width spaces
        ("\uff26\uff35\uff23\uff2b", "fuck"),  # fullwidth letters
    ],
)
def test_find_offence_spelled_out_stretched_or_hidden(text: str, entry: str) -> None:
    # given a word spelled letter by letter, cut, stretched or hidden
    # when checked / then the word is found
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("xfuckx", "fuck"),
        ("FuckYou", "fuck"),
        ("fuuuckyou", "fuck"),
        ("x.fuck.x", "fuck"),
        ("megabitch", "bitch"),
        ("ShitHead", "shit"),
        ("ultraasshole", "asshole"),
        ("sal0pard.connard", "connard"),
        ("grosputain", "putain"),
    ],
)
def test_find_offence_embedded_entries_inside_words(text: str, entry: str) -> None:
    # given an entry of embedded.txt glued inside a longer word, in any case
    # when checked / then it is found
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    "text",
    ["shiitake risotto", "push it", "swanky", "a snigger", "salopette", "saltwater", "pussycat"],
)
def test_find_offence_embedded_entries_need_their_own_letters(text: str) -> None:
    # given words that hold an embedded entry's letters only across a doubled letter or a space,
    # or an entry that stays whole-word because decent words hold it
    # when checked / then nothing is flagged
    assert find_offence(text) is None


def test_embedded_entries_are_entries_of_the_lists() -> None:
    # given embedded.txt / then each of its entries is an entry of a language's list
    entries = {entry for language in LANGUAGES for entry in list_entries(language)}
    assert set(embedded_entries()) <= entries
    assert len(embedded_entries()) == 30


def test_find_offence_doubled_letter_is_a_spelling_not_emphasis() -> None:
    # given English words that are an entry with one letter doubled
    # when checked
    found = [find_offence("cull the weak"), find_offence("the bobs of the boat")]

    # then they are not that entry ("cull" is not "cul", "bobs" is not "boobs")
    assert found == [None, None]


@pytest.mark.parametrize(
    "text",
    [
        "Scunthorpe",
        "Scunthorpe United won",
        "a class act",
        "the assessment of the game",
        "Charles Dickens",
        "contre toute attente",
        "du bacon",
        "un raccourci, c'est déconcertant",
        "Penistone",
        "a cocktail after the game",
        "my therapist",
        "grapes and butter",
        "Sussex",
        "analysis of the sheet",
        "assassin",
        "titanic score",
        "cumulative total",
        "Hancock",
        "as good as it gets",
        "pass the dice",
        "il y a trois cases",
        "jeg er på vej",
        "han spiste et æble",
    ],
)
def test_find_offence_scunthorpe_words_containing_an_entry_pass(text: str) -> None:
    # given a decent line whose words contain an entry
    # when checked / then nothing is flagged: entries match whole words only
    assert find_offence(text) is None


def test_find_offence_emoji_entry() -> None:
    # given the middle finger, with and without a skin tone
    # when checked
    found = [find_offence("\U0001f595"), find_offence("ok \U0001f595\U0001f3fb")]

    # then both are the list's emoji
    assert found == ["\U0001f595", "\U0001f595"]


def test_word_list_phrase_matches_only_its_words_in_a_row() -> None:
    # given a list with one phrase
    words = WordList(["nique ta race"])

    # when lines holding the phrase, or only its words, are checked
    whole = words.find("Nique   ta RACE !")
    scattered = words.find("nique ... ta ... course, race")

    # then the phrase is found only as a phrase
    assert whole == "nique ta race"
    assert scattered is None


def test_word_list_entry_with_a_letter_that_strips_to_another_matches_both() -> None:
    # given a list with a word holding å
    words = WordList(["skåltale"])

    # when the word is written with å, with a, and in capitals
    found = [words.find("en skåltale"), words.find("en skaltale"), words.find("SKÅLTALE")]

    # then each is the entry
    assert found == ["skåltale"] * 3


def test_find_offence_tells_a_decent_line_from_an_indecent_one() -> None:
    # given a decent and an indecent line / when checked / then only the indecent one has one
    assert find_offence("nice yamb, well played") is None
    assert find_offence("well played, asshole") is not None


@given(st.text(max_size=200))
def test_find_offence_never_raises(text: str) -> None:
    # given any text / when checked / then an entry or None comes back
    found = find_offence(text)
    assert found is None or isinstance(found, str)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=200))
def test_find_offence_is_case_insensitive(text: str) -> None:
    # given any ASCII line without camel case: a lowercase letter then a capital starts a word
    # on purpose ("BigDickEnergy"), so "S:mA" reads "S:m A" as its lower case cannot
    assume(re.search("[a-z][A-Z]", text) is None)
    # when checked in lower and in upper case / then the verdict is the same
    assert find_offence(text.lower()) == find_offence(text) == find_offence(text.upper())


@given(
    st.sampled_from([entry for language in LANGUAGES for entry in list_entries(language)]),
    st.lists(st.booleans(), min_size=40, max_size=40),
    st.text(alphabet="abcdefghij ", max_size=20),
)
def test_find_offence_finds_an_entry_in_any_case_between_words(
    entry: str, upper: list[bool], filler: str
) -> None:
    # given an entry with random letters in capitals, between other words
    cased = "".join(
        char.upper() if capital else char for char, capital in zip(entry, upper, strict=False)
    )
    text = f"hi {cased}{entry[len(cased) :]} {filler}"

    # when checked
    found = find_offence(text)

    # then an entry is found
    assert found is not None


def test_find_offence_spelled_out_after_a_one_letter_word() -> None:
    # given a word spelled out letter by letter right after "a" / when checked / then found
    assert find_offence("you are a p u t a i n") == "putain"
    assert find_offence("i f u c k you") == "fuck"


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("BigDickEnergy", "dick"),
        ("KissMyAss", "ass"),
        ("youAreAnIdiotAndAnAsshole", "asshole"),
        ("PutainDeMerde", "putain"),
    ],
)
def test_find_offence_camel_case_words_are_read_apart(text: str, entry: str) -> None:
    # given words run together in camel case / when checked / then the entry among them is found
    assert find_offence(text) == entry


@pytest.mark.parametrize(
    "text",
    ["Dickens", "McDonald", "ClassAct", "GoodGame", "WellPlayed", "passAssist", "Scunthorpe"],
)
def test_find_offence_camel_case_keeps_ordinary_names_whole(text: str) -> None:
    # given camel-case names whose parts hold an entry only inside a word / then nothing is found
    assert find_offence(text) is None


def test_find_offence_another_languages_entry_that_is_an_ordinary_word_passes_its_writer() -> None:
    # given a Danish line saying "the game is over, at full speed"
    line = "slut på spillet, fuld fart"
    # when a Danish writer sends it, and when an English one does
    # then only the Danish writer's passes: the words are ordinary Danish
    assert find_offence(line, "da") is None
    assert find_offence(line, "en") == "slut"
    # and a Danish writer is still refused the entries that are not Danish words
    assert find_offence("fuck dig", "da") == "fuck"
