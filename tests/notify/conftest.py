"""The notifications' fixtures are the correspondence ones (games through the service, eager tasks); users
come from tests/conftest.py."""

from tests.correspondence.conftest import _eager, commit, play  # noqa: F401
