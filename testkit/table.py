"""The game table on moto (in-process `mock_aws`, or a server the environment points at), as
template.yaml declares it."""

from pathlib import Path
from typing import Any

import boto3

from devstack.template import load_template

ROOT = Path(__file__).resolve().parents[1]
REGION = "us-east-1"
TABLE_NAME = "yamb-test-GameTable"

# create_table takes these properties of AWS::DynamoDB::Table as they are.
_CREATE_TABLE_PROPERTIES = (
    "AttributeDefinitions",
    "KeySchema",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "BillingMode",
    "ProvisionedThroughput",
    "StreamSpecification",
    "TableClass",
)


def game_table_properties() -> dict[str, Any]:
    """GameTable's Properties from template.yaml (the short tags read as plain mappings)."""
    template = load_template(ROOT / "template.yaml")
    return dict(template["Resources"]["GameTable"]["Properties"])


def create_game_table(name: str = TABLE_NAME, *, stream: bool = True) -> str:
    """The table as the template declares it: keys, index, billing, encryption and TTL; and
    its stream, unless `stream` is False (a test that hands the stream's records to a function
    itself: moto keeps every stream record of a table and copies the whole table, records and
    all, for each item of each transaction, so a table that records many games slows down)."""
    properties = game_table_properties()
    client = boto3.client("dynamodb", region_name=REGION)
    arguments = {key: properties[key] for key in _CREATE_TABLE_PROPERTIES if key in properties}
    if not stream:
        arguments.pop("StreamSpecification", None)
    if "StreamSpecification" in arguments:  # CloudFormation's form has no StreamEnabled
        arguments["StreamSpecification"] = {
            "StreamEnabled": True,
            **arguments["StreamSpecification"],
        }
    sse = properties.get("SSESpecification")
    if sse is not None:
        arguments["SSESpecification"] = {"Enabled": sse["SSEEnabled"]}
    client.create_table(TableName=name, **arguments)
    ttl = properties.get("TimeToLiveSpecification")
    if ttl is not None:
        client.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
    return name


def empty_table(name: str) -> None:
    table = boto3.resource("dynamodb", region_name=REGION).Table(name)
    keys = [
        {"pk": i["pk"], "sk": i["sk"]} for i in table.scan(ProjectionExpression="pk, sk")["Items"]
    ]
    with table.batch_writer() as batch:
        for key in keys:
            batch.delete_item(Key=key)


def lane_token_store(table_name: str) -> Any:
    """Stores a lane's heartbeat token as the lane's first state does (statemachines/)."""
    client = boto3.client("dynamodb", region_name=REGION)

    def store(game_id: str, lane: int, token: str) -> None:
        client.put_item(
            TableName=table_name,
            Item={
                "pk": {"S": f"GAME#{game_id}"},
                "sk": {"S": "LANE"},
                "lane": {"N": str(lane)},
                "token": {"S": token},
            },
        )

    return store
