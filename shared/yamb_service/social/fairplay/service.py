"""Fair play in the game function (docs/social.md, "Fair play"): a player's record is read as
they sit down and kept in their seat, so that a write can put a check to them in the same
conditional write of the game, reading nothing more; the answer is an action of the game too
(`fairplay_answer`). After the write, the check goes to that player alone (`fairplay_check`),
a pass or a yellow card is written to their record and told to them (`fairplay_result`), the
third card bans the account (the accounts' ban task: disabled, signed out everywhere), and an
ended game's decisions and agreement with the optimal player join each person's record.

What follows a write never fails it: a failure is logged with the player's id and counted
(`FairplayFailed`)."""

import secrets
from datetime import datetime
from functools import partial

from yamb import fair_dice
from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text
from yamb.protocol import FairplayAnswer, FairplayCheckFrame, FairplayResultFrame, sentence
from yamb.session import fairplay, regret
from yamb.session.effects import Effects
from yamb.session.fairplay import FairplayCheckPendingError
from yamb.session.model import GameSession, SeatFairplay
from yamb.social.fairplay import (
    CARDS_TO_BAN,
    CHECK_SECONDS,
    FairplayCheck,
    FairplayRecord,
    GameAgreement,
)

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.writer import Applied
from yamb_service.game.writes import mutate
from yamb_service.social.fairplay.ports import FairplayStore

_PICK = secrets.SystemRandom()
BAN_REASON = "three yellow cards: fair-play checks failed or not answered"


def new_check_id() -> str:
    return secrets.token_urlsafe(9)


def picker() -> secrets.SystemRandom:
    return _PICK


def _store(ctx: GameContext) -> FairplayStore | None:
    return None if ctx.social is None else ctx.social.fairplay


def seat_state_for(ctx: GameContext, player_id: str, now: datetime) -> SeatFairplay | None:
    """What the player's seat keeps of their record as they sit down (one read then, none at
    their moves); None when it cannot be read: the seat is not judged (a record never stops a
    game)."""
    store = _store(ctx)
    if store is None:
        return None
    try:
        return fairplay.seat_state(store.get(player_id), now)
    except Exception:
        logger.exception("fair-play record not read", player_id=player_id)
        metrics.add_metric(name="FairplayFailed", unit=MetricUnit.Count, value=1)
        return None


def answer(ctx: GameContext, caller: Caller, action: FairplayAnswer, now: datetime) -> None:
    player = caller.player_id
    mutate(
        ctx,
        caller,
        action,
        action.game_id,
        lambda s: fairplay.answer(s, player, action.check_id, action.position, now),
        now,
    )


def resend(ctx: GameContext, caller: Caller, refusal: FairplayCheckPendingError) -> None:
    """A move refused for a check still open: the check again (a page reloaded meanwhile)."""
    ctx.delivery.send(caller, _check_frame(refusal.game_id, refusal.check, caller.language))


def _check_frame(game_id: str, check: FairplayCheck, language: str) -> FairplayCheckFrame:
    return FairplayCheckFrame(
        game_id=game_id,
        check_id=check.check_id,
        dice=check.dice,
        face=check.face,
        question=sentence(Text("Tap the die showing {face}", face=check.face), language),
        deadline=check.deadline,
        seconds=CHECK_SECONDS,
    )


def follow_up(ctx: GameContext, applied: Applied, now: datetime) -> None:
    """What a written change asks of fair play; never fails the change."""
    effects = applied.effects
    if not (
        effects.fairplay_checks
        or effects.fairplay_passed
        or effects.fairplay_cards
        or effects.ended
    ):
        return
    try:
        _follow_up(ctx, applied.session, effects, now)
    except Exception:
        logger.exception("fair play not followed up", game_id=applied.session.game_id)
        metrics.add_metric(name="FairplayFailed", unit=MetricUnit.Count, value=1)


def _follow_up(ctx: GameContext, session: GameSession, effects: Effects, now: datetime) -> None:
    for player_id in effects.fairplay_checks:
        seat = session.seats[session.player_ids.index(player_id)]
        check = seat.fairplay.check if seat.fairplay is not None else None
        if check is not None and seat.connection_id is not None:
            frame = _check_frame(session.game_id, check, _language(ctx, player_id))
            ctx.delivery.deliver(seat.connection_id, frame)
        metrics.add_metric(name="FairplayCheckPut", unit=MetricUnit.Count, value=1)
        logger.info("fair-play check put", player_id=player_id)
    store = _store(ctx)
    if store is None:
        return
    for player_id, check_id in effects.fairplay_passed:
        _, after = store.update(player_id, lambda record: record.passed(now))
        metrics.add_metric(name="FairplayCheckPassed", unit=MetricUnit.Count, value=1)
        logger.info("fair-play check passed", player_id=player_id)
        _tell(ctx, session, player_id, after, check_id, passed=True)
    for player_id, check_id in effects.fairplay_cards:
        before, after = store.update(
            player_id, partial(FairplayRecord.carded_for, check_id=check_id)
        )
        if after.cards == before.cards:
            continue  # this check's card was given already
        metrics.add_metric(name="YellowCardGiven", unit=MetricUnit.Count, value=1)
        logger.info("yellow card", player_id=player_id, cards=after.cards)
        _tell(ctx, session, player_id, after, check_id, passed=False)
        if after.banned and not before.banned:
            _ban(ctx, player_id)
    if effects.ended:
        _record_game(ctx, store, session, now)


