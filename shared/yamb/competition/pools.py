"""A table's rating pool from its settings alone (issue 32): what the lobby's list shows each
waiting player's rating for. Apart from yamb.competition.ratings so that the game function's
views name a table's pool without loading the ratings' models at its cold start."""

from yamb.settings import GameSettings


def family_of_settings(settings: GameSettings) -> str | None:
    """The rule family a game of these settings rates in: the family grid, or Yamb's column
    preset (`yamb-3`); None for a custom column set."""
    if settings.grid != "yamb":
        return settings.grid
    return None if settings.preset is None else f"yamb-{settings.preset}"


def table_pool(settings: GameSettings) -> str | None:
    """The pool's key (`individual/yamb-3`, `pairs/yamb-5`) of a table of these settings, or
    None where no rating applies (solo, a custom column set)."""
    family = family_of_settings(settings)
    if family is None or settings.solo:
        return None
    return f"{'pairs' if settings.pairs else 'individual'}/{family}"
