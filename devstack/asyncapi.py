"""Generates docs/asyncapi.yaml (AsyncAPI 3) from the protocol's pydantic models.

    python -m devstack.asyncapi > docs/asyncapi.yaml

tests/unit/test_asyncapi.py fails when the committed document and the models disagree.
"""

import sys
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from yamb import protocol

CLIENT_MODELS: list[type[BaseModel]] = [
    protocol.CreateGame,
    protocol.ListGames,
    protocol.JoinGame,
    protocol.LeaveGame,
    protocol.EditGame,
    protocol.Rematch,
    protocol.DeleteGame,
    protocol.StartGame,
    protocol.WatchGame,
    protocol.UnwatchGame,
    protocol.Sync,
    protocol.Lock,
    protocol.Roll,
    protocol.Announce,
    protocol.Select,
    protocol.Write,
    protocol.Pause,
    protocol.Resume,
    protocol.Resign,
    protocol.FinishSheet,
    protocol.AddSeed,
    protocol.CommitSeed,
    protocol.RevealSeed,
    protocol.Verify,
    protocol.EnterDice,
    protocol.CorrectTurn,
    protocol.History,
    protocol.Chat,
    protocol.Replay,
    protocol.AddBot,
    protocol.RemoveBot,
    protocol.Hint,
    protocol.Ping,
    protocol.ChatHistory,
    protocol.SendMessage,
    protocol.ListConversations,
    protocol.ReadConversation,
    protocol.CloseConversation,
    protocol.OpenGeneralChat,
    protocol.CloseGeneralChat,
    protocol.SayInGeneralChat,
    protocol.SayInClub,
    protocol.Invite,
    protocol.AnswerInvitation,
    protocol.WithdrawInvitation,
    protocol.ListInvitations,
    protocol.FairplayAnswer,
]
SERVER_MODELS: list[type[BaseModel]] = [
    protocol.Ack,
    protocol.GameFrame,
    protocol.GameListFrame,
    protocol.ErrorFrame,
    protocol.DisconnectedFrame,
    protocol.GameDeletedFrame,
    protocol.RematchFrame,
    protocol.DiceRecordFrame,
    protocol.HistoryFrame,
    protocol.ChatFrame,
    protocol.ReplayFrame,
    protocol.HintFrame,
    protocol.ChatHistoryFrame,
    protocol.Pong,
    protocol.MessageFrame,
    protocol.ConversationsFrame,
    protocol.ConversationFrame,
    protocol.GeneralChatFrame,
    protocol.ClubChatFrame,
    protocol.ClubInvitationFrame,
    protocol.InvitationFrame,
    protocol.InvitationAnswerFrame,
    protocol.InvitationWithdrawnFrame,
    protocol.InvitationsFrame,
    protocol.TournamentGameFrame,
    protocol.FairplayCheckFrame,
    protocol.FairplayResultFrame,
]


def _message_name(model: type[BaseModel]) -> str:
    return model.__name__


def document() -> dict[str, Any]:
    models = CLIENT_MODELS + SERVER_MODELS
    _, schemas = models_json_schema(
        [(model, "validation") for model in models],
        by_alias=True,
        ref_template="#/components/schemas/{model}",
    )
    messages = {
        _message_name(model): {
            "name": _message_name(model),
            "title": _message_name(model),
            "summary": (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else "",
            "contentType": "application/json",
            "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
        }
        for model in models
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Yamb game protocol",
            "version": "1.0.0",
            "description": (
                "Clients connect with ?token=<Cognito ID token> (of a verified account that "
                "may play, issued since its last sign-out everywhere: any other token is "
                "refused with 401; accounts and their HTTP API are in docs/accounts.md) and "
                "send JSON frames whose `action` selects the route. A player has one live "
                "connection: a newer one closes the older after a `disconnected` frame. "
                "Every action is answered with its `requestId`: "
                "an action that changed a game by the new `game` (the whole game state), a "
                "repeat of an action already applied or an action of a player no longer at the "
                "table by an `ack`, `list_games` by a `game_list`, `sync` by a `game`, and a "
                "refusal by an `error` with a stable `code`. After every change the game is sent "
                "to everyone else at the table (players and spectators) as a `game` frame "
                "without `requestId`. The server sends nothing on connect: a client sends "
                "`sync` once the connection is open (after a lost connection too), and goes on "
                "from the turn as it was; a turn survives a lost connection. No frame exceeds "
                "32 KB."
            ),
        },
        "servers": {
            "aws": {
                "host": "{apiId}.execute-api.{region}.amazonaws.com",
                "pathname": "/live",
                "protocol": "wss",
                "variables": {"apiId": {}, "region": {"default": "us-east-1"}},
            },
            "local": {"host": "127.0.0.1:8765", "pathname": "/live", "protocol": "ws"},
        },
        "channels": {
            "play": {
                "address": "/",
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
            }
        },
        "operations": {
            "sendAction": {
                "action": "send",
                "channel": {"$ref": "#/channels/play"},
                "messages": [
                    {"$ref": f"#/channels/play/messages/{_message_name(m)}"} for m in CLIENT_MODELS
                ],
            },
            "receiveFrame": {
                "action": "receive",
                "channel": {"$ref": "#/channels/play"},
                "messages": [
                    {"$ref": f"#/channels/play/messages/{_message_name(m)}"} for m in SERVER_MODELS
                ],
            },
        },
        "components": {"messages": messages, "schemas": schemas.get("$defs", {})},
    }


def render() -> str:
    return yaml.safe_dump(document(), sort_keys=False, width=100)


if __name__ == "__main__":
    sys.stdout.write(render())
