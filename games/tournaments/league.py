"""The leagues' service (issue 36, docs/tournaments.md "League"): create, join, leave, and the season cycle the beat
task drives (:func:`tick`).

A league (:class:`~games.tournaments.models.League`) plays seasons (:class:`LeagueSeason`); each season's division
(:class:`LeagueDivision`) is a round-robin :class:`Tournament` created and started through the tournaments' service,
so its games, standings, crosstable, forfeits, timeouts and adjudication are the tournaments'. At a season's end
(every division tournament over, or ``ends_at`` passed: the games still running are adjudicated by the tournaments'
rule) promotion and relegation come from the pure :func:`games.tournaments.core.league.next_season`; the members who
left, were out (withdrew from their division or lost two games on time) or closed their account are dropped, the
newcomers enter at the bottom, and the next season starts at once.

Every step takes the league's row lock (``SELECT ... FOR UPDATE``) and re-reads what it changes, so two beats (or a
beat and a player) never close a season twice or start two seasons. Lock order: the league, then a tournament (the
tournaments' service), then its games; nothing holding a tournament's lock asks for a league's.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.relations import blocked_among
from games.ratings.service import pool_for
from games.rules.base import RulesError
from games.rules.registry import get_rules
from games.service import Blocked, InvalidRequest, ServiceError
from games.service.clock import parse_time_control

from . import service
from .core.league import divide, next_season
from .models import Entry, League, LeagueDivision, LeagueMember, LeagueSeason, Tournament, TournamentGame

log = logging.getLogger("games.tournaments.league")

Status = League.Status

#: Leagues one player may have not closed at once (operators: no limit).
MAX_NOT_CLOSED = 2
MIN_DIVISION, MAX_DIVISION, DEFAULT_DIVISION = 4, 12, 10
MIN_SEASON_DAYS, MAX_SEASON_DAYS, DEFAULT_SEASON_DAYS = 7, 90, 28
DEFAULT_MOVERS = 2
MAX_MEMBERS, DEFAULT_MEMBERS = 1000, 200
#: How far ahead the first season's start may be.
MAX_START_AHEAD = timedelta(days=90)
#: Leagues looked at per run of the beat task; games adjudicated per league and run.
BEAT_LEAGUES, BEAT_GAMES = 50, 1000
RUNNING = [Tournament.Status.OPEN, Tournament.Status.RUNNING]


class LeagueNotFound(ServiceError):
    status = 404
    code = "not_found"

    def __init__(self, message: str = "No such league.", **kw: Any) -> None:
        super().__init__(message, **kw)


# ----------------------------------------------------------------------------------------------- helpers

def _lock(league_id: int) -> League:
    found = League.objects.select_for_update().filter(pk=league_id).first()
    if found is None:
        raise LeagueNotFound()
    return found


def get(league_id: int) -> League:
    found = League.objects.select_related("created_by").filter(pk=league_id).first()
    if found is None:
        raise LeagueNotFound()
    return found


def min_size(lg: League) -> int:
    """The fewest players of the lowest division (fewer join the division above): half a division, rounded up."""
    return (lg.division_size + 1) // 2


def rating_pool(lg: League) -> str:
    return pool_for(lg.kind, 2)


def current_season(lg: League) -> LeagueSeason | None:
    """The season running (not finished), if any."""
    return LeagueSeason.objects.filter(league=lg, finished_at__isnull=True).order_by("-number").first()


# ----------------------------------------------------------------------------------------------- create

def terms(*, name: str, kind: str, time_control: Mapping[str, Any] | None, starts_at: datetime | None,
          options: Mapping[str, Any] | None = None, rated: bool = True, division_size: int = DEFAULT_DIVISION,
          season_days: int = DEFAULT_SEASON_DAYS, movers: int = DEFAULT_MOVERS, max_members: int = DEFAULT_MEMBERS,
          rating_min: int | None = None, rating_max: int | None = None, min_reliability: int = 0,
          bots_allowed: bool = False) -> dict[str, Any]:
    """A league's terms checked (400 naming the field), as the model's fields (the API and the admin's form)."""
    name = (name or "").strip()
    if not name:
        raise InvalidRequest(gettext("Give the league a name."), field="name")
    if len(name) > 60:
        raise InvalidRequest(gettext("A league's name has at most 60 characters."), field="name")
    service.seat_sizes(Tournament.Format.ROUND_ROBIN, kind)  # 400 unless a 2-player kind
    try:
        get_rules(kind).normalize_options(dict(options or {}), 2)
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="options", code="invalid_options") from None
    if time_control is None:
        raise InvalidRequest(gettext('A league needs a time control, e.g. {"type": "days", "days_per_move": 3}.'),
                             field="time_control")
    control = parse_time_control(time_control)
    if not control.timed:
        raise InvalidRequest(gettext("League games need a time control: days per move or a bank clock, not "
                                     "unlimited."), field="time_control")
    for field, value, low, high in (("division_size", division_size, MIN_DIVISION, MAX_DIVISION),
                                    ("season_days", season_days, MIN_SEASON_DAYS, MAX_SEASON_DAYS),
                                    ("max_members", max_members, division_size, MAX_MEMBERS)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRequest(gettext("{field} must be between {low} and {high}.").format(
                field=field, low=low, high=high), field=field)
    most = division_size // 2
    if isinstance(movers, bool) or not isinstance(movers, int) or not 1 <= movers <= most:
        raise InvalidRequest(gettext("movers (promoted and relegated per division) must be between 1 and {most} "
                                     "for divisions of {size}.").format(most=most, size=division_size),
                             field="movers")
    for field, bound in (("rating_min", rating_min), ("rating_max", rating_max)):
        if bound is not None and not 0 <= bound <= service.MAX_RATING:
            raise InvalidRequest(gettext("{field} must be between {low} and {high}.").format(
                field=field, low=0, high=service.MAX_RATING), field=field)
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidRequest(gettext("rating_min ({low}) cannot be above rating_max ({high}).").format(
            low=rating_min, high=rating_max), field="rating_min")
    service.check_reliability_term(min_reliability)
    now = timezone.now()
    if starts_at is None or not now < starts_at <= now + MAX_START_AHEAD:
        raise InvalidRequest(gettext("starts_at (the first season's start) must be in the future, at most {days} "
                                     "days ahead.").format(days=MAX_START_AHEAD.days), field="starts_at")
    if control.control == "days" and (control.days_per_move or 0) * 2 > season_days:
        raise InvalidRequest(gettext("With {days} days per move a game needs more than {most} days: lengthen "
                                     "season_days or shorten the time control.").format(
            days=control.days_per_move, most=season_days), field="season_days")
    return {"name": name, "kind": kind, "options": dict(options or {}), "control": control.control,
            "days_per_move": control.days_per_move, "initial_seconds": control.initial_seconds,
            "increment_seconds": control.increment_seconds, "cap_seconds": control.cap_seconds, "rated": bool(rated),
            "division_size": division_size, "season_days": season_days, "movers": movers,
            "max_members": max_members, "rating_min": rating_min, "rating_max": rating_max,
            "min_reliability": min_reliability, "bots_allowed": bool(bots_allowed), "starts_at": starts_at}


def create(user: Any, **kw: Any) -> League:
    """A new league by ``user`` (who does not join it by creating it). 400 for terms that cannot be played (each
    names its field); 409 ``too_many_leagues`` past :data:`MAX_NOT_CLOSED` not closed (operators: no limit)."""
    fields = terms(**kw)
    with transaction.atomic():
        User = get_user_model()
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()  # one creation at a time
        if not user.is_staff:
            count = League.objects.filter(created_by=user).exclude(status=Status.CLOSED).count()
            if count >= MAX_NOT_CLOSED:
                raise service.TournamentConflict(gettext("You have {count} leagues not closed, the most "
                                                         "allowed.").format(count=count), code="too_many_leagues")
        return League.objects.create(created_by=user, created_at=timezone.now(), **fields)


# ----------------------------------------------------------------------------------------------- members

def join(user: Any, league_id: int) -> League:
    """Become a member: you enter the lowest division at the next season's start. 409 ``not_open`` (closed or
    closing), ``already_member``, ``full``; 403 ``bots_not_allowed``, ``rating_out_of_range``,
    ``reliability_too_low``, ``blocked`` (a block between you and a member, either way: it names nobody)."""
    with transaction.atomic():
        lg = _lock(league_id)
        if lg.status == Status.CLOSED or lg.closing:
            raise service.TournamentConflict(gettext("This league is closed: it takes no new members."),
                                             code="not_open")
        mine = LeagueMember.objects.filter(league=lg, user=user).first()
        if mine is not None:
            if mine.left_at is not None:
                raise service.TournamentConflict(gettext("You left this league: you can join again once the "
                                                         "season ends."), code="already_member")
            raise service.TournamentConflict(gettext("You are already a member of this league."),
                                             code="already_member")
        if getattr(user, "is_bot", False) and not lg.bots_allowed:
            raise service.EntryRefused(gettext("This league takes no bots."), code="bots_not_allowed")
        if lg.rating_min is not None or lg.rating_max is not None:
            pool = rating_pool(lg)
            rating = service.ratings(pool, [user.pk])[user.pk]
            if ((lg.rating_min is not None and rating < lg.rating_min)
                    or (lg.rating_max is not None and rating > lg.rating_max)):
                message = gettext("Your rating in {pool} is {rating}; this league takes players rated {span}.")
                raise service.EntryRefused(message.format(pool=pool, rating=rating,
                                                          span=service._span(lg.rating_min, lg.rating_max)),
                                           code="rating_out_of_range")
        service.refuse_unreliable(user, lg.min_reliability, league=True)
        if lg.member_count >= lg.max_members:
            raise service.TournamentConflict(gettext("This league is full ({count} members).").format(
                count=lg.max_members), code="full")
        others = list(LeagueMember.objects.filter(league=lg).values_list("user_id", flat=True))
        if blocked_among(user.pk, others):
            raise Blocked(gettext("You cannot join this league: a block stands between you and one of its "
                                  "members."))
        LeagueMember.objects.create(league=lg, user=user)
        lg.member_count += 1
        lg.save(update_fields=["member_count"])
    return lg


def leave(user: Any, league_id: int) -> League:
    """Leave a league. Not playing this season (waiting for the next): the membership is gone at once. Playing: you
    withdraw from your division (the tournaments' rule: your running games are resigned, the unplayed ones forfeited)
    and are dropped at the season's end. 409 ``not_member``; leaving twice changes nothing."""
    with transaction.atomic():
        lg = _lock(league_id)
        mine = LeagueMember.objects.filter(league=lg, user=user).first()
        if mine is None:
            raise service.TournamentConflict(gettext("You are not a member of this league."), code="not_member")
        if mine.left_at is not None:
            return lg
        division = mine.division
        season = current_season(lg) if division is not None else None
        if season is None or division is None:
            mine.delete()
            lg.member_count -= 1
            lg.save(update_fields=["member_count"])
            return lg
        mine.left_at = timezone.now()
        mine.save(update_fields=["left_at"])
        tid = (LeagueDivision.objects.filter(season=season, number=division)
               .values_list("tournament_id", flat=True).first())
        if tid is not None:
            _withdraw(user, tid)
    return lg


def _withdraw(user: Any, tournament_id: int) -> None:
    """Withdraw from a division's tournament if it runs and the user is still in it (the tournaments' service)."""
    if Entry.objects.filter(tournament_id=tournament_id, user=user, withdrawn_at__isnull=True,
                            tournament__status=Tournament.Status.RUNNING).exists():
        with contextlib.suppress(ServiceError):
            service.leave(user, tournament_id)


# ----------------------------------------------------------------------------------------------- seasons

def _start_season(lg: League, now: datetime) -> LeagueSeason | None:
    """Cut the ladder into divisions and open the next season (caller holds the league's lock; no season runs). The
    ladder: the placed members by position, then the newcomers by rating, then entry. Closed accounts are dropped.
    Fewer than 2 players: no season (the league waits for members, or closes if it is closing)."""
    members = list(LeagueMember.objects.filter(league=lg).select_related("user"))
    gone = [m for m in members if not m.user.is_active or m.left_at is not None]
    if gone:
        LeagueMember.objects.filter(pk__in=[m.pk for m in gone]).delete()
        members = [m for m in members if m not in gone]
        lg.member_count = len(members)
    if len(members) < 2:
        lg.status = Status.OPEN
        lg.save(update_fields=["status", "member_count"])
        return None
    rating = service.ratings(rating_pool(lg), [m.user_id for m in members])
    placed = sorted((m for m in members if m.position is not None), key=lambda m: (m.position, m.pk))
    fresh = sorted((m for m in members if m.position is None), key=lambda m: (-rating[m.user_id], m.joined_at, m.pk))
    ladder = placed + fresh
    divisions = divide([m.user_id for m in ladder], lg.division_size, min_size(lg))
    number = lg.current_season + 1
    season = LeagueSeason.objects.create(league=lg, number=number, starts_at=now,
                                         ends_at=now + lg.season_days * service.clock_day())
    LeagueDivision.objects.bulk_create([LeagueDivision(season=season, number=d, players=players)
                                        for d, players in enumerate(divisions)])
    where = {uid: d for d, players in enumerate(divisions) for uid in players}
    for i, m in enumerate(ladder):
        m.position, m.division = i, where[m.user_id]
    LeagueMember.objects.bulk_update(ladder, ["position", "division"])
    lg.status, lg.current_season = Status.RUNNING, number
    lg.save(update_fields=["status", "current_season", "member_count"])
    log.info("league %s: season %s started, %d players in %d divisions", lg.pk, number, len(ladder), len(divisions))
    return season


def _finishing_order(div: LeagueDivision) -> list[int]:
    """A division's players in their finishing order: its tournament's standings (the players it dropped at the
    start, closed accounts, last, in ladder order)."""
    t = div.tournament
    order = [row["user_id"] for row in (t.standings if t is not None else []) if row["user_id"] in div.players]
    return order + [p for p in div.players if p not in order]


def _close_season(lg: League, season: LeagueSeason, now: datetime) -> None:
    """Promotion and relegation (caller holds the league's lock; every division's tournament is over): the next
    ladder from :func:`next_season`, the moves recorded on the season, the leavers dropped."""
    divisions = list(LeagueDivision.objects.filter(season=season).select_related("tournament").order_by("number"))
    finished = [_finishing_order(d) for d in divisions]
    out = set(Entry.objects.filter(tournament_id__in=[d.tournament_id for d in divisions if d.tournament_id],
                                   withdrawn_at__isnull=False).values_list("user_id", flat=True))
    members = {m.user_id: m for m in LeagueMember.objects.filter(league=lg).select_related("user")}
    leaving = out | {uid for uid, m in members.items() if m.left_at is not None or not m.user.is_active}
    leaving |= {p for d in finished for p in d if p not in members}
    fresh = [m for m in members.values() if m.division is None and m.position is None and m.user_id not in leaving]
    rating = service.ratings(rating_pool(lg), [m.user_id for m in fresh])
    fresh.sort(key=lambda m: (-rating[m.user_id], m.joined_at, m.pk))
    waiting = sorted((m for m in members.values() if m.division is None and m.position is not None
                      and m.user_id not in leaving), key=lambda m: (m.position, m.pk))  # none in practice
    nxt = next_season(finished, lg.division_size, lg.movers, leaving,
                      [m.user_id for m in waiting + fresh], min_size(lg))
    to = {uid: d for d, players in enumerate(nxt) for uid in players}
    moves = [{"user_id": uid, "division": d, "rank": r, "to": to.get(uid)}
             for d, order in enumerate(finished) for r, uid in enumerate(order, start=1)]
    moves += [{"user_id": m.user_id, "division": None, "rank": None, "to": to.get(m.user_id)} for m in waiting + fresh]
    season.moves, season.finished_at = moves, now
    season.save(update_fields=["moves", "finished_at"])
    dropped = [m.pk for uid, m in members.items() if uid in leaving]
    LeagueMember.objects.filter(pk__in=dropped).delete()
    position = {uid: i for i, uid in enumerate(p for d in nxt for p in d)}
    kept = [m for uid, m in members.items() if uid not in leaving]
    for m in kept:
        m.position, m.division = position.get(m.user_id), None
    LeagueMember.objects.bulk_update(kept, ["position", "division"])
    lg.member_count = len(kept)
    lg.save(update_fields=["member_count"])
    log.info("league %s: season %s closed, %d dropped", lg.pk, season.number, len(dropped))


def _open_division(league_id: int, division_id: int) -> bool:
    """Create and start a division's round-robin tournament, in one transaction under the league's lock (nobody
    ever sees it open for entries). True if this call created it."""
    with transaction.atomic():
        lg = _lock(league_id)
        div = LeagueDivision.objects.select_related("season").get(pk=division_id)
        if div.tournament_id is not None:
            return False
        season = div.season
        now = timezone.now()
        days = max(1, math.ceil((season.ends_at - now) / service.clock_day()))
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in=div.players)}
        t = Tournament.objects.create(
            name=f"{lg.name} · season {season.number} · division {div.number + 1}"[:80], kind=lg.kind,
            options=lg.options, format=Tournament.Format.ROUND_ROBIN, control=lg.control,
            days_per_move=lg.days_per_move, initial_seconds=lg.initial_seconds, increment_seconds=lg.increment_seconds,
            cap_seconds=lg.cap_seconds, rated=lg.rated, max_players=len(div.players), min_players=2,
            bots_allowed=lg.bots_allowed, max_game_days=days, created_by_id=lg.created_by_id, created_at=now,
            player_count=len(div.players))
        Entry.objects.bulk_create([Entry(tournament=t, user=users[uid], joined_at=season.starts_at)
                                   for uid in div.players if uid in users])
        div.tournament = t
        div.save(update_fields=["tournament"])
        service.start(t.pk)
        for m in LeagueMember.objects.filter(league=lg, user_id__in=div.players, left_at__isnull=False):
            _withdraw(users[m.user_id], t.pk)  # left between the season's rows and this tournament
    return True


