"""PostgreSQL from the event loop, for the asynchronous move path (:mod:`games.fastmoves`).

Django's database layer is synchronous; the move path runs on the server's event loop instead of a
request thread (docs/performance.md, sixth round), through asyncpg: measured here with ten connections
busy, asyncpg ran 21,254 queries/s at ≈ 33 µs of CPU each, psycopg's async connection 1,786/s at ≈ 97 µs.

The SQL is the one :mod:`claim.rowsql` writes for Django's connection (``%s`` placeholders, turned
into ``$n`` here), its parameters are those Django's fields prepare (a ``Jsonb`` parameter is sent as
its JSON text), and rows come back as Django's psycopg connection reads them (``json``/``jsonb`` as
text for the fields to parse, ``timestamptz`` as aware datetimes), so :meth:`JoinedSelect.build
<claim.rowsql.JoinedSelect.build>` turns them into the same model instances. Statements are prepared
once per connection (asyncpg's statement cache), so PostgreSQL plans them once: that needs current
table statistics (autovacuum, on by default; ``bench/api.py`` runs ``VACUUM (ANALYZE)`` itself, since this
machine's PostgreSQL has autovacuum off). Planning each execution instead, as Django's client-side
binding does, cost 130 to 260 µs more per query here.

One pool per event loop (a server process has one; tests may run several loops one after the other):
``DB_ASYNC_POOL_MIN``/``DB_ASYNC_POOL_MAX`` connections (default 2/10).
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from collections.abc import Sequence
from typing import Any

import orjson
from django.conf import settings
from django.db import connections
from psycopg.types.json import Json, Jsonb

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
_opening: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()
_dollar: dict[str, str] = {}


def supported(alias: str = "default") -> bool:
    """Whether the database is PostgreSQL and asyncpg is installed."""
    if connections[alias].vendor != "postgresql":
        return False
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return False
    return True


def connect_kwargs(alias: str = "default") -> dict[str, Any]:
    """asyncpg's arguments for Django's ``DATABASES[alias]`` (name, user, password, host, port, sslmode,
    and the session time zone Django sets)."""
    conf = connections[alias].settings_dict
    options = conf.get("OPTIONS") or {}
    kwargs: dict[str, Any] = {
        "database": conf.get("NAME") or None,
        "user": conf.get("USER") or None,
        "password": conf.get("PASSWORD") or None,
        "host": conf.get("HOST") or None,
        "port": int(conf["PORT"]) if conf.get("PORT") else None,
        "server_settings": {"TimeZone": connections[alias].timezone_name or "UTC"},
    }
    if options.get("sslmode"):
        kwargs["ssl"] = options["sslmode"]
    return {k: v for k, v in kwargs.items() if v is not None}


def numbered(sql: str) -> str:
    """``%s`` placeholders as ``$1, $2, …`` (the SQL of claim.rowsql has no other ``%``)."""
    found = _dollar.get(sql)
    if found is None:
        count = iter(range(1, sql.count("%s") + 1))
        found = _dollar[sql] = re.sub(r"%s", lambda _: f"${next(count)}", sql)
    return found


def _param(value: Any) -> Any:
    # (imported at the top: an import statement here cost 0.7 µs for each of a move's dozens of parameters)
    if isinstance(value, (Json, Jsonb)):  # its JSON text; PostgreSQL parses it into jsonb either way
        if value.dumps is None or value.dumps is json.dumps:
            try:
                return orjson.dumps(value.obj).decode()
            except TypeError:  # a type orjson does not know: the field's own encoder
                pass
        return (value.dumps or json.dumps)(value.obj)
    return value


def params(values: Sequence[Any]) -> list[Any]:
    """Django's prepared parameters as asyncpg takes them."""
    return [_param(v) for v in values]


async def fetch(conn: Any, sql: str, values: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in await conn.fetch(numbered(sql), *params(values))]


async def fetchrow(conn: Any, sql: str, values: Sequence[Any]) -> tuple[Any, ...] | None:
    row = await conn.fetchrow(numbered(sql), *params(values))
    return None if row is None else tuple(row)


async def _no_reset(conn: Any) -> None:
    """The move path leaves no session state (no LISTEN, advisory lock, cursor or SET) on a connection,
    so a returned connection needs none of asyncpg's reset round trip."""


async def _init(conn: Any) -> None:
    # json/jsonb as text, as Django's psycopg connection reads them (JSONField.from_db_value parses)
    for name in ("json", "jsonb"):
        await conn.set_type_codec(name, encoder=str, decoder=str, schema="pg_catalog", format="text")


async def pool() -> Any:
    """The connection pool of the running loop (created on first use)."""
    loop = asyncio.get_running_loop()
    found = _pools.get(loop)
    if found is not None:
        return found
    lock = _opening.setdefault(loop, asyncio.Lock())
    async with lock:
        found = _pools.get(loop)
        if found is None:
            import asyncpg

            found = await asyncpg.create_pool(
                **connect_kwargs(), init=_init, reset=_no_reset,
                min_size=getattr(settings, "DB_ASYNC_POOL_MIN", 2), max_size=getattr(settings, "DB_ASYNC_POOL_MAX", 10),
            )
            _pools[loop] = found
    return found


async def close_pool() -> None:
    """Close the running loop's pool (tests; a server closes with its process)."""
    found = _pools.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()
