"""The current season as the web client shows it: a league's table with the zones the season's
end would move, the caller's own points and their season badges."""

from datetime import datetime

from yamb.competition.seasons import LEAGUES, MIN_GAMES, League, season_end, season_of
from yamb.competition.tournament_views import BadgeView, LeagueRowView, SeasonView

from yamb_service.competition.seasons import SeasonService


def season_view(
    service: SeasonService, viewer: str, now: datetime, asked: str | None = None
) -> SeasonView:
    season = season_of(now)
    mine, member = service.viewer(viewer, season.season_id)
    league: League = next((x for x in LEAGUES if x == asked), mine)
    rows = service.table(season.season_id, league)
    names = service.names([m.player_id for _, m in rows])
    zones = {end.player_id: end.move for end in season_end(season.season_id, [m for _, m in rows])}
    return SeasonView(
        season_id=season.season_id,
        starts_at=season.starts_at,
        ends_at=season.ends_at,
        leagues=list(LEAGUES),
        league=league,
        mine=mine,
        points=0 if member is None else member.points,
        games=0 if member is None else member.games,
        rows=[
            LeagueRowView(
                place=place,
                nickname=names.get(m.player_id, m.player_id),
                points=m.points,
                games=m.games,
                zone=zones.get(m.player_id, "stay"),
                me=m.player_id == viewer,
            )
            for place, m in rows
        ],
        badges=[
            BadgeView(
                season_id=b.season_id, league=b.league, place=b.place, points=b.points, move=b.move
            )
            for b in service.badges(viewer)
        ],
        min_games=MIN_GAMES,
    )