def _ban(ctx: GameContext, player_id: str) -> None:
    ban = None if ctx.social is None else ctx.social.ban
    if ban is None:
        logger.error("no ban wired: the third yellow card is on the record only")
        return
    ban(player_id, BAN_REASON)
    metrics.add_metric(name="FairplayBanned", unit=MetricUnit.Count, value=1)
    logger.warning("banned for fair play", player_id=player_id)


def _tell(
    ctx: GameContext,
    session: GameSession,
    player_id: str,
    record: FairplayRecord,
    check_id: str,
    *,
    passed: bool,
) -> None:
    seat = session.seats[session.player_ids.index(player_id)]
    if seat.connection_id is None:
        return
    language = _language(ctx, player_id)
    if passed:
        message: Text | Plural = Text("Thank you: check passed. Enjoy the game.")
    elif record.banned:
        message = Text("Third yellow card: the account is banned.")
    else:
        message = Plural(
            "Yellow card: the check was not answered right in time. You have {count} yellow "
            "card; three ban the account.",
            "Yellow card: the check was not answered right in time. You have {count} yellow "
            "cards; three ban the account.",
            record.cards,
        )
    frame = FairplayResultFrame(
        game_id=session.game_id,
        check_id=check_id,
        passed=passed,
        cards=record.cards,
        cards_to_ban=CARDS_TO_BAN,
        banned=record.banned,
        message=sentence(message, language),
    )
    ctx.delivery.deliver(seat.connection_id, frame)


def _language(ctx: GameContext, player_id: str) -> str:
    profile = None if ctx.social is None else ctx.social.profiles.get(player_id)
    return profile.preferences.language if profile is not None else DEFAULT_LANGUAGE


def _record_game(
    ctx: GameContext, store: FairplayStore, session: GameSession, now: datetime
) -> None:
    """Each person's decisions and (on a family grid) agreement with the optimal player join
    their record, which is judged for their next game."""
    decisions = fairplay.decisions_of(session)
    agreement = _agreement(ctx, session)
    for seat in session.seats:
        player_id = seat.player_id
        if seat.bot is not None or (player_id not in decisions and player_id not in agreement):
            continue
        made = decisions.get(player_id, [])
        game = agreement.get(player_id)

        _, after = store.update(player_id, partial(_add_game, made=made, game=game, now=now))
        if after.suspect is not None:
            metrics.add_metric(name="FairplaySignal", unit=MetricUnit.Count, value=1)
            logger.info("fair-play signal", player_id=player_id, signal=after.suspect)


def _add_game(
    record: FairplayRecord, *, made: list[int], game: GameAgreement | None, now: datetime
) -> FairplayRecord:
    record = record.with_decisions(made)
    if game is not None:
        record = record.with_game(game)
    return record.judged(now)


def _agreement(ctx: GameContext, session: GameSession) -> dict[str, GameAgreement]:
    """Each person's choices and those the optimal player would make, on a family grid."""
    settings = session.settings
    if (
        session.fair is None
        or settings.pairs
        or settings.grid not in regret.FAMILY_GRIDS
        or session.status != "finished"
    ):
        return {}
    archived = (
        ctx.games.archived_record(session.game_id).turns if session.fair.archived_chunks else []
    )
    lines = [*archived, *session.fair.turns]
    matches = regret.turn_matches(settings, session.player_ids, lines)
    if matches is None:
        return {}
    counted: dict[str, list[int]] = {}
    for line, match in zip(lines, matches, strict=True):
        if match is None:
            continue
        player_id = session.player_ids[fair_dice.parse_turn(line).seat]
        total = counted.setdefault(player_id, [0, 0])
        total[0] += match[0]
        total[1] += match[1]
    return {
        player_id: GameAgreement(game_id=session.game_id, matched=matched, moves=moves)
        for player_id, (matched, moves) in counted.items()
        if session.seats[session.player_ids.index(player_id)].bot is None
    }
