"""docs/asyncapi.yaml must say what the protocol's models accept and send."""

from pathlib import Path
from typing import get_args

import yaml
from yamb.protocol import ClientAction, ServerFrame

from devstack.asyncapi import CLIENT_MODELS, SERVER_MODELS, document

DOC = Path(__file__).parents[2] / "docs" / "asyncapi.yaml"


def _union_members(annotated: object) -> set[type]:
    union = get_args(annotated)[0]
    return set(get_args(union))


def test_asyncapi_document_matches_the_models() -> None:
    # given the committed document
    committed = yaml.safe_load(DOC.read_text(encoding="utf-8"))
    # when the document is generated from the models
    generated = document()
    # then they agree (regenerate: python -m devstack.asyncapi > docs/asyncapi.yaml)
    assert committed == generated


def test_asyncapi_documents_every_client_action_and_server_frame() -> None:
    # given the discriminated unions the server parses and sends
    # when compared with the models the document is generated from
    # then every action and every frame is documented
    assert _union_members(ClientAction) == set(CLIENT_MODELS)
    assert _union_members(ServerFrame) == set(SERVER_MODELS)


def test_asyncapi_document_is_asyncapi_3_with_send_and_receive() -> None:
    # given the committed document
    committed = yaml.safe_load(DOC.read_text(encoding="utf-8"))
    # when its operations are read
    operations = committed["operations"]
    # then clients send actions and receive frames on the one channel
    assert committed["asyncapi"].startswith("3.")
    assert operations["sendAction"]["action"] == "send"
    assert len(operations["sendAction"]["messages"]) == len(CLIENT_MODELS)
    assert operations["receiveFrame"]["action"] == "receive"
