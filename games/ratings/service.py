"""Rating games, reading ratings, leaderboards.

Rulings (see docs/correspondence.md):

* Pools: the game kind for 2 seats (``claim``, ``claim2``, ``claim-mix``, ``inheritors``), ``<kind>-3p`` /
  ``<kind>-4p`` for more seats. 2-seat pools use Glicko-2, the others OpenSkill (Plackett-Luce).
* Each rated game is its own rating period; before it, the deviation grows for every full idle period
  (``RATING_IDLE_PERIOD_DAYS``, default 7) since the player's last rated game. Read-outs (API, payloads,
  leaderboards) show the deviation grown to *now* the same way.
* Provisional while the (grown) deviation is above ``RATING_PROVISIONAL_RD`` (110 on the display scale).
* Only finished games that are ``rated`` and have a time control are rated (unlimited games never are).
  A player who was replaced by the AI after a timeout ranks last; the replacing AI is not rated.
* AI levels have ratings: anchored at 1000/1400/1800 (Squire/Knight/King). They move after every
  finished unrated game between humans and AI (the humans' ratings are left alone: AI games are never
  rated for people).
* Exactly once: a :class:`RatedGame` row per game (unique); a second call finds it and does nothing.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from games.ai import LEVELS, level_name
from games.models import Game, GameClock, Seat, SeatDeparture
from games.rules.registry import GAMES

from . import glicko2, openskill_rating
from .models import RatedGame, Rating, RatingHistory

log = logging.getLogger("games.ratings")

AI_ANCHORS = {1: 1000.0, 2: 1400.0, 3: 1800.0}
AI_ANCHOR_RD = 150.0


def idle_period_days() -> float:
    return float(getattr(settings, "RATING_IDLE_PERIOD_DAYS", 7))


def provisional_rd() -> float:
    return float(getattr(settings, "RATING_PROVISIONAL_RD", 110))


def active_days() -> int:
    return int(getattr(settings, "LEADERBOARD_ACTIVE_DAYS", 90))


def pool_for(kind: str, seat_count: int) -> str:
    return kind if seat_count <= 2 else f"{kind}-{seat_count}p"


def system_for(pool: str) -> str:
    return Rating.System.OPENSKILL if pool.endswith(("-3p", "-4p")) else Rating.System.GLICKO2


def _defaults(pool: str, ai_level: int | None = None) -> dict[str, Any]:
    system = system_for(pool)
    if ai_level is not None:
        r, rd = AI_ANCHORS.get(ai_level, 1500.0), AI_ANCHOR_RD
        if system == Rating.System.OPENSKILL:
            mu, sigma = r / openskill_rating.DISPLAY_FACTOR, rd / openskill_rating.DISPLAY_FACTOR
            return {"system": system, "rating": r, "deviation": rd, "mu": mu, "sigma": sigma}
        return {"system": system, "rating": r, "deviation": rd, "volatility": glicko2.DEFAULT_VOLATILITY}
    if system == Rating.System.OPENSKILL:
        mu, sigma = openskill_rating.DEFAULT_MU, openskill_rating.DEFAULT_SIGMA
        r, rd = openskill_rating.display(mu, sigma)
        return {"system": system, "rating": r, "deviation": rd, "mu": mu, "sigma": sigma}
    return {"system": system, "rating": glicko2.DEFAULT_RATING, "deviation": glicko2.DEFAULT_RD,
            "volatility": glicko2.DEFAULT_VOLATILITY}


def _idle_periods(row: Rating, now: datetime) -> int:
    if row.last_game_at is None:
        return 0
    return int((now - row.last_game_at) / timedelta(days=idle_period_days()))


def current_deviation(row: Rating, now: datetime | None = None) -> float:
    """The deviation grown for the idle periods since the last rated game (display scale)."""
    now = now or timezone.now()
    periods = _idle_periods(row, now)
    if row.system == Rating.System.OPENSKILL:
        sigma = openskill_rating.inflate(row.sigma or openskill_rating.DEFAULT_SIGMA, periods)
        return sigma * openskill_rating.DISPLAY_FACTOR
    return glicko2.inflate(glicko2.Glicko(row.rating, row.deviation, row.volatility), periods).rd


def rating_payload(row: Rating | None, pool: str, now: datetime | None = None) -> dict[str, Any]:
    if row is None:
        d = _defaults(pool)
        return {"pool": pool, "system": d["system"], "rating": round(d["rating"]), "deviation": round(d["deviation"]),
                "provisional": True, "games": 0, "wins": 0, "losses": 0, "draws": 0, "last_game_at": None}
    dev = current_deviation(row, now)
    return {
        "pool": pool,
        "system": row.system,
        "rating": round(row.rating),
        "deviation": round(dev),
        "provisional": dev > provisional_rd(),
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
        "last_game_at": row.last_game_at.isoformat().replace("+00:00", "Z") if row.last_game_at else None,
    }


def ai_rating(level: int, pool: str) -> Rating:
    row, _ = Rating.objects.get_or_create(ai_level=level, pool=pool, defaults=_defaults(pool, level))
    return row


def rating_for(who: Any, kind: str, seat_count: int) -> dict[str, Any]:
    """The rating a game payload shows for a seat: ``who`` is a user or an AI level (int).

    Returns ``{"pool", "system", "rating", "deviation", "provisional", ...}``; a user without games in
    the pool gets the pool's starting values with ``provisional: true``.
    """
    pool = pool_for(kind, seat_count)
    if isinstance(who, int) and not isinstance(who, bool):
        return rating_payload(ai_rating(who, pool), pool)
    row = Rating.objects.filter(user=who, pool=pool).first() if who is not None else None
    return rating_payload(row, pool)


def ratings_for_seats(kind: str, seat_count: int, seats: Any) -> list[dict[str, Any] | None]:
    """The rating of every seat (users and AI levels) in one query; ``None`` for an open seat.

    Used to snapshot ratings on the seats when a game starts, so game payloads show them without a
    query on every move (like a chess site showing the ratings at the start of the game).
    """
    pool = pool_for(kind, seat_count)
    seats = list(seats)
    user_ids = {s.user_id for s in seats if s.user_id is not None and s.ai_level is None}
    levels = {s.ai_level for s in seats if s.ai_level is not None}
    rows = Rating.objects.filter(pool=pool).filter(Q(user_id__in=user_ids) | Q(ai_level__in=levels))
    by_user = {r.user_id: r for r in rows if r.user_id is not None}
    by_level = {r.ai_level: r for r in rows if r.ai_level is not None}
    out: list[dict[str, Any] | None] = []
    for s in seats:
        if s.ai_level is not None:
            row = by_level.get(s.ai_level) or Rating(ai_level=s.ai_level, pool=pool, **_defaults(pool, s.ai_level))
            out.append(rating_payload(row, pool))
        elif s.user_id is not None:
            out.append(rating_payload(by_user.get(s.user_id), pool))
        else:
            out.append(None)
    return out


def ratings_of_user(user: Any) -> list[dict[str, Any]]:
    now = timezone.now()
    return [rating_payload(r, r.pool, now) for r in Rating.objects.filter(user=user).order_by("pool")]


def history_of_user(user: Any, limit: int = 100) -> list[dict[str, Any]]:
    rows = RatingHistory.objects.filter(rating__user=user).select_related("rating").order_by("-created_at", "-pk")
    return [
        {"pool": h.rating.pool, "game_id": h.game_id, "before": round(h.before), "after": round(h.after),
         "deviation": round(h.deviation), "at": h.created_at.isoformat().replace("+00:00", "Z")}
        for h in rows[:limit]
    ]


def pools() -> list[dict[str, Any]]:
    """Every rating pool the registered games can produce (kind x seat count), with its rated players.

    ``players``: active people with a rating in the pool (provisional or not, any activity); the
    leaderboard shows the established, recently active subset.
    """
    rows = Rating.objects.filter(user__isnull=False, user__is_active=True).values("pool").annotate(n=Count("id"))
    counts = {r["pool"]: r["n"] for r in rows}
    out = []
    for kind, rules in GAMES.items():
        info = rules.info
        for seats in range(info.min_seats, info.max_seats + 1):
            pool = pool_for(kind, seats)
            out.append({"pool": pool, "kind": kind, "seats": seats,
                        "name": info.title if seats == 2 else f"{info.title}, {seats} players",
                        "system": system_for(pool), "players": counts.get(pool, 0)})
    return out


def leaderboard(pool: str, limit: int = 100) -> dict[str, Any]:
    """Active players only: a rated game in the last ``LEADERBOARD_ACTIVE_DAYS`` days and not provisional."""
    now = timezone.now()
    since = now - timedelta(days=active_days())
    rows = (Rating.objects.filter(pool=pool, user__isnull=False, user__is_active=True, last_game_at__gte=since)
            .select_related("user").order_by("-rating", "pk"))
    players: list[dict[str, Any]] = []
    # Read in pages from the top (a range of the rating_leaderboard index each), never the whole pool: iterating
    # the queryset fetched every active player of the pool (issue 38: 49,000 rows, ≈ 0.3 s of SQL alone at 50,000
    # players) to show the first ``limit``.
    page, start = 2 * limit, 0
    while len(players) < limit:
        chunk = list(rows[start:start + page])
        for row in chunk:
            dev = current_deviation(row, now)
            if dev > provisional_rd():
                continue
            user = row.user
            assert user is not None  # user__isnull=False above
            players.append({"rank": len(players) + 1, "username": user.username, "name": user.public_name,
                            "is_bot": user.is_bot, "rating": round(row.rating), "deviation": round(dev),
                            "games": row.games})
            if len(players) >= limit:
                break
        if len(chunk) < page:
            break
        start += page
    ai = [{"level": lvl, "name": level_name(lvl), **rating_payload(ai_rating(lvl, pool), pool, now)}
          for lvl in sorted(LEVELS)]
    return {"pool": pool, "system": system_for(pool), "players": players, "ai": ai}


# ----------------------------------------------------------------------------------------- rating a game

def time_controlled(game: Any) -> bool:
    """Unlimited games are never rated: a game needs days per move or a bank clock."""
    if game.days_per_move:
        return True
    return GameClock.objects.filter(game=game, control=GameClock.Control.BANK).exists()


def _departed(game: Any) -> dict[int, Any]:
    return {d.seat: d.user for d in SeatDeparture.objects.filter(game=game).select_related("user")}


def _score(outcome: str) -> float:
    return {"win": 1.0, "draw": 0.5}.get(outcome, 0.0)


def rate_game(game_id: int) -> bool:
    """Rate a finished game once. Returns True if ratings changed now, False if there was nothing to do."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return False
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    departed = _departed(game)
    worst = max([s.rank or 1 for s in seats] + [1]) + 1
    # (seat index, user or None, ai level or None, rank, outcome)
    entries: list[tuple[int, Any, int | None, int, str]] = []
    for s in seats:
        if s.index in departed:
            entries.append((s.index, departed[s.index], None, worst, "loss"))
        elif s.user_id is not None:
            entries.append((s.index, s.user, None, s.rank or 1, s.outcome))
        elif s.ai_level is not None:
            entries.append((s.index, None, s.ai_level, s.rank or 1, s.outcome))
    humans = [e for e in entries if e[1] is not None]
    ais = [e for e in entries if e[2] is not None]
    if game.rated and time_controlled(game):
        humans_rated = True
        rated = humans  # replacing AIs are not rated in a rated game
        if len(rated) < 2:
            return False
    elif not game.rated and humans and ais and not departed:
        humans_rated = False
        rated = entries
    else:
        return False
    pool = pool_for(game.kind, game.seat_count)
    now = timezone.now()
    with transaction.atomic():
        try:
            with transaction.atomic():
                RatedGame.objects.create(game=game, pool=pool, rated_at=now, humans_rated=humans_rated)
        except IntegrityError:
            return False
        rows: dict[int, Rating] = {}
        for idx, user, level, _, _ in rated:
            if user is not None and humans_rated:
                row, _ = Rating.objects.get_or_create(user=user, pool=pool, defaults=_defaults(pool))
            elif user is not None:  # read only: an AI game never creates or moves a person's rating
                row = Rating.objects.filter(user=user, pool=pool).first() or Rating(user=user, pool=pool,
                                                                                     **_defaults(pool))
            else:
                assert level is not None  # an entry without a user is an AI seat's (entries above)
                row = ai_rating(level, pool)
            rows[idx] = row
        saved = [r.pk for r in rows.values() if r.pk is not None]
        locked = {r.pk: r for r in Rating.objects.select_for_update().filter(pk__in=saved).order_by("pk")}
        rows = {idx: locked.get(r.pk, r) for idx, r in rows.items()}
        if system_for(pool) == Rating.System.GLICKO2 and len(rated) == 2:
            updates = _glicko_updates(rated, rows, now)
        else:
            updates = _openskill_updates(game, rated, rows, now)
        # One AI level in several seats is one rating that played itself: it takes part in the update
        # of the others (its strength counts) but is not written (rulings: ratings).
        seats_per_row = Counter(r.pk for r in rows.values() if r.pk is not None)
        seat_at = {s.index: s for s in seats}
        changed_seats: list[Seat] = []
        for idx, user, _level, _, outcome in rated:
            if not humans_rated and user is not None:
                continue  # AI games never move a person's rating
            row = rows[idx]
            if seats_per_row[row.pk] > 1:
                continue
            before = row.rating
            for field, value in updates[idx].items():
                setattr(row, field, value)
            row.games += 1
            if outcome == "win":
                row.wins += 1
            elif outcome == "draw":
                row.draws += 1
            else:
                row.losses += 1
            row.last_game_at = now
            row.updated_at = now
            row.save()
            RatingHistory.objects.create(rating=row, game=game, before=before, after=row.rating,
                                         deviation=row.deviation, created_at=now)
            # The seat shows the change beside its snapshot (none before the snapshots existed); a departed
            # player's seat is the AI's now: their change is not its.
            if idx not in departed and seat_at[idx].rating is not None:
                changed_seats.append(_with_change(seat_at[idx], before, row.rating))
        Seat.objects.bulk_update(changed_seats, ["rating"])
    log.info("game %s rated in pool %s", game_id, pool)
    return True


