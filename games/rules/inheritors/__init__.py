"""Inheritors (2-4 players): a pure-Python rules engine.

Spec: ``/work/shared/rules/inheritors.md`` (clause ids I…) and the AMB-nn rulings. Provisional
data lives in :mod:`games.rules.inheritors.data`. Use the module-level :data:`RULES` object.
"""

from __future__ import annotations

from .engine import INFO, InheritorsRules
from .state import InheritorsState

RULES = InheritorsRules()

__all__ = ["INFO", "RULES", "InheritorsRules", "InheritorsState"]