def advance(league_id: int, now: datetime | None = None) -> int:
    """Drive one league (the beat): open the running season's missing division tournaments; past the season's end,
    adjudicate its games still running; once every division is over, apply promotion and relegation and start the
    next season (or the first, at ``starts_at``). Idempotent; returns the seasons closed or started."""
    now = now or timezone.now()
    changed = 0
    for _ in range(2):  # a season closed, the next started: its divisions opened in the same run
        season = LeagueSeason.objects.filter(league_id=league_id, finished_at__isnull=True).first()
        if season is not None:
            for div_id in LeagueDivision.objects.filter(season=season, tournament__isnull=True).values_list(
                    "pk", flat=True):
                _open_division(league_id, div_id)
            if season.ends_at <= now:
                _adjudicate_season(season, now)
        with transaction.atomic():
            lg = _lock(league_id)
            season = current_season(lg)
            if season is not None:
                open_divisions = LeagueDivision.objects.filter(season=season).filter(
                    Q(tournament__isnull=True) | Q(tournament__status__in=RUNNING))
                if open_divisions.exists():
                    return changed
                _close_season(lg, season, now)
                changed += 1
            if lg.status == Status.CLOSED:
                return changed
            if lg.closing:  # an operator closed it: no next season
                lg.status = Status.CLOSED
                lg.save(update_fields=["status"])
                return changed + 1
            if lg.starts_at > now:
                return changed
            if _start_season(lg, now) is None:
                return changed
            changed += 1
    return changed


