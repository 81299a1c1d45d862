"""The badges' and tasks' words are catalogue sentences (issue 29): every title and description
of badges.json and catalogue.json is declared in yamb.progression.words, where Babel finds it."""

import json
from pathlib import Path

from yamb.progression import words

FOLDER = Path(words.__file__).parent


def test_every_title_and_description_of_the_json_files_is_declared_for_the_catalogue() -> None:
    # given the two files' sentences
    badges = json.loads((FOLDER / "badges.json").read_text(encoding="utf-8"))
    tasks = json.loads((FOLDER / "catalogue.json").read_text(encoding="utf-8"))
    in_files = {
        *(sentence for badge in badges["badges"] for sentence in (badge["title"], badge["does"])),
        badges["pioneer"]["title"],
        badges["pioneer"]["does"],
        *(task["title"] for task in tasks["tasks"]),
    }

    # when they are compared with the sentences declared in Python
    declared = {
        *(text.message for pair in words.BADGE_WORDS for text in pair),
        *(text.message for text in words.TASK_WORDS),
    }

    # then each is declared, and none is declared that no file has
    assert in_files - declared == set()
    assert declared - in_files == set()


def test_a_word_without_a_translation_is_said_in_english() -> None:
    assert words.said("Champion", "en") == "Champion"
    assert words.said("a sentence in no catalogue", "hr") == "a sentence in no catalogue"
