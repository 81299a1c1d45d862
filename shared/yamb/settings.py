"""A game's settings (rules.md 6, product G1): their shape, and which settings exclude which.

`validate_settings` is the one door: it accepts settings or raises InvalidSettingsError listing
every problem, each naming the settings involved. Exclusions are data (EXCLUSIONS) so that a rule
is added as one line.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from pydantic.alias_generators import to_camel

from yamb.errors import InvalidSettingsError
from yamb.i18n import Plural, Text
from yamb.i18n.validation import located, location
from yamb.rules import COLUMN_TYPES, PRESETS

type TurnType = Literal["turn_by_turn", "simultaneous", "each_for_themself", "slow"]
type Account = Literal["free", "premium"]

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 120
FREE_MAX_COLUMNS = 3
FREE_MAX_COLUMN_RANK = 3
FREE_PRESETS = frozenset({1, 2})


class GameSettings(BaseModel):
    """What the creator chooses. `preset` or `columns` (a custom set) for Yamb; family grids
    have neither."""

    # Clients send camelCase like every protocol field; snake_case is accepted too.
    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=to_camel, populate_by_name=True
    )

    grid: Literal["yamb", "classic", "scandinavian", "yacht", "generala"] = "yamb"
    players: StrictInt = Field(default=2, ge=1, le=4, description="seats; 1 is a solo game")
    pairs: StrictBool = Field(default=False, description="2 vs 2: four players in two teams")
    turn_type: TurnType = "turn_by_turn"
    preset: StrictInt | None = Field(default=None, ge=1, le=7)
    columns: tuple[str, ...] | None = None
    dice: Literal[5, 6] = 5
    ranked: StrictBool = False
    turn_seconds: StrictInt | None = Field(default=60, description="None: unlimited")
    slow_deadline_hours: StrictInt | None = Field(default=None, ge=1, le=24 * 30)
    physical_dice: StrictBool = Field(
        default=False,
        description="scorekeeping for real dice: the players (or the creator) type their rolls",
    )
    time_bonus: StrictBool = Field(
        default=False,
        description="equal totals are separated by the time spent deciding (rules.md 9)",
    )
    same_dice: StrictBool = Field(
        default=False,
        description="duplicate play: every player's k-th turn shows the same dice (docs/dice.md)",
    )

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def column_ids(self) -> tuple[str, ...]:
        """The sheet's column types in order; () for a family grid."""
        if self.columns is not None:
            return self.columns
        if self.preset is not None:
            return PRESETS[self.preset]
        return ()


# A problem of the settings: the settings it involves and what is wrong, for the reader.
type Problem = tuple[tuple[str, ...], Text | Plural | str]


@dataclass(frozen=True, slots=True)
class Exclusion:
    settings: tuple[str, ...]
    applies: Callable[[GameSettings], bool]
    message: Text


def _has(settings: GameSettings, column_type: str) -> bool:
    return column_type in settings.column_ids


