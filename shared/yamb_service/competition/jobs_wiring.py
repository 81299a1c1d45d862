"""The tournaments job's service: the one that makes tables, through the game service (its
function has the game's settings and the bots' layer). Apart from `wiring` so that the other
functions that read or record tournaments never import the game service."""

from functools import cache

from yamb_service.competition.tournament_dynamo import DynamoTournamentStore
from yamb_service.competition.tournaments import TournamentService
from yamb_service.competition.wiring import table_item
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.tournament_tables import GameTables
from yamb_service.game.wiring import game_service


@cache
def tournament_runner() -> TournamentService:
    item = table_item()
    return TournamentService(
        DynamoTournamentStore(item), DynamoWalletStore(item), lambda: GameTables(game_service())
    )
