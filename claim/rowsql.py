"""Hot-path SELECTs compiled once: a model and its joined relations, built like ``select_related``.

Django compiles every queryset's SQL anew on each evaluation; for the three SELECTs of every move
(the token with its user, the locked game with its clock, the seats with their users) that
compilation cost more CPU than the database spent answering (docs/performance.md). A
:class:`JoinedSelect` writes its SQL once from the models' metadata and builds the same model
instances ``select_related`` would (``Model.from_db``, relation caches filled, ``None`` cached for a
missing outer-joined row), so callers cannot tell the difference.

Only plain concrete fields are read (no deferred fields, no annotations); the ``where`` and
``order_by`` snippets are SQL with ``%s`` placeholders, written by the caller (never user text).

Beyond Django's documented API (``Model.from_db``, ``Model._state``, ``_meta.get_field``, the custom
field methods ``pre_save``, ``get_db_prep_save`` and ``from_db_value``) it uses the ORM's internals the
compiler uses: ``_meta.concrete_fields``, ``_meta.auto_field``, ``Field.get_col``,
a relation's ``target_field`` and ``set_cached_value`` (its cache of the related object), and the
backend's ``connection.ops`` (``quote_name``, ``get_db_converters``) and
``connection.features`` (``can_return_columns_from_insert``, ``has_select_for_update``,
``has_select_for_no_key_update``, ``has_select_for_update_of``). tests/foundation/test_private_api.py
checks their shapes (see :mod:`claim.private_api`); tests/service/test_rowsql.py checks that the rows
come back as the ORM builds them.

Writes go through the ORM, but for the move row's ``INSERT … ON CONFLICT DO NOTHING RETURNING id``
(:func:`insert_statement`), which the ORM cannot write: compiling the other writes saved nothing measurable
(issue 38, docs/performance.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import orjson
from django.db import connections, router
from django.db.models import ForeignKey, JSONField, Model, OneToOneRel
from psycopg.types.json import Jsonb

_M = TypeVar("_M", bound=Model)


@dataclass(frozen=True)
class Join:
    """``field`` of the base model (a forward foreign key / one-to-one) or the name of a reverse
    one-to-one relation (e.g. ``"clock"``); ``outer`` for a LEFT JOIN (the relation may be missing)."""

    field: str
    outer: bool = False
    #: The ``field`` of an earlier join this relation starts from (``select_related("game__clock")`` is
    #: ``Join("game"), Join("clock", via="game")``); None: from the base model.
    via: str | None = None


class JoinedSelect(Generic[_M]):
    def __init__(self, model: type[_M], joins: Sequence[Join], where: str, order_by: str = "",
                 for_update_of_base: bool = False) -> None:
        self.model = model
        self.joins = list(joins)
        self.where = where
        self.order_by = order_by
        self.for_update = for_update_of_base
        self._compiled: dict[str, tuple[str, list[tuple[type[Model], list[str], Any]], list[list[Any]]]] = {}

    def _compile(self, connection: Any) -> tuple[str, list[tuple[type[Model], list[str], Any]], list[list[Any]]]:
        qn = connection.ops.quote_name
        base = self.model._meta
        columns: list[str] = []
        parts: list[tuple[type[Model], list[str], Any]] = []  # (model, attnames, how to attach)

        def take(alias: str, model: type[Model]) -> list[str]:
            fields = model._meta.concrete_fields
            columns.extend(f"{alias}.{qn(f.column)}" for f in fields)
            return [f.attname for f in fields]

        parts.append((self.model, take("t0", self.model), None))
        sql_from = f"{qn(base.db_table)} t0"
        names = [join.field for join in self.joins]
        for n, join in enumerate(self.joins, start=1):
            alias = f"t{n}"
            parent = 0 if join.via is None else names.index(join.via) + 1
            parent_alias, parent_model = f"t{parent}", parts[parent][0]
            field = parent_model._meta.get_field(join.field)
            attach: Any
            if isinstance(field, ForeignKey):  # forward FK / one-to-one: parent.fk = related.pk
                on = f"{parent_alias}.{qn(field.column)} = {alias}.{qn(field.target_field.column)}"
                attach = field  # field.set_cached_value(parent_obj, obj)
            elif isinstance(field, OneToOneRel):  # reverse one-to-one: related.fk = parent.pk
                remote = field.field
                on = f"{alias}.{qn(remote.column)} = {parent_alias}.{qn(remote.target_field.column)}"
                attach = remote.remote_field  # remote.remote_field.set_cached_value(parent_obj, obj)
            else:
                raise TypeError(f"Join({join.field!r}): not a foreign key, one-to-one or reverse one-to-one")
            related = field.related_model
            if not isinstance(related, type):  # "self" or None: resolved to a model class once apps are loaded
                raise TypeError(f"Join({join.field!r}): its related model {related!r} is not loaded")
            kind = "LEFT OUTER JOIN" if join.outer else "INNER JOIN"
            sql_from += f" {kind} {qn(related._meta.db_table)} {alias} ON ({on})"
            parts.append((related, take(alias, related), (attach, parent)))
        sql = f"SELECT {', '.join(columns)} FROM {sql_from} WHERE {self.where}"
        if self.order_by:
            sql += f" ORDER BY {self.order_by}"
        if self.for_update and connection.features.has_select_for_update:
            # NO KEY UPDATE, as select_for_update(no_key=True): the key is not changed, so a foreign-key check
            # of another transaction's row that names this one (FOR KEY SHARE) neither waits nor blocks.
            sql += " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else " FOR UPDATE"
            sql += " OF t0" if connection.features.has_select_for_update_of else ""
        return sql, parts, self._converters(connection, parts)

    def compiled(self, connection: Any) -> tuple[str, list[tuple[type[Model], list[str], Any]], list[list[Any]]]:
        """``(sql, parts, converters)`` for ``connection``'s vendor, compiled on first use."""
        compiled = self._compiled.get(connection.vendor)
        if compiled is None:
            compiled = self._compiled[connection.vendor] = self._compile(connection)
        return compiled

    def sql(self, connection: Any) -> str:
        """The SELECT (``%s`` placeholders)."""
        return self.compiled(connection)[0]

    def fetch(self, params: Sequence[Any], using: str | None = None) -> list[_M]:
        db = using or router.db_for_read(self.model)
        connection = connections[db]
        sql = self.sql(connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, list(params))
            rows = cursor.fetchall()
        return self.build(rows, db)

    def build(self, rows: Sequence[Sequence[Any]], db: str | None = None, connection: Any = None) -> list[_M]:
        """The model instances of ``rows`` (as returned by :meth:`sql`), as ``select_related`` builds them,
        except that a related row met again (the game of every seat) is one instance, converted once.
        ``connection``: the one the rows came from, when the caller has it at hand (else ``connections[db]``)."""
        if connection is not None:
            db = connection.alias
        else:
            db = db or router.db_for_read(self.model)
            connection = connections[db]
        _, parts, converters = self.compiled(connection)
        pk_at = [attnames.index(model._meta.pk.attname) for model, attnames, _ in parts]
        out: list[_M] = []
        seen: dict[tuple[int, Any], Model] = {}
        for row in rows:
            start = 0
            objs: list[Model | None] = []
            for n, ((model, attnames, _), convert, pk_index) in enumerate(zip(parts, converters, pk_at, strict=True)):
                pk = row[start + pk_index]
                if pk is None:
                    objs.append(None)
                elif n and (n, pk) in seen:
                    objs.append(seen[(n, pk)])
                else:
                    values = list(row[start:start + len(attnames)])
                    for i, fn in convert:
                        values[i] = fn(values[i])
                    built = model.from_db(db, attnames, values)
                    objs.append(built)
                    if n:
                        seen[(n, pk)] = built
                start += len(attnames)
            for (_, _, (attach, parent)), obj in zip(parts[1:], objs[1:], strict=True):
                if objs[parent] is not None:
                    attach.set_cached_value(objs[parent], obj)
            out.append(cast(_M, objs[0]))  # part 0: a row of self.model (its primary key is never NULL)
        return out

    @staticmethod
    def _converters(connection: Any, parts: list[tuple[type[Model], list[str], Any]]) -> list[list[Any]]:
        """Per model, ``(index, fn)`` for fields whose database value needs converting (JSON on SQLite,
        booleans, datetimes), the conversions the ORM applies (``from_db_value`` and the backend's)."""
        out = []
        for model, attnames, _ in parts:
            convert = []
            for i, attname in enumerate(attnames):
                field = next(f for f in model._meta.concrete_fields if f.attname == attname)
                fn = _converter(connection, model, field)
                if fn is not None:
                    convert.append((i, fn))
            out.append(convert)
        return out


