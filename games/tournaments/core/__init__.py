"""Pure tournament logic: pairing (Swiss, round robin, tables), standings with tie-breaks, league promotion and
relegation, adjudication. No Django, DRF, Channels, Celery or Redis here (an import-linter contract keeps it so);
the rules are documented in docs/tournaments.md.

Players are named by ``int`` ids (the service's entry or user ids); every function is deterministic: the same input
gives the same output, whatever the order of the results in it.
"""