def _adjudicate_season(season: LeagueSeason, now: datetime) -> None:
    """The season is over: its division games still running are adjudicated (the tournaments' rule: the clocks)."""
    for game_id in (TournamentGame.objects.filter(tournament__league_division__season=season, finished=False)
                    .order_by("pk").values_list("game_id", flat=True)[:BEAT_GAMES]):
        try:
            service.adjudicate_game(game_id, now)
        except Exception:
            log.exception("adjudicating game %s failed", game_id)


def tick(now: datetime | None = None) -> int:
    """The beat (``tournaments.tick``): every league with something due. Due: a running season past its end, or
    whose divisions are all over, or with a division not opened yet; a league waiting for its first (or next) season
    whose start time passed and that has two members or more. Returns the seasons closed or started."""
    now = now or timezone.now()
    unfinished = LeagueDivision.objects.filter(season=OuterRef("pk")).filter(
        Q(tournament__isnull=True) | Q(tournament__status__in=RUNNING))
    missing = LeagueDivision.objects.filter(season=OuterRef("pk"), tournament__isnull=True)
    due = list(LeagueSeason.objects.filter(finished_at__isnull=True)
               .filter(Q(ends_at__lte=now) | ~Exists(unfinished) | Exists(missing))
               .order_by("ends_at").values_list("league_id", flat=True)[:BEAT_LEAGUES])
    due += list(League.objects.filter(status=Status.OPEN, starts_at__lte=now, member_count__gte=2)
                .order_by("starts_at").values_list("pk", flat=True)[:BEAT_LEAGUES])
    due += list(League.objects.filter(status=Status.OPEN, closing=True).values_list("pk", flat=True)[:BEAT_LEAGUES])
    done = 0
    for pk in dict.fromkeys(due):
        try:
            done += advance(pk, now)
        except Exception:
            log.exception("advancing league %s failed", pk)
    return done
