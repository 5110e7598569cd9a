"""Claim, Claim 2 and the 2-player Claim + Claim 2 mix (specs: /work/shared/rules/claim*.md).

Modules: :mod:`.core` (fast rules core on integer cards), :mod:`.scoring` (C8/T4),
:mod:`.options` (faction choice, M1/M2), :mod:`.serial` (JSON), :mod:`.engine` (the
:class:`~games.rules.base.Rules` interface), :mod:`.playout` (fast random games).
"""

from typing import TYPE_CHECKING

from games.rules.claim.engine import ClaimRules

CLAIM = ClaimRules("claim", "Claim")
CLAIM2 = ClaimRules("claim2", "Claim 2")
CLAIM_MIX = ClaimRules("claim-mix", "Claim + Claim 2 (2-player mix)")

if TYPE_CHECKING:  # mypy checks that the engine is the Rules of its own types (nothing runs)
    from games.rules.base import Rules
    from games.rules.claim.core import Core
    from games.rules.claim.types import ClaimEvent, ClaimMove, ClaimResult, ClaimView

    _conforms: Rules[Core, ClaimMove, ClaimView, ClaimEvent, ClaimResult] = CLAIM

__all__ = ["CLAIM", "CLAIM2", "CLAIM_MIX", "ClaimRules"]