def _json_from_db(field: Any) -> Any:
    """``JSONField.from_db_value`` for a plain ``JSONField`` (no decoder), parsing with orjson (the state of a
    game is ≈ 3 KB of JSON, read on every move): the same Python values; anything orjson refuses (integers
    beyond 64 bits, lone surrogates, text that is not JSON) goes to the field's own method."""
    if type(field).from_db_value is not JSONField.from_db_value or field.decoder is not None:
        return None
    original = field.from_db_value

    def from_db_value(value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return original(value, expression, connection)

    return from_db_value


def _json_dumps(value: Any) -> str:
    """JSON text of a value for a ``jsonb`` parameter, written by orjson (a game's state, its events and the
    mover's answer are written on every move); what orjson refuses (non-text keys, integers beyond 64 bits)
    by the standard library, as Django writes it."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value)


def _prep_save(field: Any, obj: Model, add: bool, connection: Any) -> Any:
    """The field's value as the ORM writes it (``pre_save`` + ``get_db_prep_save``); a plain ``JSONField``'s
    psycopg ``Jsonb`` parameter is the same value, dumped by :func:`_json_dumps`."""
    value = field.get_db_prep_save(field.pre_save(obj, add=add), connection)
    if (connection.vendor == "postgresql" and isinstance(field, JSONField) and field.encoder is None
            and type(value) is Jsonb):
        return Jsonb(value.obj, dumps=_json_dumps)
    return value


def _converter(connection: Any, model: type[Model], field: Any) -> Any:
    """The conversion the ORM applies to ``field``'s database value (the backend's converters, then
    ``from_db_value``), or None when the value is used as it comes."""
    expression = field.get_col(model._meta.db_table)
    fns = connection.ops.get_db_converters(expression)
    if hasattr(field, "from_db_value"):
        fns = [*fns, _json_from_db(field) or field.from_db_value]
    if not fns:
        return None

    def run(value: Any) -> Any:
        for fn in fns:
            value = fn(value, expression, connection)
        return value

    return run


# --- writes --------------------------------------------------------------------------------------

_write_sql: dict[tuple[Any, ...], str] = {}


#: One write: SQL with ``%s`` placeholders and its parameters, ready for any DB-API cursor of the vendor.
Statement = tuple[str, list[Any]]


def _insert_sql(model: type[Model], connection: Any) -> str:
    """The INSERT of :func:`insert_statement`, compiled once per model and vendor."""
    key = ("insert", connection.vendor, model)
    sql = _write_sql.get(key)
    if sql is None:
        meta = model._meta
        qn = connection.ops.quote_name
        fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
        columns = ", ".join(qn(f.column) for f in fields)
        sql = (f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
               " ON CONFLICT DO NOTHING")
        if connection.features.can_return_columns_from_insert:
            sql += f" RETURNING {qn(meta.pk.column)}"
        _write_sql[key] = sql
    return sql


def insert_statement(obj: Model, connection: Any) -> Statement:
    """``obj``'s INSERT with ``ON CONFLICT DO NOTHING`` (and ``RETURNING`` the primary key where the vendor can),
    compiled once, with the column values the ORM writes (``pre_save`` + ``get_db_prep_save``): the move row's
    insert, which the ORM cannot write while saying whether the row went in (no row returned: a duplicate)."""
    meta = obj._meta
    params = [_prep_save(f, obj, True, connection) for f in meta.concrete_fields if f is not meta.auto_field]
    return _insert_sql(type(obj), connection), params
