"""What the tournaments API answers (HTTP, JSON in camelCase): the list, a tournament's page
with its live standings and games, an entry. The tournament's seed only once it has ended."""

from collections.abc import Iterable, Mapping
from datetime import datetime

from pydantic import Field

from yamb.competition.standings import Entry, standings
from yamb.competition.tournaments import (
    CamelModel,
    Kind,
    Status,
    Tournament,
    TournamentGame,
    TournamentPlan,
)
from yamb.settings import GameSettings


class TournamentSummaryView(CamelModel):
    tournament_id: str
    name: str
    kind: Kind
    status: Status
    starts_at: datetime
    ends_at: datetime | None = None
    rounds: int | None = None
    round: int = 0
    entry_fee: int
    prizes: list[int]
    settings: GameSettings
    # SHA-256 of the tournament's seed: every game's dice follow from it (docs/dice.md).
    commitment: str

    @classmethod
    def of(cls, tournament: Tournament) -> "TournamentSummaryView":
        plan = tournament.plan
        return cls(
            tournament_id=tournament.tournament_id,
            name=plan.name,
            kind=plan.kind,
            status=tournament.status,
            starts_at=plan.starts_at,
            ends_at=plan.ends_at,
            rounds=tournament.rounds if plan.kind == "swiss" else None,
            round=tournament.round,
            entry_fee=plan.entry_fee,
            prizes=plan.prizes,
            settings=plan.settings(),
            commitment=tournament.commitment,
        )


class TournamentListView(CamelModel):
    tournaments: list[TournamentSummaryView]


class StandingView(CamelModel):
    place: int
    nickname: str
    # Arena: points; Swiss: half-points (2 a win: shown halved); duplicate: the game's total.
    points: int
    games: int
    wins: int
    results: str = Field(description="W, D, L, B(ye) per game; lower case: counted double")
    on_fire: bool = False
    tiebreak: int = 0
    score: int | None = None
    playing: str | None = Field(default=None, description="the game under way, its id")
    me: bool = False


class TournamentGameView(CamelModel):
    game_id: str
    round: int
    players: list[str]  # nicknames
    ended: bool
    totals: dict[str, int] = Field(default_factory=dict)  # by nickname
    winners: list[str] = Field(default_factory=list)  # nicknames
    # Never played: a Swiss player sat at another game when its table was made, and lost it.
    forfeit: bool = False


class TournamentPageView(TournamentSummaryView):
    entrants: int
    standings: list[StandingView]
    games: list[TournamentGameView]
    entered: bool = False
    # The seed, once the tournament is over: its SHA-256 is `commitment`, and each game's seed
    # is HMAC-SHA256(seed, the game's id, or "deal" in a duplicate).
    seed: str | None = None


def tournament_page(
    tournament: Tournament,
    entries: Mapping[str, Entry],
    games: Iterable[TournamentGame],
    viewer: str | None,
) -> TournamentPageView:
    summary = TournamentSummaryView.of(tournament)
    names = {p: e.nickname for p, e in entries.items()}
    rows = [
        StandingView(
            place=row.place,
            nickname=row.entry.nickname,
            points=row.entry.score or 0 if tournament.kind == "duplicate" else row.entry.points,
            games=row.entry.games,
            wins=row.entry.wins,
            results=row.entry.results,
            on_fire=tournament.kind == "arena" and row.entry.on_fire,
            tiebreak=row.tiebreak,
            score=row.entry.score,
            playing=row.entry.game_id,
            me=row.entry.player_id == viewer,
        )
        for row in standings(tournament.kind, entries.values())
    ]
    shown_games = [
        TournamentGameView(
            game_id=game.game_id,
            round=game.round,
            players=[names.get(p, p) for p in game.players],
            ended=game.ended,
            totals={names.get(p, p): total for p, total in game.totals.items()},
            winners=[names.get(p, p) for p in game.winners],
            forfeit=game.forfeit,
        )
        for game in sorted(games, key=lambda g: (g.created_at, g.game_id), reverse=True)
        if game.started and not game.void
    ]
    over = tournament.status in {"finished", "paid", "cancelled"}
    return TournamentPageView(
        **summary.model_dump(),
        entrants=len(entries),
        standings=rows,
        games=shown_games,
        entered=viewer is not None and viewer in entries,
        seed=tournament.seed if over else None,
    )


class TournamentEntryView(CamelModel):
    tournament_id: str
    nickname: str
    paid: int


class NewTournament(TournamentPlan):
    """An operator's request: a tournament's plan."""


class LeagueRowView(CamelModel):
    place: int
    nickname: str
    points: int
    games: int
    # Where the season's end would move them as it stands: "up", "down" or "stay".
    zone: str
    me: bool = False


class BadgeView(CamelModel):
    season_id: str
    league: str
    place: int
    points: int
    move: str


class SeasonView(CamelModel):
    season_id: str
    starts_at: datetime
    ends_at: datetime
    leagues: list[str]
    league: str = Field(description="the league shown: the viewer's unless another was asked")
    mine: str = Field(description="the viewer's league this season")
    points: int = 0
    games: int = 0
    rows: list[LeagueRowView]
    badges: list[BadgeView] = Field(default_factory=list)
    min_games: int
