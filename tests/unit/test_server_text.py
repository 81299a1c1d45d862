"""What the server says to a player, as sentences of the catalogue (docs/languages.md): pydantic's
field problems keep their English word for word, a frame's sentence keeps its accents but no
control characters, a refusal built of several sentences and a plural are rendered whole in the
reader's language, and a connection closed by a sign-out is told why in the account's."""

from collections.abc import Callable
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError
from yamb.accounts.preferences import PreferencesChange
from yamb.errors import InvalidSettingsError
from yamb.i18n import Plural, Text, render
from yamb.i18n.validation import located, problem
from yamb.protocol import sentence
from yamb.settings import validate_settings
from yamb_service.game.live_connections import PlayerConnections
from yamb_service.game.ports import PlayerRecord

from testkit.catalogues import Languages
from testkit.fakes import RecordingNotifier


class _Form(BaseModel):
    model_config = {"extra": "forbid"}
    name: str = Field(min_length=2, max_length=3)
    one: str = Field(max_length=1)
    count: int = Field(ge=1, le=3)
    share: float = Field(gt=0, lt=1)
    kind: Literal["a", "b"]
    items: list[int] = Field(min_length=1, max_length=1)
    flag: bool
    code: str = Field(pattern=r"^[a-z]+$")


@pytest.mark.parametrize(
    "data",
    [
        {
            "name": "abcd",
            "one": "xy",
            "count": 0,
            "share": 0,
            "kind": "c",
            "items": [1, 2],
            "flag": "maybe",
            "code": "A1",
            "other": 1,
        },
        {"name": "a", "count": 4, "share": 1, "kind": 1, "items": [], "flag": None, "code": 1},
        {"name": 5, "one": 1, "count": "x", "share": "y", "items": "z", "flag": 2},
        {"count": 1.5},
    ],
)
def test_field_problems_in_english_are_pydantic_own_words(data: dict[str, Any]) -> None:
    # given a model that refuses its input in many ways
    with pytest.raises(ValidationError) as refused:
        _Form.model_validate(data)

    # when each problem is said as a sentence of the catalogue, in English
    issues = refused.value.errors(include_url=False)
    said = [(render(problem(issue), "en"), issue["msg"]) for issue in issues]

    # then every one reads as pydantic wrote it, and most are sentences of the catalogue
    assert all(ours == theirs for ours, theirs in said), said
    assert sum(not isinstance(problem(issue), str) for issue in issues) >= len(issues) - 1


def test_field_problem_in_french_keeps_its_place_and_bound(
    catalogue: Callable[[Languages], None],
) -> None:
    # given the catalogue's French for a string too long
    catalogue(
        {
            "fr": {
                (
                    "String should have at most {max_length} character",
                    "String should have at most {max_length} characters",
                ): (
                    "Au plus {max_length} caractère",
                    "Au plus {max_length} caractères",
                )
            }
        }
    )
    with pytest.raises(ValidationError) as refused:
        _Form.model_validate({"name": "abcd"})
    (issue,) = [i for i in refused.value.errors() if i["type"] == "string_too_long"]

    # when it is said with its place, in French and in English
    french = render(located("name", issue), "fr")
    english = render(located("name", issue), "en")

    # then the bound is in the sentence and the place before it
    assert french == "name: Au plus 3 caractères"
    assert english == "name: String should have at most 3 characters"


def test_frame_sentence_keeps_accents_and_drops_controls() -> None:
    # given sentences with accents, a control character, a bidi override and great length
    accented = Text("déjà joué: {who}", who="Ćiro\u202e\x07")
    long = "é" * 600

    # when they are made a frame's sentence
    # then the letters stay, the invisible are ?, and the length is capped at 500
    assert sentence(accented, "fr") == "déjà joué: Ćiro??"
    assert len(sentence(long)) == 500 and sentence(long).endswith("...")


