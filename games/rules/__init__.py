"""Pure-Python rules engines. Nothing in this package imports Django, DRF, Channels or Celery.

See :mod:`games.rules.base` for the interface every game implements and
:mod:`games.rules.registry` for the list of game kinds. The hot modules may run compiled by mypyc
(:mod:`games.rules.native`); importing this package refuses a compiled build older than its sources.
"""

from games.rules.native import check_build

check_build()
