"""Pure-Python rules engines. Nothing in this package imports Django, DRF, Channels or Celery.

See :mod:`games.rules.base` for the interface every game implements and
:mod:`games.rules.registry` for the list of game kinds.
"""
