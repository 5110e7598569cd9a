"""Inheritors (2-4 players): a pure-Python rules engine.

Spec: ``/work/shared/rules/inheritors.md`` (clause ids I…) and the AMB-nn rulings. Provisional
data lives in :mod:`games.rules.inheritors.data`. Use the module-level :data:`RULES` object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .engine import INFO, InheritorsRules
from .state import InheritorsState

RULES = InheritorsRules()

if TYPE_CHECKING:  # mypy checks that the engine is the Rules of its own types (nothing runs)
    from ..base import Rules
    from .types import InheritorsEvent, InheritorsMove, InheritorsResult, InheritorsView

    _conforms: Rules[InheritorsState, InheritorsMove, InheritorsView, InheritorsEvent, InheritorsResult] = RULES

__all__ = ["INFO", "RULES", "InheritorsRules", "InheritorsState"]
