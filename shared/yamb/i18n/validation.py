"""Pydantic's refusals of a field, said in the reader's language.

Pydantic writes its messages in English only. The few kinds a player meets (a missing field, a
string too long, a number out of range, a value not among the allowed ones...) are sentences of
our catalogue here, written exactly as pydantic writes them in English (so that an English
reader reads what they read before); any other kind keeps pydantic's English sentence. A
validator of ours that refuses with `ValueError(Text(...))` is said in the reader's language too."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic_core import ErrorDetails

from yamb.i18n.text import Plural, Text

type Sentence = Text | Plural | str


def _number(value: Any) -> Any:
    """A bound as pydantic writes it: 0.0 is "0"."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _value_error(context: Mapping[str, Any]) -> Sentence:
    """A validator's own refusal: `raise ValueError(Text(...))` is said in the reader's
    language; a plain ValueError keeps pydantic's English."""
    said = getattr(context.get("error"), "args", ())
    if said and isinstance(said[0], Text | Plural):
        return Text("Value error, {error}", error=said[0])
    raise KeyError("error")


_KINDS: Mapping[str, Callable[[Mapping[str, Any]], Sentence]] = {
    "missing": lambda ctx: Text("Field required"),
    "extra_forbidden": lambda ctx: Text("Extra inputs are not permitted"),
    "string_type": lambda ctx: Text("Input should be a valid string"),
    "int_type": lambda ctx: Text("Input should be a valid integer"),
    "int_parsing": lambda ctx: Text(
        "Input should be a valid integer, unable to parse string as an integer"
    ),
    "int_from_float": lambda ctx: Text(
        "Input should be a valid integer, got a number with a fractional part"
    ),
    "float_type": lambda ctx: Text("Input should be a valid number"),
    "float_parsing": lambda ctx: Text(
        "Input should be a valid number, unable to parse string as a number"
    ),
    "bool_type": lambda ctx: Text("Input should be a valid boolean"),
    "bool_parsing": lambda ctx: Text("Input should be a valid boolean, unable to interpret input"),
    "list_type": lambda ctx: Text("Input should be a valid list"),
    "dict_type": lambda ctx: Text("Input should be a valid dictionary"),
    "literal_error": lambda ctx: Text("Input should be {expected}", expected=ctx["expected"]),
    "enum": lambda ctx: Text("Input should be {expected}", expected=ctx["expected"]),
    "string_too_short": lambda ctx: Plural(
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
        ctx["min_length"],
        min_length=ctx["min_length"],
    ),
    "string_too_long": lambda ctx: Plural(
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
        ctx["max_length"],
        max_length=ctx["max_length"],
    ),
    "too_short": lambda ctx: Plural(
        "{field_type} should have at least {min_length} item after validation, not {actual_length}",
        "{field_type} should have at least {min_length} items after validation, "
        "not {actual_length}",
        ctx["min_length"],
        field_type=ctx["field_type"],
        min_length=ctx["min_length"],
        actual_length=ctx["actual_length"],
    ),
    "too_long": lambda ctx: Plural(
        "{field_type} should have at most {max_length} item after validation, not {actual_length}",
        "{field_type} should have at most {max_length} items after validation, not {actual_length}",
        ctx["max_length"],
        field_type=ctx["field_type"],
        max_length=ctx["max_length"],
        actual_length=ctx["actual_length"],
    ),
    "greater_than": lambda ctx: Text("Input should be greater than {gt}", gt=_number(ctx["gt"])),
    "greater_than_equal": lambda ctx: Text(
        "Input should be greater than or equal to {ge}", ge=_number(ctx["ge"])
    ),
    "less_than": lambda ctx: Text("Input should be less than {lt}", lt=_number(ctx["lt"])),
    "less_than_equal": lambda ctx: Text(
        "Input should be less than or equal to {le}", le=_number(ctx["le"])
    ),
    "value_error": _value_error,
    "string_pattern_mismatch": lambda ctx: Text(
        "String should match pattern '{pattern}'", pattern=ctx["pattern"]
    ),
}


def problem(issue: ErrorDetails | Mapping[str, Any]) -> Sentence:
    """What pydantic found wrong with one field (without its location): a sentence of the
    catalogue for the kinds above, else pydantic's own English."""
    kind = _KINDS.get(str(issue.get("type", "")))
    context = issue.get("ctx") or {}
    if kind is not None:
        try:
            return kind(context)
        except (KeyError, TypeError):
            pass
    return str(issue.get("msg", ""))


def located(where: str, issue: ErrorDetails | Mapping[str, Any]) -> Text:
    """`where: problem`, the field's place in the request before what is wrong with it."""
    return Text("{field}: {problem}", field=where, problem=problem(issue))


def location(issue: ErrorDetails | Mapping[str, Any], default: str = "") -> str:
    """The issue's place, dotted (`settings.columns.0`), or `default` when it has none."""
    parts: Sequence[Any] = issue.get("loc") or ()
    return ".".join(str(part) for part in parts) or default


__all__ = ["located", "location", "problem"]
