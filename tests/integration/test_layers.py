"""The layers and what the functions import from them. What the dependencies layer's build does
to botocore still works: with the data of the services the functions call only
(layers/dependencies/trim_botocore.py) it makes their clients. Each layer's requirements.txt
pins what pyproject.toml pins, once; the payments layer holds what only Stripe's SDK needs and
nothing the dependencies layer has; and every library a function's handler can import (its
modules followed through shared/) is in one of the function's layers, so no function needs
Stripe but the one that has its layer."""

import ast
import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import botocore
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from devstack.template import Template

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "shared"
LAYERS = ROOT / "layers"
sys.path.insert(0, str(LAYERS / "dependencies"))
from trim_botocore import kept_services, trim  # noqa: E402

CLIENTS = """
import botocore, botocore.session
assert botocore.__file__.startswith(%r), botocore.__file__
session = botocore.session.get_session()
for service in %r:
    session.create_client(service, region_name="eu-west-1", aws_access_key_id="a",
                          aws_secret_access_key="b")
print("ok")
"""


def test_trimmed_botocore_makes_the_functions_clients(tmp_path: Path) -> None:
    # given botocore trimmed as the dependencies layer ships it
    shutil.copytree(Path(botocore.__file__).parent, tmp_path / "botocore")
    removed = trim(tmp_path / "botocore")

    # when a fresh interpreter makes a client of every service the functions call with it
    services = sorted(kept_services())
    code = CLIENTS % (str(tmp_path), services)
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )

    # then they are made, and hundreds of other services' data are gone
    assert result.stdout.strip() == "ok", result.stderr
    assert {
        "dynamodb",
        "stepfunctions",
        "apigatewaymanagementapi",
        "cognito-idp",
        "ses",
        "ssm",
        "lambda",
    } == set(services)
    assert len(removed) > 300


# ------------------------------------------------------------------------- what each layer pins


def pins(requirements: Path) -> dict[str, Requirement]:
    """A requirements file's (or pyproject list's) pins by canonical name."""
    lines = requirements.read_text(encoding="utf-8").splitlines()
    return pinned(line for line in lines if line.split("#")[0].strip())


def pinned(lines: Any) -> dict[str, Requirement]:
    found = {}
    for line in lines:
        requirement = Requirement(line.split("#")[0].strip())
        assert str(requirement.specifier).startswith("=="), f"not pinned: {requirement}"
        found[canonicalize_name(requirement.name)] = requirement
    return found


def version(requirement: Requirement) -> Version:
    return Version(str(requirement.specifier).removeprefix("=="))


def closure(roots: dict[str, Requirement]) -> set[str]:
    """The roots and everything they need, by the installed distributions' metadata (the
    virtual environment holds every layer's libraries: pyproject's `service` extra)."""
    visited: set[tuple[str, frozenset[str]]] = set()
    todo = [(name, frozenset(requirement.extras)) for name, requirement in roots.items()]
    while todo:
        name, extras = todo.pop()
        if (name, extras) in visited:
            continue
        visited.add((name, extras))
        for text in importlib.metadata.requires(name) or []:
            needed = Requirement(text)
            marker = needed.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras | {""}):
                todo.append((canonicalize_name(needed.name), frozenset(needed.extras)))
    return {name for name, _ in visited}


# The root template and its nested applications read as one (devstack.template): layers are passed
# into the nested stacks as ARNs, read back here as the root's `Ref`s; code paths are the root's.
_TEMPLATE = Template(ROOT / "template.yaml")
TEMPLATE = {
    **_TEMPLATE.body,
    # Globals.Function of the templates that hold functions (the same layers in each).
    "Globals": {"Function": _TEMPLATE.function_globals("GameFunction")},
}
# Each layer of the template built from a requirements.txt: its pins.
LAYER_PINS = {
    name: pins(ROOT / resource["Properties"]["ContentUri"] / "requirements.txt")
    for name, resource in TEMPLATE["Resources"].items()
    if resource["Type"] == "AWS::Serverless::LayerVersion"
    and (ROOT / resource["Properties"]["ContentUri"] / "requirements.txt").is_file()
}
DEPENDENCIES = LAYER_PINS["DependenciesLayer"]
PAYMENTS = LAYER_PINS["PaymentsLayer"]
PUSH = LAYER_PINS["PushLayer"]
# The layers no function takes together (each is one function's own): they may pin the same
# library, in the same version (requests: Stripe's and pywebpush's HTTP client).
APART = {"PaymentsLayer", "PushLayer"}


