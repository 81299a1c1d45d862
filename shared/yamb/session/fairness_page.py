"""A game's fairness on its public page (issue 32): the one commitment everyone compares. Every
`game` frame carries the commitment too, but each connection gets its own frame, so two players
could be shown different ones; the public page is one address that players, spectators and
anyone else read alike (and may pass around), and each client compares it with its frames."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class PublicFairnessView(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    game_id: str
    status: Literal["waiting", "running", "finished", "cancelled", "deleted"]
    scheme: str
    commitment: str = Field(description="SHA-256 of the server seed, hex; fixed at creation")
    client_seeds: dict[str, str] = Field(default_factory=dict)
    seed: str | None = Field(default=None, description="the server seed, hex, once ended")
    commitments: dict[str, str] = Field(
        default_factory=dict,
        description="player id to the SHA-256 of their seed, committed while the table waited",
    )
    reveal_by: datetime | None = Field(
        default=None, description="while the first roll waits for the committed seeds"
    )
    revealed: list[str] = Field(default_factory=list)
    withheld: list[str] = Field(
        default_factory=list, description="commitments dropped, their seed not revealed in time"
    )
    deal: str | None = Field(
        default=None,
        description="a duplicate tournament's game: its tournament, whose entrants all play "
        "this dice; its page waits, once the game has ended, until the tournament is over",
    )
