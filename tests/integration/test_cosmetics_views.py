"""Cosmetics in the game views (E5), through the game service on moto: what a player equipped
and is still valid when they sit down is kept on their seat (one read at create and join, none on
a move); each sheet shows its owner's skin, the turn the dice skin of the player in turn."""

from datetime import timedelta
from typing import Any

import pytest
from yamb.economy import cosmetics
from yamb.economy.cosmetics import Kind, Wardrobe
from yamb.economy.looks import Looks
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.edge.caller import Caller
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.service import GameService

from testkit.fakes import RecordingNotifier, SimulatedTimers
from testkit.service import START, Clock, make_service
from tests.integration.conftest import ANA, BEN, CLEO, DAN


class CountingWardrobes:
    """The store, its reads counted."""

    def __init__(self, store: DynamoWardrobeStore) -> None:
        self.store = store
        self.reads: list[str] = []

    def looks(self, player_id: str, now: Any) -> Looks | None:
        self.reads.append(player_id)
        return self.store.looks(player_id, now)


@pytest.fixture
def wardrobes(item: Any) -> CountingWardrobes:
    return CountingWardrobes(DynamoWardrobeStore(item, sleep=lambda _: None))


@pytest.fixture
def service(  # noqa: PLR0917 - the service's collaborators
    games: DynamoGameRepository,
    players: DynamoPlayerRepository,
    notifier: RecordingNotifier,
    timers: SimulatedTimers,
    clock: Clock,
    wardrobes: CountingWardrobes,
) -> GameService:
    service = make_service(games, players, notifier, timers, clock)
    service.wardrobes = wardrobes
    return service


def _dress(wardrobes: CountingWardrobes, caller: Caller, *items: str, until: Any = None) -> None:
    """Buys (without a wallet: the store's rule alone) and equips `items` for the caller."""

    def dressed(wardrobe: Wardrobe) -> Wardrobe:
        for item_id in items:
            item = cosmetics.ITEMS[item_id]
            if item.price:
                wardrobe = cosmetics.bought(wardrobe, item_id, START - timedelta(days=1))
            kind: Kind = item.kind
            wardrobe = cosmetics.equip(wardrobe, kind, item_id, START - timedelta(days=1))
        if until is not None:
            owned = {item_id: until for item_id in wardrobe.owned}
            wardrobe = wardrobe.model_copy(update={"owned": owned})
        return wardrobe

    wardrobes.store.change(caller.player_id, dressed)


def _sheet(game: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(s for s in game["sheets"] if s["playerId"] == player_id)


def test_cosmetics_views_sheets_seats_and_dice_show_their_players_looks(
    harness: Any, wardrobes: CountingWardrobes
) -> None:
    # given ana dressed in a sheet skin, dice skin, column effect, gold frame and own avatar,
    # ben in a sheet skin and dice whose time ran out before the game, cleo in nothing
    _dress(
        wardrobes,
        ANA,
        "sheet-slate",
        "dice-neon",
        "effect-glow",
        "frame-gold",
        "own-avatar",
    )
    _dress(wardrobes, BEN, "dice-ivory", until=START - timedelta(hours=1))
    _dress(wardrobes, BEN, "sheet-ocean")
    wardrobes.store.change(
        BEN.player_id, lambda w: cosmetics.equip(w, "frame", "frame-wood", START)
    )

    # when the three sit down, the game starts and ana rolls
    game_id = harness.running_game(ANA, BEN, CLEO)
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))
    game = harness.last_game(BEN)

    # then each sheet shows its owner's skin and effect, the dice ana's skin
    assert (_sheet(game, "ana")["skin"], _sheet(game, "ana")["columnEffect"]) == (
        "sheet-slate",
        "effect-glow",
    )
    assert (_sheet(game, "ben")["skin"], _sheet(game, "ben")["columnEffect"]) == (
        "sheet-ocean",
        None,
    )
    assert (_sheet(game, "cleo")["skin"], _sheet(game, "cleo")["columnEffect"]) == (None, None)
    assert game["turn"]["diceSkin"] == "dice-neon"
    seats = {s["playerId"]: (s["frame"], s["avatar"]) for s in game["seats"]}
    assert seats == {
        "ana": ("frame-gold", True),
        "ben": ("frame-wood", None),
        "cleo": (None, None),
    }

    # and when ana writes and ben rolls, the dice are ben's (his expired skin: plain)
    harness.write_any(ANA, game_id)
    harness.ack(BEN, harness.act(BEN, "roll", gameId=game_id))
    assert harness.last_game(ANA)["turn"]["diceSkin"] is None

    # and the wardrobes were read once a player, when they sat down, never on a move
    assert wardrobes.reads == ["ana", "ben", "cleo"]


def test_cosmetics_views_skin_kept_for_the_game_when_it_expires_during_it(
    harness: Any, wardrobes: CountingWardrobes
) -> None:
    # given ana's sheet skin valid for one more hour
    _dress(wardrobes, ANA, "sheet-parchment", until=START + timedelta(hours=1))

    # when she plays a game that lasts past it
    game_id = harness.running_game(ANA, BEN, turnSeconds=None)
    harness.clock.advance(hours=2)
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))

    # then her sheet keeps it for this game, as it was when she sat down
    assert _sheet(harness.last_game(BEN), "ana")["skin"] == "sheet-parchment"


def test_cosmetics_views_two_vs_two_sheet_shows_the_first_players_skin(
    harness: Any, wardrobes: CountingWardrobes
) -> None:
    # given, seated ana, ben, cleo, dan (teams: ana and ben, cleo and dan), sheet skins for ana
    # and for the second players ben and dan
    _dress(wardrobes, ANA, "sheet-slate")
    _dress(wardrobes, BEN, "sheet-ocean", "dice-marble")
    _dress(wardrobes, DAN, "sheet-parchment")

    # when the 2 vs 2 game starts
    harness.running_game(ANA, BEN, CLEO, DAN, pairs=True)
    game = harness.last_game(ANA)

    # then each team's sheet shows its first player's skin
    skins = {tuple(s["members"]): s["skin"] for s in game["sheets"]}
    assert skins == {("ana", "ben"): "sheet-slate", ("cleo", "dan"): None}


def test_cosmetics_views_game_stored_before_cosmetics_loads_with_none(harness: Any) -> None:
    # given a game whose seats carry no looks (as stored before E5)
    game_id = harness.running_game(ANA, BEN)
    session = harness.session(game_id)

    # when it is loaded and viewed / then nothing is shown, and nothing fails
    assert all(seat.looks is None for seat in session.seats)
    game = harness.last_game(ANA)
    assert {s["skin"] for s in game["sheets"]} == {None}