def test_settings_refusal_of_several_problems_rendered_whole_in_french(
    catalogue: Callable[[Languages], None],
) -> None:
    # given the catalogue's French for two of the settings' rules and the join of two settings
    catalogue(
        {
            "fr": {
                "ranked games use 5 dice": "les parties classées se jouent à 5 dés",
                "solo games are never ranked": "une partie en solo n'est jamais classée",
                "{first} and {second}: {problem}": "{first} et {second} : {problem}",
                "{first}; {rest}": "{first} ; {rest}",
            }
        }
    )

    # when settings break both rules
    with pytest.raises(InvalidSettingsError) as refused:
        validate_settings({"players": 1, "preset": 1, "ranked": True, "dice": 6})

    # then the one refusal reads in French, each problem a sentence of its own; English stays
    assert render(refused.value.text, "fr") == (
        "ranked et dice : les parties classées se jouent à 5 dés ; "
        "ranked et players : une partie en solo n'est jamais classée"
    )
    assert refused.value.message == (
        "ranked and dice: ranked games use 5 dice; ranked and players: solo games are never ranked"
    )


def test_chat_wait_in_croatian_takes_the_plural_form_of_its_count(
    catalogue: Callable[[Languages], None],
) -> None:
    # given Croatian's three forms of the chat's wait
    wait = (
        "you are sending chat messages too fast: wait {count} second before the next",
        "you are sending chat messages too fast: wait {count} seconds before the next",
    )
    catalogue(
        {
            "hr": {
                wait: (
                    "šaljete poruke prebrzo: pričekajte {count} sekundu",
                    "šaljete poruke prebrzo: pričekajte {count} sekunde",
                    "šaljete poruke prebrzo: pričekajte {count} sekundi",
                )
            }
        }
    )

    # when the wait is 1, 3 and 5 seconds
    said = [render(Plural(*wait, count), "hr") for count in (1, 3, 5)]

    # then each count takes its own form
    assert said == [
        "šaljete poruke prebrzo: pričekajte 1 sekundu",
        "šaljete poruke prebrzo: pričekajte 3 sekunde",
        "šaljete poruke prebrzo: pričekajte 5 sekundi",
    ]


class _Players:
    def get(self, player_id: str) -> PlayerRecord:
        return PlayerRecord(player_id=player_id, connection_id=f"conn-{player_id}")


@pytest.mark.parametrize(("language", "reason"), [("da", "adgangskoden blev ændret"), ("en", "")])
def test_sign_out_tells_the_connection_why_in_the_account_language(
    catalogue: Callable[[Languages], None], language: str, reason: str
) -> None:
    # given the Danish of a password change's reason
    catalogue({"da": {"the password was changed": "adgangskoden blev ændret"}})
    notifier = RecordingNotifier()

    # when the account's connection is closed for it
    PlayerConnections(_Players(), notifier).close(  # type: ignore[arg-type]
        "ana", reason=Text("the password was changed"), language=language
    )

    # then the disconnected frame gives the reason in the account's language, code unchanged
    (frame,) = notifier.frames_to("conn-ana")
    assert (frame["type"], frame["code"]) == ("disconnected", "signed_out")
    assert frame["reason"] == (reason or "the password was changed")
    assert notifier.closed == ["conn-ana"]


def test_validator_refusal_of_ours_is_said_in_the_reader_language(
    catalogue: Callable[[Languages], None],
) -> None:
    # given the French of a settings change's own validator refusal, and of pydantic's prefix
    catalogue(
        {
            "fr": {
                "cannot be null": "ne peut pas être null",
                "Value error, {error}": "Valeur refusée : {error}",
            }
        }
    )

    # when a settings change sets the language to null
    with pytest.raises(ValidationError) as refused:
        PreferencesChange.model_validate({"language": None})
    (issue,) = refused.value.errors()

    # then it reads in French, and in English as pydantic says it
    assert render(problem(issue), "fr") == "Valeur refusée : ne peut pas être null"
    assert render(problem(issue), "en") == issue["msg"] == "Value error, cannot be null"
