"""A duplicate tournament's deal kept until the tournament is over (yamb.session.deals): the
rule, the seed in no frame, and the open database's lines (docs/dice.md, "Tournaments")."""

import random

import pytest
from yamb.opendb.lines import is_public, staged_of
from yamb.session import deals
from yamb.session.effects import GameActionError
from yamb.session.views import fairness_of, game_view

from tests.unit.test_fair_dice import _play_to_end, _table

TOURNAMENT = "daily-duplicate-202612050900"


def _ended(*, deal: str | None, players: int = 1):  # type: ignore[no-untyped-def]
    """A game of `players` played to its end, of the tournament's deal when `deal` is given."""
    session = _table(players, columns=["free"])
    assert session.fair is not None
    session.fair.deal = deal
    _play_to_end(session, random.Random(3))
    assert session.status == "finished"
    return session


def _never_asked(tournament: str) -> bool:
    raise AssertionError(f"no tournament is read for a game of no deal ({tournament})")


@pytest.mark.parametrize(
    ("status", "over"),
    [("open", False), ("running", False), ("finished", True), ("paid", True),
     ("cancelled", True), (None, False)],
)  # fmt: skip
def test_a_tournament_is_over_once_finished_paid_or_cancelled(
    status: str | None, over: bool
) -> None:
    # given a tournament of this status (None: not found), then it is over or not
    assert deals.tournament_over(status) is over


def test_a_deal_game_is_withheld_until_its_tournament_is_over() -> None:
    # given an ended game of the tournament's deal
    session = _ended(deal=TOURNAMENT)
    asked: list[str] = []

    def running(tournament: str) -> bool:
        asked.append(tournament)
        return False

    # when its tournament runs: withheld, refused as a deal in play, the deal's tournament read
    assert deals.withheld(session, running) is True
    with pytest.raises(GameActionError) as refused:
        deals.require_shown(session, running)
    assert refused.value.code == "deal_in_play"
    assert asked == [TOURNAMENT, TOURNAMENT]
    # and once it is over: shown
    assert deals.withheld(session, lambda _tournament: True) is False
    deals.require_shown(session, lambda _tournament: True)


def test_a_game_of_no_deal_is_shown_without_reading_any_tournament() -> None:
    session = _ended(deal=None)
    assert deals.withheld(session, _never_asked) is False
    deals.require_shown(session, _never_asked)


def test_an_ended_deal_game_shows_its_seed_in_no_frame() -> None:
    # given two ended games, one of a deal
    dealt, plain = _ended(deal=TOURNAMENT), _ended(deal=None)
    assert dealt.fair is not None and plain.fair is not None

    # then the deal's player's own frame names the deal and holds no seed
    view = game_view(dealt, "player-0")
    assert view.fairness is not None
    assert view.fairness.deal == TOURNAMENT and view.fairness.seed is None
    assert dealt.fair.server_seed not in view.model_dump_json(by_alias=True)
    # while any other ended game shows its seed, and so does the deal's once its tournament
    # is known to be over (the public page)
    assert game_view(plain, "player-0").fairness.seed == plain.fair.server_seed  # type: ignore[union-attr]
    shown = fairness_of(dealt, deal_over=True)
    assert shown is not None and shown.seed == dealt.fair.server_seed


def test_a_deal_game_never_enters_the_open_database() -> None:
    # given a finished game of two seats (public) and the same game of a deal
    plain = _ended(deal=None, players=2)
    dealt = _ended(deal=TOURNAMENT, players=2)

    # then only the first is staged for the month's export
    assert is_public(plain) and staged_of(plain, []) is not None
    assert not is_public(dealt) and staged_of(dealt, []) is None
