"""The message catalogues (issue 29) cannot rot: every sentence of the sources is in them, and
what the server and the page read is compiled from them."""

from yamb.i18n import Plural, Text, negotiate, render
from yamb_tools import catalogues


def test_catalogues_hold_every_sentence_of_the_sources_and_are_compiled_from_them() -> None:
    # given the sources' sentences, extracted now as `make catalogues` does
    # when they are compared with the committed templates, .po files and compiled catalogues
    problems = list(catalogues.drift())

    # then nothing is missing, stale or compiled from an older .po
    assert problems == []


def test_plural_categories_map_to_each_languages_gettext_forms() -> None:
    # given each language's gettext plural rule, as its catalogue's header states it
    rules = {
        language: catalogues.read(catalogues.SERVER.po(language), language).plural_expr
        for language in catalogues.TRANSLATED
    }

    # when the browser's plural categories are mapped to the catalogue's forms
    indexes = {language: catalogues.plural_indexes(language, rules[language]) for language in rules}

    # then Croatian's three forms and French's "0 and 1 are singular" come out as CLDR says
    assert indexes["hr"] == {"one": 0, "few": 1, "other": 2}
    assert indexes["fr"] == {"one": 0, "many": 1, "other": 1}
    assert indexes["da"] == {"one": 0, "other": 1}


def test_a_sentence_is_english_until_its_reader_is_known() -> None:
    # given a sentence with a placeholder that is itself a sentence
    text = Text("{who} asks: {question}", who="ana", question=Text("a rematch?"))

    # then it reads in English by default, placeholders filled
    assert str(text) == "ana asks: a rematch?"
    assert str(Plural("{count} token", "{count} tokens", 1)) == "1 token"
    assert render(Plural("{count} token", "{count} tokens", 2), "en") == "2 tokens"
    assert render("already words", "fr") == "already words"


def test_the_reader_language_is_negotiated_from_accept_language() -> None:
    assert negotiate("da-DK,da;q=0.9,en;q=0.8") == "da"
    assert negotiate("de-DE, fr-CH;q=0.5") == "fr"
    assert negotiate("hr;q=0.3, fr;q=0.4") == "fr"
    assert negotiate("de, *;q=0.1") == "en"
    assert negotiate(None) == "en"
    assert negotiate("fr;q=zero, da") == "da"


def test_page_words_marked_for_translation_are_extracted_from_texts_labels_placeholders() -> None:
    # given a page with a marked text, a marked aria-label, a marked placeholder and words
    # that are not marked
    page = (
        "<h2 data-i18n>Open   games</h2> <h1>Yamb</h1>\n"
        '<nav data-i18n-label aria-label="Screens"></nav><input aria-label="not marked">\n'
        '<input data-i18n-placeholder placeholder="Say something"'
        ' data-i18n-label aria-label="chat message">'
    )

    # when its words are extracted
    words = catalogues.marked_words(page)

    # then each marked word is a message id with its line, the rest is not
    assert sorted(words) == [
        (1, "Open games"),
        (2, "Screens"),
        (3, "Say something"),
        (3, "chat message"),
    ]


def test_every_language_translates_every_message_with_the_same_placeholders() -> None:
    # given the French, Danish and Croatian catalogues of the server and of the page
    # when each message is looked for in each, with its placeholders and plural forms
    problems = list(catalogues.untranslated())

    # then none is missing, fuzzy, short of a plural form, or with other placeholders
    assert problems == []


def test_a_sentence_is_said_in_the_readers_language_from_the_compiled_catalogue() -> None:
    # given a refusal and a count the server says
    turn = Text("it is not your turn")
    characters = Plural("at least {count} character", "at least {count} characters", 3)

    # when they are rendered for each reader
    said = {language: render(turn, language) for language in ("en", "fr", "da", "hr")}

    # then each language has its own words (read from its compiled .mo), English its own
    assert said["en"] == "it is not your turn"
    assert len(set(said.values())) == 4
    assert render(characters, "en") == "at least 3 characters"
    croatian = render(characters, "hr")
    assert "3" in croatian and croatian != "at least 3 characters"
