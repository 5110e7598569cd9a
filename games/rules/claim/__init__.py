"""Claim, Claim 2 and the 2-player Claim + Claim 2 mix (specs: /work/shared/rules/claim*.md).

Modules: :mod:`.core` (fast rules core on integer cards), :mod:`.scoring` (C8/T4),
:mod:`.options` (faction choice, M1/M2), :mod:`.serial` (JSON), :mod:`.engine` (the
:class:`~games.rules.base.Rules` interface), :mod:`.playout` (fast random games).
"""

from games.rules.claim.engine import ClaimRules

CLAIM = ClaimRules("claim", "Claim")
CLAIM2 = ClaimRules("claim2", "Claim 2")
CLAIM_MIX = ClaimRules("claim-mix", "Claim + Claim 2 (2-player mix)")

__all__ = ["CLAIM", "CLAIM2", "CLAIM_MIX", "ClaimRules"]