def test_layers_pin_what_pyproject_pins_each_in_one_layer() -> None:
    # given pyproject's runtime libraries (its dependencies and the `service` extra)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = pinned([*project["dependencies"], *project["optional-dependencies"]["service"]])

    # when the layers' requirements are read
    layers_of = {name: [k for k, p in LAYER_PINS.items() if name in p] for name in wanted}

    # then each is pinned by exactly one layer (or by layers no function takes together), as
    # pyproject pins it (extras included), and what else a layer pins is something one of them
    # needs
    for name, requirement in wanted.items():
        holders = layers_of[name]
        assert len(holders) == 1 or set(holders) <= APART, (name, holders)
        assert all(str(LAYER_PINS[layer][name]) == str(requirement) for layer in holders)
    needed = closure(wanted)
    for layer, layer_pins in LAYER_PINS.items():
        assert set(layer_pins) <= needed, (layer, set(layer_pins) - needed)


def test_payments_layer_holds_what_only_stripe_needs() -> None:
    # given what the dependencies layer ships (its pins and what they need) and what Stripe's SDK
    # and its HTTP client need
    shipped = closure(DEPENDENCIES)
    stripe_needs = closure({name: PAYMENTS[name] for name in ("stripe", "requests")})

    # when the payments layer's pins are read (it installs them without their dependencies)
    layer = set(PAYMENTS)

    # then it pins exactly what Stripe needs and the dependencies layer lacks: no library twice
    # in /opt (a later layer overwrites an earlier one's files), none missing
    assert layer == stripe_needs - shipped
    assert {"stripe", "requests"}.isdisjoint(shipped)
    assert "--no-deps" in (LAYERS / "payments" / "Makefile").read_text(encoding="utf-8")
    # and each of their requirements is met by the version a layer ships (pinned, or else the
    # one the dependencies layer's install resolves, as in this environment)
    for name in layer:
        for text in importlib.metadata.requires(name) or []:
            needed = Requirement(text)
            if needed.marker is not None and not needed.marker.evaluate({"extra": ""}):
                continue
            dependency = canonicalize_name(needed.name)
            pin = PAYMENTS.get(dependency) or DEPENDENCIES.get(dependency)
            have = version(pin) if pin else Version(importlib.metadata.version(dependency))
            assert needed.specifier.contains(have, prereleases=True), (name, text, have)


def test_push_layer_holds_what_only_pywebpush_needs() -> None:
    # given what the dependencies layer ships and what pywebpush and its signer need
    shipped = closure(DEPENDENCIES)
    push_needs = closure({name: PUSH[name] for name in ("pywebpush", "py-vapid", "http-ece")})

    # then the push layer pins exactly what they need and the dependencies layer lacks, each
    # in the version pyproject (or the payments layer, for what they share) pins
    assert set(PUSH) == push_needs - shipped
    for name in set(PUSH) & set(PAYMENTS):
        assert str(PUSH[name]) == str(PAYMENTS[name])
    assert "--no-deps" in (LAYERS / "push" / "Makefile").read_text(encoding="utf-8")


def test_push_layer_is_the_push_function_s_alone(template: dict[str, Any]) -> None:
    # given the template / when each function's layers are read
    with_layer = [
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
        and "PushLayer" in function_layers(template, name)
    ]
    # then only the push function has pywebpush's layer (its import alone is about 270 ms), and
    # no function has it beside Stripe's
    assert with_layer == ["PushFunction"]
    assert re.search(r"^build-PushLayer:", (LAYERS / "push" / "Makefile").read_text(), re.M)


