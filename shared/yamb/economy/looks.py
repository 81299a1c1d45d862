"""A player's looks at a table, apart from the game session (yamb.session.model keeps using it):
the wardrobe's store (yamb_service.economy.wardrobe_dynamo) builds them without importing the
session's models, which the economy function's cold start does not need (decisions.md 99)."""

from pydantic import BaseModel, ConfigDict

from yamb.clubs.tag import TagView


class Looks(BaseModel):
    """What a player shows at a table (product E5): cosmetics' item ids, as equipped and valid
    when they sat down (one read then, none on a move); one expiring during the game stays for
    that game."""

    model_config = ConfigDict(frozen=True)

    frame: str | None = None
    avatar: bool = False
    sheet_skin: str | None = None
    dice_skin: str | None = None
    column_effect: str | None = None
    # The main club's tag beside the name (C1), as it was when they sat down.
    club: TagView | None = None
