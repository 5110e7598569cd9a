"""Names that read alike (issue 32, findings 4 and 5; accounts/names.py, docs/security.md).

Display names and new usernames are compared by their UTS #39 confusable skeletons (ICU), letter case aside,
with the AI seats' names ("AI (King)") and with every other player's username and display name; the
comparison is one lookup of the indexed ``accounts_namekey.key`` column, filled for existing users by a
data migration.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from accounts.models import NameKey, User
from accounts.names import AI_LEVEL_NAMES, is_system_name, name_keys, reads_as_ai_seat
from accounts.services import DELETED_NAME
from games.ai import LEVELS

from .conftest import PASSWORD, url

pytestmark = pytest.mark.django_db

STRONG = "Correct-horse-42"

AI_LOOKALIKES = [
    "Al (King)",  # lower-case L: finding 4
    "[AI] King",  # brackets: finding 4
    "AI (King)", "ai(knight)", "A I (Squire)", "Al(Knight) 2", "\uff21\uff4c (King)",  # fullwidth "Al"
    "King (AI)", "AI-Knight", "AI_Squire", "AIKing", "KingAI", "[al] knight", "The AI King", "AI King 2",
    "A1 (King)",  # digit one
]
NOT_AI = ["Al Smith", "Al Kingsley", "AI research fan", "King Arthur", "Squire Bob", "Alfred (Knight)", "AI", "Al"]


def register(api_client, username: str, display_name: str = ""):
    csrf = api_client.get(url("csrf")).json()["csrf_token"]
    return api_client.post(url("register"), {"username": username, "password": STRONG, "display_name": display_name},
                           format="json", HTTP_X_CSRFTOKEN=csrf)


def refusal(response, field: str | None = None) -> str:
    assert response.status_code == 400, response.content
    body = response.json()["error"]
    if field:
        assert field in body["fields"], body
        return " ".join(body["fields"][field])
    return body["message"]


def test_the_ai_level_names_are_the_games_ones():
    assert set(AI_LEVEL_NAMES) == set(LEVELS.values())


@pytest.mark.parametrize("name", AI_LOOKALIKES)
def test_issue32_a_display_name_that_reads_as_an_ai_seat_is_refused(session_client, name):
    message = refusal(session_client.patch(url("me"), {"display_name": name}, format="json"))
    assert "AI seat" in message and 'start with "AI ("' in message, message


@pytest.mark.parametrize("name", NOT_AI)
def test_names_near_ai_that_do_not_read_as_a_seat_are_fine(session_client, name):
    response = session_client.patch(url("me"), {"display_name": name}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == name, response.content


@pytest.mark.parametrize("username", ["AI_King", "Al-King", "KingAI", "A1_Knight"])
def test_issue32_a_username_that_reads_as_an_ai_seat_is_refused(api_client, username):
    assert "AI seat" in refusal(register(api_client, username), "username")
    assert not User.objects.filter(username__iexact=username).exists()


@pytest.mark.parametrize("name", ["EIIen", "ELLEN", "e1len", "El\u0131en", "eIlen ", "\uff45\uff4c\uff4c\uff45\uff4e",
                                  "ELIEN"])
def test_issue32_a_display_name_reading_like_another_players_username_is_refused(session_client, make_user, name):
    make_user("ellen")
    message = refusal(session_client.patch(url("me"), {"display_name": name}, format="json"))
    assert "another player's username or display name" in message, message


def test_issue32_another_players_display_name_and_its_lookalikes_are_refused(session_client, make_user, user):
    make_user("carol", display_name="Queen Bee")
    make_user("dave", display_name="Mike")
    for name in ("Queen Bee", "queen  bee", "QUEEN BEE", "rnike", "MlKE"):
        message = refusal(session_client.patch(url("me"), {"display_name": name}, format="json"))
        assert "another player's" in message, (name, message)
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_name_freed_by_a_rename_can_be_taken(session_client, make_user):
    carol = make_user("carol", display_name="Queen Bee")
    assert session_client.patch(url("me"), {"display_name": "Queen Bee"}, format="json").status_code == 400
    carol.display_name = "Worker Bee"
    carol.save()
    response = session_client.patch(url("me"), {"display_name": "Queen Bee"}, format="json")
    assert response.status_code == 200, response.content
    assert set(NameKey.objects.filter(user=carol).values_list("key", flat=True)) == (
        name_keys("carol") | name_keys("Worker Bee"))


def test_ones_own_names_in_other_letters_are_fine(session_client, user):
    for name in ("ALICE", "AIice", "Alice", "Queen Bee", "Queen  Bee"):
        response = session_client.patch(url("me"), {"display_name": name}, format="json")
        assert response.status_code == 200, (name, response.content)


@pytest.mark.parametrize(("username", "others"), [
    ("B0B", {"username": "bob"}),  # zero for O
    ("rnallory", {"username": "mallory"}),  # rn for m
    ("Queen-Bee", {"username": "carol", "display_name": "Queen-Bee"}),  # another's display name
    ("lvy", {"username": "zed", "display_name": "Ivy"}),
])
def test_issue32_register_refuses_a_username_reading_like_another_players_name(api_client, make_user, username,
                                                                               others):
    make_user(**others)
    message = refusal(register(api_client, username), "username")
    assert "another player's username or display name" in message, message
    assert not User.objects.filter(username=username).exists()


def test_issue32_register_refuses_a_lookalike_display_name(api_client, make_user):
    make_user("ellen")
    message = refusal(register(api_client, "mallory", "EIIen"))
    assert "another player's username or display name" in message
    assert "AI seat" in refusal(register(api_client, "mallory", "Al (King)"))
    response = register(api_client, "mallory", "Mallory M.")
    assert response.status_code == 201, response.content
    assert set(NameKey.objects.filter(user__username="mallory").values_list("key", flat=True)) == (
        name_keys("mallory") | name_keys("Mallory M."))


@pytest.mark.parametrize("name", ["\u202eAI (King)", "A\u200bI (King)", "Bo\u200db", "\u2067bob\u2069"])
def test_bidi_and_zero_width_characters_are_refused_before_any_skeleton(session_client, make_user, name):
    make_user("bob")
    assert "the character U+" in refusal(session_client.patch(url("me"), {"display_name": name}, format="json"))


@pytest.mark.parametrize("name", ["Deleted player", "DELETED PLAYER", "De1eted  PIayer"])
def test_a_deleted_accounts_name_cannot_be_taken(session_client, api_client, name):
    assert is_system_name(DELETED_NAME)
    assert "deleted accounts" in refusal(session_client.patch(url("me"), {"display_name": name}, format="json"))
    assert "deleted accounts" in refusal(register(api_client, "mallory", name))


def test_the_ai_rule_reads_keys():
    assert reads_as_ai_seat("AI (King)") and reads_as_ai_seat("Al Klng") and not reads_as_ai_seat("Alfie King")


def test_the_check_is_one_indexed_lookup(session_client, make_user):
    """However many players exist, a display-name check reads NameKey by ``key IN (two keys)``, excluding the
    user's own rows: an index lookup (``accounts_namekey_key_*``), never a scan of the users."""
    make_user("bob")
    with CaptureQueriesContext(connection) as queries:
        assert session_client.patch(url("me"), {"display_name": "B0b"}, format="json").status_code == 400
    lookups = [q["sql"] for q in queries.captured_queries if "accounts_namekey" in q["sql"]]
    assert len(lookups) == 1 and '"accounts_namekey"."key" IN' in lookups[0], lookups
    assert not [q["sql"] for q in queries.captured_queries if 'FROM "accounts_user"' in q["sql"]
                and "UPPER" in q["sql"]]


def test_a_login_does_not_rewrite_the_name_keys(session_client, user):
    with CaptureQueriesContext(connection) as queries:
        session_client.post(url("logout"))
        session_client.post(url("login"), {"username": user.username, "password": PASSWORD})
    assert not [q for q in queries.captured_queries if "accounts_namekey" in q["sql"]]


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_fills_the_keys_of_existing_users():
    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes("accounts")
    executor.migrate([("accounts", "0001_initial")])
    executor.loader.build_graph()
    old_user = executor.loader.project_state([("accounts", "0001_initial")]).apps.get_model("accounts", "User")
    old_user.objects.create(username="olga", display_name="Queen Bee", password="!")
    old_user.objects.create(username="pete", password="!")
    executor = MigrationExecutor(connection)
    executor.migrate(leaf)
    keys = dict.fromkeys(("olga", "pete"))
    for name in keys:
        keys[name] = set(NameKey.objects.filter(user__username=name).values_list("key", flat=True))
    assert keys == {"olga": name_keys("olga") | name_keys("Queen Bee"), "pete": name_keys("pete")}
    assert NameKey.taken("QUEEN BEE") and NameKey.taken("PETE") and not NameKey.taken("Queen Wasp")