# ------------------------------------------------------------------------- what functions import


def module_file(name: str, function_dir: Path) -> Path | None:
    """The project's source of a module a function can import (its own directory, then the
    domain layer's packages), or None for a library or the standard library."""
    parts = name.split(".")
    for base in (function_dir, SHARED):
        path = base.joinpath(*parts)
        if path.with_suffix(".py").is_file():
            return path.with_suffix(".py")
        if (path / "__init__.py").is_file():
            return path / "__init__.py"
    return None


def imported_names(path: Path, module: str) -> list[str]:
    """Every module name an import statement of the file names, anywhere in it (a function's
    late import is still needed at run time) but under `if TYPE_CHECKING:`; `from a import b`
    names both `a` and `a.b` (b may be a module)."""
    names: list[str] = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for statement in child.orelse:
                    visit_statement(statement)
            else:
                visit_statement(child)

    def visit_statement(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def libraries_imported(handler_file: Path) -> set[str]:
    """The top-level names of the libraries the handler's module can import, following the
    project's own modules (and their packages' __init__) transitively."""
    return reached(handler_file)[1]


def reached(handler_file: Path) -> tuple[set[str], set[str]]:
    """The project's modules the handler's module can import, followed transitively, and the
    top-level names of the libraries they import."""
    function_dir = handler_file.parent
    seen: dict[Path, str] = {}
    libraries: set[str] = set()
    todo = [(handler_file, handler_file.stem)]
    while todo:
        path, module = todo.pop()
        if path in seen:
            continue
        seen[path] = module
        for name in imported_names(path, module):
            parts = name.split(".")
            for end in range(1, len(parts) + 1):
                prefix = ".".join(parts[:end])
                found = module_file(prefix, function_dir)
                if found is not None:
                    todo.append((found, prefix))
            if module_file(parts[0], function_dir) is None:
                libraries.add(parts[0])
    return set(seen.values()), libraries - set(sys.stdlib_module_names)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return TEMPLATE


def function_layers(template: dict[str, Any], function: str) -> list[str]:
    """The function's layers as SAM gives them: the global ones, then its own."""
    own = template["Resources"][function]["Properties"].get("Layers", [])
    return [layer["Ref"] for layer in [*template["Globals"]["Function"]["Layers"], *own]]


def test_functions_import_only_libraries_their_layers_ship(template: dict[str, Any]) -> None:
    # given every function of the template, its handler's module and its layers
    distributions = importlib.metadata.packages_distributions()
    functions = {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }
    assert {"PaymentsFunction", "GameFunction"} <= set(functions)

    for function, props in functions.items():
        module = props["Handler"].rpartition(".")[0]
        handler_file = ROOT / props["CodeUri"] / f"{module}.py"
        layers = function_layers(template, function)
        shipped = set().union(*(closure(LAYER_PINS.get(layer, {})) for layer in layers))

        # when the libraries its handler can import are followed through the project's modules
        libraries = libraries_imported(handler_file)
        needed = {
            library: {canonicalize_name(d) for d in distributions.get(library, [library])}
            for library in libraries
        }

        # then each comes from one of its layers (the domain layer ships the project's own)
        assert "DomainLayer" in layers
        for library, names in needed.items():
            assert names & shipped, f"{function} imports {library}, which none of {layers} ships"
        # and a function's own layer (beyond the global ones) is one it imports from
        for layer in layers[len(template["Globals"]["Function"]["Layers"]) :]:
            used = {n for names in needed.values() for n in names} & set(LAYER_PINS[layer])
            assert used, f"{function} has {layer} but imports nothing from it"


def test_payments_layer_is_the_payments_function_s_alone(template: dict[str, Any]) -> None:
    # given the template / when each function's layers are read
    with_layer = [
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
        and "PaymentsLayer" in function_layers(template, name)
    ]
    layer = template["Resources"]["PaymentsLayer"]

    # then only the payments function has Stripe's layer, built like the dependencies layer
    assert with_layer == ["PaymentsFunction"]
    assert "PaymentsLayer" not in template["Globals"]["Function"]["Layers"]
    assert layer["Properties"]["ContentUri"] == "layers/payments/"
    assert layer["Metadata"] == template["Resources"]["DependenciesLayer"]["Metadata"]
    assert re.search(r"^build-PaymentsLayer:", (LAYERS / "payments" / "Makefile").read_text(), re.M)


# The functions that write games, so that a bot's move can be theirs to play (a frame, a lane
# that ran out, a player who left): they alone take the bots, the solver and numpy.
# The tournaments' job makes and starts tables through the game service, which loads the bots.
PLAY_BOTS = {"GameFunction", "ConnectionsFunction", "ClockFunction", "TournamentsJobsFunction"}


def test_only_the_functions_that_play_bots_reach_numpy(template: dict[str, Any]) -> None:
    # given every function of the template and its handler's module
    functions = {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }
    assert set(functions) > PLAY_BOTS

    # when the modules its handler can import are followed through the project's modules (late
    # imports included: a late import is still shipped and can still run)
    reaching = set()
    for function, props in functions.items():
        module = props["Handler"].rpartition(".")[0]
        modules, libraries = reached(ROOT / props["CodeUri"] / f"{module}.py")
        bots = {m for m in modules if m.split(".")[:2] in (["yamb", "bots"], ["yamb", "solver"])}
        if "numpy" in libraries:
            reaching.add(function)
        # then numpy comes with the bots or the solver, never without them
        assert bool(bots) == ("numpy" in libraries), (function, sorted(bots))

    # and only the functions that play bots reach it
    assert reaching == PLAY_BOTS


def test_bots_layer_is_the_bot_playing_functions_alone(template: dict[str, Any]) -> None:
    # given the template / when each function's layers are read
    with_layer = {
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
        and "BotsLayer" in function_layers(template, name)
    }
    # then numpy's layer is on the functions that play bots only, and no other layer has numpy
    assert with_layer == PLAY_BOTS
    assert set(LAYER_PINS["BotsLayer"]) == {"numpy"}
    assert all("numpy" not in pins for name, pins in LAYER_PINS.items() if name != "BotsLayer")
    assert re.search(r"^build-BotsLayer:", (LAYERS / "bots" / "Makefile").read_text(), re.M)


def test_domain_layer_ships_the_solved_tables_too_large_to_commit(tmp_path: Path) -> None:
    # given the checkout's solved Scandinavian table (here a stand-in with its hash), and the
    # layer's source copied elsewhere, as SAM copies it before running the Makefile
    solved = tmp_path / "solved"
    solved.mkdir()
    (solved / "scandinavian.npz").write_bytes(b"a solved table")
    (solved / "scandinavian.npz.sha256").write_text("0123  scandinavian.npz\n")
    source = tmp_path / "source"
    shutil.copytree(SHARED, source, ignore=shutil.ignore_patterns("__pycache__"))
    artifacts = tmp_path / "artifacts"

    # when the domain layer is built
    subprocess.run(
        ["make", "--makefile", str(SHARED / "Makefile"), "build-DomainLayer",
         f"ARTIFACTS_DIR={artifacts}", f"SOLVED={solved}", f"PYTHON={sys.executable}"],
        cwd=source, check=True, capture_output=True,
    )  # fmt: skip

    # then the table and its hash are where the solver looks first, beside the committed ones
    tables = artifacts / "python" / "yamb" / "solver" / "tables"
    assert (tables / "scandinavian.npz").read_bytes() == b"a solved table"
    assert (tables / "scandinavian.npz.sha256").is_file()
    assert (tables / "classic.npz").is_file()
    from yamb.solver import storage

    assert storage.TABLES.relative_to(SHARED) == tables.relative_to(artifacts / "python")
