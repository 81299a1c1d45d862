"""Only the DynamoDB adapters speak pynamodb (docs/decisions.md 89): services, ports, routes,
jobs, stream handlers and every other module of yamb_service import neither pynamodb nor an
adapter module, so they work on their Protocols (and on fakes in tests). The adapters
(`dynamo.py`, `*_dynamo.py`) and the wiring that builds them (`wiring.py`, `*_wiring.py`) are the
exceptions."""

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "shared" / "yamb_service"


def _checked_modules() -> list[Path]:
    """Every module but the adapters and the wiring."""
    return sorted(
        p
        for p in SERVICE.rglob("*.py")
        if p.name not in ("dynamo.py", "wiring.py") and not p.stem.endswith(("_dynamo", "_wiring"))
    )


def _storage(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return (
        module == "pynamodb"
        or module.startswith("pynamodb.")
        or last == "dynamo"
        or last.endswith("_dynamo")
    )


def _storage_imports(tree: ast.AST) -> list[int]:
    """The lines of the imports (at any depth: a lazy one counts too) of pynamodb or of a
    DynamoDB adapter module."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            # `from yamb_service.economy import wallet_dynamo` names the adapter in the alias
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.ImportFrom):  # from . import dynamo
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(_storage(name) for name in names):
            lines.append(node.lineno)
    return sorted(lines)


def test_storage_boundary_finds_every_domain_service() -> None:
    # given the service tree / when its checked modules are listed
    relative = {p.relative_to(SERVICE).as_posix() for p in _checked_modules()}

    # then each domain's services, ports, routes and jobs are among them, no adapter is
    for expected in (
        "game/service.py",
        "game/lobby.py",
        "game/ports.py",
        "accounts/service.py",
        "accounts/ports.py",
        "economy/service.py",
        "economy/ports.py",
        "economy/payments/service.py",
        "economy/rewards/service.py",
        "results/service.py",
        "results/ports.py",
        "progression/tasks/service.py",
        "progression/tasks/ports.py",
        "progression/referral/service.py",
        "progression/referral/ports.py",
        "progression/badges/service.py",
        "progression/badges/ports.py",
        "progression/jobs.py",
        "progression/events.py",
        "progression/tasks/routes.py",
    ):
        assert expected in relative
    assert not {"economy/wallet_dynamo.py", "results/dynamo.py", "game/wiring.py"} & relative


@pytest.mark.parametrize(
    "path", _checked_modules(), ids=lambda p: p.relative_to(SERVICE).as_posix()
)
def test_storage_boundary_services_ports_and_routes_import_no_dynamodb(path: Path) -> None:
    # given a module that is neither an adapter nor wiring
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    # when its imports are read
    storage = _storage_imports(tree)

    # then none is pynamodb or a DynamoDB adapter: wiring hands the adapters in
    assert storage == [], f"{path.relative_to(SERVICE)} imports storage on lines {storage}"


def test_storage_boundary_catches_pynamodb_and_adapter_imports() -> None:
    # given a module that imports pynamodb and adapters, plainly, lazily and relatively
    source = """import pynamodb.transactions
from pynamodb.transactions import TransactWrite
from yamb_service.economy import wallet_dynamo
from yamb_service.economy.ports import Change
def later():
    from yamb_service.results.dynamo import DynamoResultsStore
from . import dynamo
"""
    # when its imports are read / then each one is caught, and the port's is not
    assert _storage_imports(ast.parse(source)) == [1, 2, 3, 6, 7]
