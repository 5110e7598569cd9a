"""PostgreSQL for the test suite (``claim.settings_test``): Django's backend, except that a transactional test's
flush empties the tables with ``DELETE`` instead of ``TRUNCATE``.

``TRUNCATE`` gives each table, index and TOAST table a new file and unlinks the old ones at commit: ≈ 1.7 s for
this schema's 52 tables on the CI machine (its disk is mounted with ``discard``), paid after every test that
uses ``transactional_db`` (a few hundred). ``DELETE`` of the few rows a test leaves takes ≈ 0.06 s. Every
foreign key Django creates is ``DEFERRABLE INITIALLY DEFERRED``, so the order of the deletes does not matter
inside the flush's transaction. Sequences are left alone, as Django's flush does unless a test asks for
``reset_sequences``, which (with ``allow_cascade``) keeps the ``TRUNCATE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style: Any, tables: Sequence[str], *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if not tables or reset_sequences or allow_cascade:
            return super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                for table in tables]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
