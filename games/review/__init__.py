"""Move-by-move reviews of ended games (issue 37): every decision of every seat judged from that seat's own
information by the King's search (:mod:`games.ai.review`), computed once in the background on the ``review`` queue
and stored (docs/api.md "Reviews", docs/ai.md "Review")."""
