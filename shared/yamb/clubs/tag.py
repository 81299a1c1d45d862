"""A club's tag as it is drawn beside a member's nickname (C1): the main club's, in the players
list, on the boards and on a player's page. Its own module: the players list and the boards
show it without the rest of the clubs."""

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class TagView(BaseModel):
    """How a club's tag is drawn beside a member's nickname."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )
    club_id: str
    tag: str
    text: str
    background: str
