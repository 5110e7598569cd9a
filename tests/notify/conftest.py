"""The notifications' fixtures are the correspondence ones (users, games through the service, eager tasks)."""

from tests.correspondence.conftest import _eager, commit, make_user, play  # noqa: F401