EXCLUSIONS: tuple[Exclusion, ...] = (
    Exclusion(
        ("ranked", "dice"), lambda s: s.ranked and s.dice != 5, Text("ranked games use 5 dice")
    ),
    Exclusion(
        ("ranked", "columns"),
        lambda s: s.ranked and s.columns is not None,
        Text("ranked games use a column preset, not a custom set"),
    ),
    Exclusion(
        ("ranked", "grid"),
        lambda s: s.ranked and s.grid != "yamb",
        Text("ranked games are Yamb games"),
    ),
    Exclusion(
        ("ranked", "turn_seconds"),
        lambda s: s.ranked and s.turn_seconds is None,
        Text("ranked games have a time per turn"),
    ),
    Exclusion(
        ("ranked", "turn_type"),
        lambda s: s.ranked and s.turn_type == "slow",
        Text("slow games are never ranked"),
    ),
    Exclusion(
        ("ranked", "players"), lambda s: s.ranked and s.solo, Text("solo games are never ranked")
    ),
    Exclusion(
        ("pairs", "players"),
        lambda s: s.pairs and s.players != 4,
        Text("2 vs 2 needs exactly 4 players"),
    ),
    Exclusion(
        ("same_dice", "pairs"),
        lambda s: s.same_dice and s.pairs,
        Text(
            "2 vs 2 shares a turn between partners (the partner's own roll 1): the same dice for "
            "everyone needs every player to have turns of their own"
        ),
    ),
    Exclusion(
        ("pairs", "grid"),
        lambda s: s.pairs and s.grid != "yamb",
        Text("2 vs 2 is played on a Yamb sheet"),
    ),
    Exclusion(
        ("pairs", "time_bonus"),
        lambda s: s.pairs and s.time_bonus,
        Text("2 vs 2 partners share a sheet, not their decision time: no time bonus"),
    ),
    Exclusion(
        ("physical_dice", "turn_seconds"),
        lambda s: s.physical_dice and s.turn_seconds is not None,
        Text(
            "scorekeeping tables have no turn clock (set turn_seconds to null), so are never ranked"
        ),
    ),
    Exclusion(
        ("physical_dice", "turn_type"),
        lambda s: s.physical_dice and s.turn_type != "turn_by_turn",
        Text("scorekeeping tables are played turn by turn"),
    ),
    Exclusion(
        ("physical_dice", "pairs"),
        lambda s: s.physical_dice and s.pairs,
        Text("scorekeeping tables are not played 2 vs 2"),
    ),
    Exclusion(
        ("physical_dice", "same_dice"),
        lambda s: s.physical_dice and s.same_dice,
        Text("real dice cannot be the same for everyone"),
    ),
    Exclusion(
        ("physical_dice", "time_bonus"),
        lambda s: s.physical_dice and s.time_bonus,
        Text("typing real dice takes time that is not deciding: no time bonus"),
    ),
    Exclusion(
        ("time_bonus", "players"),
        lambda s: s.time_bonus and s.solo,
        Text("the time bonus separates equal totals: it needs at least two players"),
    ),
    Exclusion(
        ("same_dice", "players"),
        lambda s: s.same_dice and s.solo,
        Text("the same dice for everyone needs at least two players"),
    ),
    Exclusion(
        ("pairs", "turn_type"),
        lambda s: s.pairs and s.turn_type != "turn_by_turn",
        Text("2 vs 2 is played turn by turn"),
    ),
    Exclusion(
        ("turn_type", "turn_seconds"),
        lambda s: s.turn_type == "slow" and s.turn_seconds is not None,
        Text("slow games have no time per turn (set turn_seconds to null)"),
    ),
    Exclusion(
        ("turn_type", "slow_deadline_hours"),
        lambda s: s.turn_type == "slow" and s.slow_deadline_hours is None,
        Text("slow games need a deadline in hours"),
    ),
    Exclusion(
        ("slow_deadline_hours", "turn_type"),
        lambda s: s.turn_type != "slow" and s.slow_deadline_hours is not None,
        Text("only slow games have a deadline in hours"),
    ),
    Exclusion(
        ("columns", "turn_type"),
        lambda s: _has(s, "directed") and not s.solo and s.turn_type != "turn_by_turn",
        Text("directed with more than one player is played turn by turn only"),
    ),
    Exclusion(
        ("columns", "directed"),
        lambda s: _has(s, "directed") and not _has(s, "announced"),
        Text("the directed column needs the announced column"),
    ),
    Exclusion(
        ("preset", "columns"),
        lambda s: s.grid == "yamb" and (s.preset is None) == (s.columns is None),
        Text("a yamb game takes either a preset or a custom set of columns"),
    ),
    Exclusion(
        ("grid", "columns"),
        lambda s: s.grid != "yamb" and (s.preset is not None or s.columns is not None),
        Text("only yamb games have columns; family grids are one column"),
    ),
    Exclusion(
        ("grid", "dice"),
        lambda s: s.grid != "yamb" and s.dice != 5,
        Text("family grids use 5 dice"),
    ),
)

