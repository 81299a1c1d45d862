"""docs/openapi.yaml must say what the HTTP API's route tables and models accept and answer, be
valid OpenAPI 3.1, and list exactly the template's HttpApi routes."""

from pathlib import Path
from textwrap import dedent

import pytest
import yaml
from openapi_spec_validator import OpenAPIV31SpecValidator

from devstack.openapi import DOCUMENT, TEMPLATE, document, template_routes

_METHODS = ("get", "put", "post", "patch", "delete")


@pytest.fixture(scope="module")
def committed() -> dict[str, object]:
    loaded = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _documented(spec: dict[str, object]) -> dict[str, bool]:
    """Each route of the document (``GET /me``), public when it asks for no security."""
    paths = spec["paths"]
    assert isinstance(paths, dict)
    return {
        f"{method.upper()} {path}": operation.get("security") == []
        for path, item in paths.items()
        for method, operation in item.items()
        if method in _METHODS
    }


def test_openapi_document_matches_the_route_tables_and_models(
    committed: dict[str, object],
) -> None:
    # given the committed document
    # when the document is generated from the functions' route tables and models
    generated = document()
    # then they agree (regenerate: make openapi)
    assert committed == generated


def test_openapi_document_is_valid_openapi_3_1(committed: dict[str, object]) -> None:
    # given the committed document
    # when it is checked against the OpenAPI 3.1 schema (openapi-spec-validator)
    errors = [error.message for error in OpenAPIV31SpecValidator(committed).iter_errors()]
    # then it is valid
    assert committed["openapi"] == "3.1.0"
    assert errors == []


def test_openapi_document_lists_exactly_the_templates_http_routes(
    committed: dict[str, object],
) -> None:
    # given every HttpApi route event of the template (and of the templates it nests)
    in_template = {route.key: route.public for route in template_routes()}
    # when compared with the document's routes
    documented = _documented(committed)
    # then no route is missing from either, and each is public in both or secured in both
    missing_from_document = sorted(set(in_template) - set(documented))
    missing_from_template = sorted(set(documented) - set(in_template))
    assert not missing_from_document, (
        f"in the template, not in openapi.yaml: {missing_from_document}"
    )
    assert not missing_from_template, (
        f"in openapi.yaml, not in the template: {missing_from_template}"
    )
    differing = sorted(key for key, public in in_template.items() if documented[key] != public)
    assert not differing, f"public in one, secured in the other: {differing}"


def test_template_routes_follow_local_nested_applications(tmp_path: Path) -> None:
    # given a root template nesting a local one (as stacks/ will), and one from the SAR
    (tmp_path / "stacks").mkdir()
    (tmp_path / "template.yaml").write_text(
        dedent("""\
        Transform: AWS::Serverless-2016-10-31
        Resources:
          Economy:
            Type: AWS::Serverless::Application
            Properties:
              Location: stacks/economy.yaml
              Parameters: {HttpApiId: !Ref HttpApi}
          Elsewhere:
            Type: AWS::Serverless::Application
            Properties:
              Location: {ApplicationId: arn:aws:serverlessrepo:x, SemanticVersion: 1.0.0}
          Mail:
            Type: AWS::Serverless::Function
            Properties:
              CodeUri: functions/mail/
              Events:
                Send: {Type: HttpApi, Properties: {ApiId: !Ref HttpApi, Method: post, Path: /mail}}
        """),
        encoding="utf-8",
    )
    (tmp_path / "stacks" / "economy.yaml").write_text(
        dedent("""\
        Transform: AWS::Serverless-2016-10-31
        Parameters:
          HttpApiId: {Type: String}
        Resources:
          EconomyFunction:
            Type: AWS::Serverless::Function
            Properties:
              CodeUri: ../functions/economy/
              Events:
                Wallet:
                  Type: HttpApi
                  Properties: {ApiId: !Ref HttpApiId, Method: GET, Path: /me/wallet}
                Shop:
                  Type: HttpApi
                  Properties: {Method: GET, Path: /cosmetics, Auth: {Authorizer: NONE}}
                Daily: {Type: Schedule, Properties: {Schedule: rate(1 day)}}
        """),
        encoding="utf-8",
    )
    # when its routes are collected
    routes = {route.key: route for route in template_routes(tmp_path / "template.yaml")}
    # then the nested template's routes are there, with their code beside the root
    assert set(routes) == {"POST /mail", "GET /me/wallet", "GET /cosmetics"}
    assert routes["GET /cosmetics"].public and not routes["GET /me/wallet"].public
    assert routes["GET /me/wallet"].code == (tmp_path / "functions" / "economy").resolve()


def test_openapi_operation_ids_are_unique(committed: dict[str, object]) -> None:
    # given the committed document
    paths = committed["paths"]
    assert isinstance(paths, dict)
    # when its operations' ids are read
    ids = [op["operationId"] for item in paths.values() for op in item.values()]
    # then each names one operation
    assert len(ids) == len(set(ids)) == len(list(template_routes(TEMPLATE)))


def test_a_browser_may_call_every_route_with_every_header_the_document_names(
    committed: dict[str, object],
) -> None:
    # given the HTTP API's CORS configuration, as the local stack and API Gateway read it
    from devstack.template import Template

    template = Template(TEMPLATE)
    (api,) = template.http_apis()
    cors = template.http_cors(api)
    assert cors is not None

    # when the methods of the template's routes and the headers a player's operations take are
    # listed (a public operation's header is a server's: Stripe signs its webhooks)
    methods = {route.method for route in template_routes()}
    paths = committed["paths"]
    assert isinstance(paths, dict)
    headers = {
        parameter["name"]
        for operations in paths.values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "header" and operation.get("security") != []
    }

    # then a cross-origin request may use each of them (a preflight refused otherwise)
    allowed_headers = {header.lower() for header in cors.allow_headers}
    assert methods - set(cors.allow_methods) == set()
    assert {header.lower() for header in headers} - allowed_headers == set()
