"""devstack.policy's DynamoDB evaluation: a call against a role's statements as IAM judges it,
`dynamodb:LeadingKeys` conditions included (moto checks no policy, so this is what proves the
templates' conditions)."""

from typing import Any

import pytest

from devstack.policy import UnsupportedPolicyError, dynamodb_refusals, dynamodb_requests

TABLE = "arn:aws:dynamodb:us-east-1:123456789012:table/yamb"
PLAYERS_ONLY: list[dict[str, Any]] = [
    {
        "Effect": "Allow",
        "Action": ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"],
        "Resource": [TABLE, f"{TABLE}/index/gsi1"],
        "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["PLAYER#*"]}},
    }
]


def _get(pk: str) -> dict[str, Any]:
    return {"TableName": "yamb", "Key": {"pk": {"S": pk}, "sk": {"S": "PROFILE"}}}


def test_item_calls_are_judged_by_their_partition_key() -> None:
    # given statements that allow players' partitions only
    # when a player's item and a game's are read
    allowed = dynamodb_refusals(PLAYERS_ONLY, TABLE, "GetItem", _get("PLAYER#ana"))
    refused = dynamodb_refusals(PLAYERS_ONLY, TABLE, "GetItem", _get("GAME#g1"))

    # then the first is allowed and the second refused, naming its key
    assert allowed == []
    assert refused == ["dynamodb:GetItem on table with leading keys ['GAME#g1']"]


def test_a_transaction_is_judged_part_by_part() -> None:
    # given a transaction that puts a player's item and updates a board row
    params = {
        "TransactItems": [
            {"Put": {"TableName": "yamb", "Item": {"pk": {"S": "PLAYER#ana"}}}},
            {"Update": {"TableName": "yamb", "Key": {"pk": {"S": "BOARD#main"}}}},
        ]
    }

    # when it is judged / then each part is its own action on its own key: the update is
    # refused (no UpdateItem granted, and not a player's key)
    assert dynamodb_requests("TransactWriteItems", params) == [
        ("dynamodb:PutItem", "table", ["PLAYER#ana"]),
        ("dynamodb:UpdateItem", "table", ["BOARD#main"]),
    ]
    assert dynamodb_refusals(PLAYERS_ONLY, TABLE, "TransactWriteItems", params) == [
        "dynamodb:UpdateItem on table with leading keys ['BOARD#main']"
    ]


def test_an_index_query_is_judged_by_the_index_partition_key() -> None:
    # given queries of the index, as pynamodb writes them (placeholders)
    def query(value: str) -> dict[str, Any]:
        return {
            "TableName": "yamb",
            "IndexName": "gsi1",
            "KeyConditionExpression": "(#0 = :0 AND #1 < :1)",
            "ExpressionAttributeNames": {"#0": "gsi1pk", "#1": "gsi1sk"},
            "ExpressionAttributeValues": {":0": {"S": value}, ":1": {"S": "2026"}},
        }

    # when one lists accounts and one a player's partition of the index
    # then the index's partition key is the leading key
    assert dynamodb_requests("Query", query("ACCOUNTS#deleting")) == [
        ("dynamodb:Query", "index/gsi1", ["ACCOUNTS#deleting"])
    ]
    assert dynamodb_refusals(PLAYERS_ONLY, TABLE, "Query", query("ACCOUNTS#deleting"))
    assert dynamodb_refusals(PLAYERS_ONLY, TABLE, "Query", query("PLAYER#ana")) == []


def test_a_batch_read_needs_every_key_allowed() -> None:
    # given a batch read of a player's item and a game's
    statements = [{**PLAYERS_ONLY[0], "Action": "dynamodb:BatchGetItem"}]
    params = {
        "RequestItems": {"yamb": {"Keys": [{"pk": {"S": "PLAYER#a"}}, {"pk": {"S": "GAME#g"}}]}}
    }

    # when it is judged / then ForAllValues refuses it for the one key outside
    assert dynamodb_refusals(statements, TABLE, "BatchGetItem", params)


def test_explicit_deny_wins_and_unknown_conditions_are_not_guessed() -> None:
    # given an allow of everything and a deny of games' partitions
    statements: list[dict[str, Any]] = [
        {"Effect": "Allow", "Action": "dynamodb:*", "Resource": TABLE},
        {
            "Effect": "Deny",
            "Action": "dynamodb:GetItem",
            "Resource": TABLE,
            "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["GAME#*"]}},
        },
    ]

    # when a game's and a player's items are read / then the deny wins for the game's only
    assert dynamodb_refusals(statements, TABLE, "GetItem", _get("GAME#g1"))
    assert dynamodb_refusals(statements, TABLE, "GetItem", _get("PLAYER#a")) == []
    # and a condition operator it does not model is an error, never an allow
    odd = [{**PLAYERS_ONLY[0], "Condition": {"ForAnyValue:StringLike": {"x": "y"}}}]
    with pytest.raises(UnsupportedPolicyError):
        dynamodb_refusals(odd, TABLE, "GetItem", _get("PLAYER#a"))
