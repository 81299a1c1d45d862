"""The terminal client speaks its player's language (issue 29): `--language`, else the locale's
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), its sentences said from the catalogue."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from yamb.protocol import GameListFrame
from yamb_client import words
from yamb_client.commands import BadInput, CommandContext, parse_command
from yamb_client.render import render_frame

from testkit.catalogues import use_catalogues

NOW = datetime(2026, 12, 4, tzinfo=UTC)


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A French catalogue of a few of the client's sentences, and the client speaking French
    for this test only."""
    use_catalogues(
        monkeypatch,
        tmp_path,
        {
            "fr": {
                "No open games: `new` creates one.": ("Aucune partie ouverte : `new` en crée une."),
                "{what} is a number from {low} to {high}, not {text}.": (
                    "{what} est un nombre de {low} à {high}, pas {text}."
                ),
                "players": "joueurs",
                "Unknown command {name}. Type `help` for the commands.": (
                    "Commande inconnue {name}. Tapez `help` pour les commandes."
                ),
            }
        },
    )
    monkeypatch.setattr(words, "_language", ["en"])
    words.use_language("fr")


@pytest.mark.usefixtures("french")
def test_the_client_says_frames_and_input_errors_in_its_language() -> None:
    # given the client speaking French
    # when it shows an empty list of games and answers two wrong lines
    listed = render_frame(GameListFrame(request_id="r", games=[]), me=None, now=NOW)
    players = parse_command("new players 9", CommandContext())
    unknown = parse_command("zzzz", CommandContext())

    # then each is French, the placeholders filled (a sentence inside a sentence too)
    assert listed == "Aucune partie ouverte : `new` en crée une."
    assert players == BadInput("joueurs est un nombre de 1 à 4, pas '9'.")
    assert unknown == BadInput("Commande inconnue 'zzzz'. Tapez `help` pour les commandes.")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "hr_HR"}, "hr"),
        ({"LANGUAGE": "de:da:en", "LANG": "fr_FR.UTF-8"}, "da"),
        ({"LC_ALL": "da_DK.UTF-8", "LANG": "hr_HR.UTF-8"}, "da"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_clients_language_comes_from_the_locale(environ: dict[str, str], language: str) -> None:
    assert words.from_environment(environ) == language