def _with_change(seat: Seat, before: float, after: float) -> Seat:
    """The seat's rating snapshot gains what this game did to it: ``after`` (the rating once the game was
    rated) and ``change`` (``after`` minus the rating just before, both rounded as shown: "+12 → 1512")."""
    assert seat.rating is not None  # the caller passes only seats with a snapshot
    snapshot = dict(seat.rating)
    snapshot["after"] = round(after)
    snapshot["change"] = round(after) - round(before)
    seat.rating = snapshot
    return seat


def _glicko_updates(rated: list, rows: dict[int, Rating], now: datetime) -> dict[int, dict[str, float]]:
    pre = {}
    for idx, *_ in rated:
        row = rows[idx]
        pre[idx] = glicko2.inflate(glicko2.Glicko(row.rating, row.deviation, row.volatility), _idle_periods(row, now))
    (a, *_, out_a), (b, *_, out_b) = rated
    score_a = _score(out_a) if out_a else 0.5
    score_b = _score(out_b) if out_b else 1.0 - score_a
    new_a = glicko2.rate(pre[a], [(pre[b], score_a)])
    new_b = glicko2.rate(pre[b], [(pre[a], score_b)])
    return {a: {"rating": new_a.rating, "deviation": new_a.rd, "volatility": new_a.volatility},
            b: {"rating": new_b.rating, "deviation": new_b.rd, "volatility": new_b.volatility}}


def _openskill_updates(game: Any, rated: list, rows: dict[int, Rating], now: datetime) -> dict[int, dict[str, float]]:
    by_seat = {e[0]: e for e in rated}
    teams_spec = (game.result or {}).get("teams")
    if teams_spec:
        teams = [[i for i in team if i in by_seat] for team in teams_spec]
        teams = [t for t in teams if t]
    else:
        teams = [[e[0]] for e in rated]
    ranks = [min(by_seat[i][3] for i in team) for team in teams]
    inputs = []
    for team in teams:
        members = []
        for i in team:
            row = rows[i]
            sigma = openskill_rating.inflate(row.sigma or openskill_rating.DEFAULT_SIGMA, _idle_periods(row, now))
            members.append((row.mu if row.mu is not None else openskill_rating.DEFAULT_MU, sigma))
        inputs.append(members)
    result = openskill_rating.rate(inputs, ranks)
    updates: dict[int, dict[str, float]] = {}
    for team, new in zip(teams, result, strict=True):
        for i, (mu, sigma) in zip(team, new, strict=True):
            r, rd = openskill_rating.display(mu, sigma)
            updates[i] = {"mu": mu, "sigma": sigma, "rating": r, "deviation": rd}
    return updates