FREE_ACCOUNT_LIMITS: tuple[Exclusion, ...] = (
    Exclusion(
        ("account", "preset"),
        lambda s: s.preset is not None and s.preset not in FREE_PRESETS,
        Text("free accounts play presets 1 and 2 (premium unlocks every preset)"),
    ),
    Exclusion(
        ("account", "columns"),
        lambda s: (
            s.columns is not None
            and (
                len(s.columns) > FREE_MAX_COLUMNS
                or any(
                    c in COLUMN_TYPES and COLUMN_TYPES[c].rank > FREE_MAX_COLUMN_RANK
                    for c in s.columns
                )
            )
        ),
        Text(
            "free accounts play at most 3 columns of the types down, up and free (premium unlocks "
            "every column)"
        ),
    ),
)


def _column_problems(settings: GameSettings) -> list[Problem]:
    columns = settings.columns
    if columns is None:
        return []
    problems: list[Problem] = []
    unknown = [c for c in columns if c not in COLUMN_TYPES]
    if unknown:
        problems.append(
            (
                ("columns",),
                Text(
                    "unknown column type '{column}'; one of {columns}",
                    column=str(unknown[0])[:40],
                    columns=", ".join(COLUMN_TYPES),
                ),
            )
        )
    if not columns:
        problems.append((("columns",), Text("a custom set needs at least one column")))
    if len(set(columns)) != len(columns):
        problems.append((("columns",), Text("a column type may appear only once")))
    return problems


def _turn_seconds_problems(settings: GameSettings) -> list[Problem]:
    seconds = settings.turn_seconds
    if seconds is not None and not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        message = Text(
            "time per turn is {least}-{most} s, or null (unlimited)",
            least=MIN_TURN_SECONDS,
            most=MAX_TURN_SECONDS,
        )
        return [(("turn_seconds",), message)]
    return []


def _chosen(settings: GameSettings, name: str) -> str:
    """The column set is chosen by `preset` or by `columns`: name the one the creator set."""
    if name == "columns" and settings.columns is None and settings.preset is not None:
        return "preset"
    return name


def validate_settings(data: Mapping[str, Any], account: Account = "premium") -> GameSettings:
    """The settings, or InvalidSettingsError naming every conflicting pair of settings."""
    try:
        settings = GameSettings.model_validate(dict(data))
    except ValidationError as error:
        raise InvalidSettingsError(
            [
                (
                    tuple(str(part) for part in issue["loc"][:1]) or ("settings",),
                    located(location(issue, "settings"), issue),
                )
                for issue in error.errors()
            ]
        ) from None
    problems = _column_problems(settings) + _turn_seconds_problems(settings)
    problems += _broken(EXCLUSIONS, settings)
    if account == "free":
        problems += premium_only(settings)
    if problems:
        raise InvalidSettingsError(problems)
    return settings


def _named(names: tuple[str, ...], message: Text) -> Text:
    """`preset and columns: ...`: the settings a rule involves (as the client names them in
    English: they are the API's words) before what the rule says."""
    if len(names) == 2:
        return Text(
            "{first} and {second}: {problem}", first=names[0], second=names[1], problem=message
        )
    return Text("{field}: {problem}", field=", ".join(names), problem=message)


def premium_only(settings: GameSettings) -> list[Problem]:
    """What in valid settings a free account may not play (rules.md 5); empty: anyone may."""
    return _broken(FREE_ACCOUNT_LIMITS, settings)


def _broken(rules: tuple[Exclusion, ...], settings: GameSettings) -> list[Problem]:
    problems: list[Problem] = []
    for rule in rules:
        if rule.applies(settings):
            names = tuple(_chosen(settings, name) for name in rule.settings)
            problems.append((names, _named(names, rule.message)))
    return problems
