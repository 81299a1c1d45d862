"""Builds the open database's services from the function's settings, once, on first use: no
client is made at import (the S3 client at the first file written or linked)."""

from collections.abc import Iterable, Sequence
from functools import cache, partial
from typing import TYPE_CHECKING

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common.config import opendb_settings, results_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.game.result_dynamo import game_result
from yamb_service.opendb.dynamo import DynamoOpenDbStore
from yamb_service.opendb.s3 import S3FileStore
from yamb_service.opendb.service import OpenDbExporter, OpenDbReader, OpenDbStager

if TYPE_CHECKING:
    from yamb.session.model import GameSession

    from yamb_service.game.dynamo import DynamoGameRepository


@cache
def table_item() -> ItemModel:
    settings = results_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


class _EndedGames:
    """The game as it ended, from the game's item (kept 30 days after its end) and its record's
    chunks: the game model loads with the results function's first staging."""

    def __init__(self, games: "DynamoGameRepository") -> None:
        self._games = games

    def ended(self, game_id: str) -> "tuple[GameSession, Sequence[str]] | None":
        from yamb_service.game.ports import GameNotFoundError  # noqa: PLC0415

        try:
            session = self._games.load(game_id).session
        except GameNotFoundError:
            return None
        archived = (
            self._games.archived_record(game_id).turns
            if session.fair is not None and session.fair.archived_chunks
            else []
        )
        return session, archived


class _Nicknames:
    def __init__(self, profiles: DynamoAccountStore) -> None:
        self._profiles = profiles

    def nicknames(self, player_ids: Iterable[str]) -> dict[str, str]:
        return {
            player: profile.nickname
            for player, profile in self._profiles.profiles(player_ids).items()
        }


def _files() -> S3FileStore:
    settings = opendb_settings()
    item = table_item()
    return S3FileStore(
        cache(
            lambda: botocore_session(item).create_client(
                "s3", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url
            )
        ),
        settings.open_data_bucket,
    )


@cache
def opendb_stager() -> OpenDbStager:
    """The results function's: a finished public game staged for its month."""
    from yamb_service.game.dynamo import DynamoGameRepository  # noqa: PLC0415

    item = table_item()
    return OpenDbStager(_EndedGames(DynamoGameRepository(item)), DynamoOpenDbStore(item))


@cache
def opendb_exporter() -> OpenDbExporter:
    item = table_item()
    return OpenDbExporter(
        DynamoOpenDbStore(item),
        _files(),
        _Nicknames(DynamoAccountStore(item, partial(game_result, item))),
    )


@cache
def opendb_reader() -> OpenDbReader:
    return OpenDbReader(DynamoOpenDbStore(table_item()), cache(_files))


def forget() -> None:
    """Every service built here made again at its next use (tests point it at another table)."""
    for built in (table_item, opendb_stager, opendb_exporter, opendb_reader):
        built.cache_clear()
