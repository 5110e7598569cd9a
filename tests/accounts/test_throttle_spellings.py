"""Security issue #32, finding 1: a per-account limit keyed on the name *as typed* let every spelling of one
account have a quota of its own (``sisircp`` spelt with long s and dotless i signed in to ``sisircp`` on
PostgreSQL: 113 wrong passwords in a minute from one address). The login, its limits and the reset lookup now
share one rule (accounts/lookup.py: NFKC + case folding), the same on SQLite and PostgreSQL: run this file with
and without ``DATABASE_URL``.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.db.models.functions import Lower
from rest_framework.test import APIClient

from accounts.lookup import _lower_variants
from accounts.models import User

from .conftest import PASSWORD, error, url

pytestmark = pytest.mark.django_db

LONG_S = "\N{LATIN SMALL LETTER LONG S}"  # NFKC: "s"
DOTLESS_I = "\N{LATIN SMALL LETTER DOTLESS I}"  # case folding keeps it; PostgreSQL's UPPER gives "I"


def fullwidth(text: str) -> str:
    """``text`` in full-width forms (U+FF01...; NFKC gives ``text`` back)."""
    return "".join(chr(ord(c) + 0xFEE0) for c in text)


#: Spellings of ``sisircp`` that sign in to it: upper case, long s, full-width, mixes.
SAME_ACCOUNT = ["sisircp", "SISIRCP", f"{LONG_S}isircp", f"{LONG_S}i{LONG_S}ircp", "SiSiRcP", fullwidth("sisircp"),
                fullwidth("SISIRCP"), f"{LONG_S}I{LONG_S}IRCP"]
#: The name of the issue: long s and dotless i. Another (unknown) name, whatever PostgreSQL's UPPER says.
OTHER_NAME = f"{LONG_S}{DOTLESS_I}{LONG_S}{DOTLESS_I}rcp"


def login(client: APIClient, username: str, password: str = PASSWORD):
    return client.post(url("login"), {"username": username, "password": password})


def set_rate(settings, scope: str, rate: str) -> None:
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"], scope: rate}}


@pytest.fixture
def sisircp(make_user):
    return make_user("sisircp")


@pytest.mark.parametrize("typed", SAME_ACCOUNT)
def test_each_compatibility_spelling_signs_in_to_the_account(sisircp, typed):
    response = login(APIClient(), typed)
    assert response.status_code == 200, (connection.vendor, response.content)
    assert response.json()["id"] == sisircp.pk


def test_dotless_i_names_another_account_on_every_database(sisircp):
    """PostgreSQL's UPPER of a dotless i is 'I' (the old iexact lookup signed this in); case folding keeps it."""
    response = login(APIClient(), OTHER_NAME)
    assert response.status_code == 400, (connection.vendor, response.content)
    assert error(response)["message"] == "Wrong username or password."


def test_the_issue_32_attack_many_spellings_share_one_login_limit(sisircp, settings):
    """One address, a different spelling per attempt: the account's one ``login`` quota runs out."""
    set_rate(settings, "login", "10/min")
    client = APIClient(REMOTE_ADDR="198.51.100.7")
    answers = [login(client, SAME_ACCOUNT[i % len(SAME_ACCOUNT)], f"guess-{i}").status_code for i in range(30)]
    assert answers[:10] == [400] * 10, answers
    assert set(answers[10:]) == {429}, answers
    for typed in SAME_ACCOUNT:  # the right password in any spelling waits too
        response = login(client, typed)
        assert response.status_code == 429, typed
        assert int(response["Retry-After"]) > 0
        assert '"login";r=0' in response["RateLimit"]
    # Another account from the same address is not held up.
    assert login(client, OTHER_NAME, "x").status_code == 400


def test_a_name_that_resolves_to_no_account_has_one_limit_for_all_its_spellings(db, settings):
    set_rate(settings, "login", "3/min")
    client = APIClient(REMOTE_ADDR="198.51.100.8")
    spellings = ["nobody", "NOBODY", fullwidth("nobody"), "NoBoDy", f"No{fullwidth('B')}ody"]
    answers = [login(client, s, "x").status_code for s in spellings]
    assert answers == [400, 400, 400, 429, 429], answers


def test_reset_e_mails_to_one_inbox_share_one_limit_whatever_the_spelling(make_user, settings):
    """Per e-mail: ``password_reset`` (here 2/hour) e-mails to one inbox, from any address, in any spelling."""
    set_rate(settings, "password_reset", "2/hour")
    make_user("sam", email="sam@example.org")
    spellings = ["sam@example.org", "SAM@EXAMPLE.ORG", f"{LONG_S}am@example.org", f"{LONG_S}AM@example.org",
                 f"sam@{fullwidth('e')}xample.org"]
    answers = [APIClient(REMOTE_ADDR=f"203.0.113.{i}").post(url("password/reset"), {"email": e}).status_code
               for i, e in enumerate(spellings)]
    assert answers == [204, 204, 429, 429, 429], answers
    assert [m.to for m in mail.outbox] == [["sam@example.org"]] * 2


def test_a_reset_by_a_lookalike_that_is_another_address_sends_nothing(make_user):
    """``ian@…`` with a dotless i folds to itself, not to ``ian@…`` (PostgreSQL's iexact sent ian's reset there,
    past ian's quota)."""
    make_user("ian", email="ian@example.org")
    assert APIClient().post(url("password/reset"), {"email": f"{DOTLESS_I}an@example.org"}).status_code == 204
    assert mail.outbox == []
    assert APIClient().post(url("password/reset"), {"email": f"{LONG_S}an@example.org"}).status_code == 204
    assert mail.outbox == []  # long s + "an" is "san", not ian
    assert APIClient().post(url("password/reset"), {"email": "IAN@example.org"}).status_code == 204
    assert [m.to for m in mail.outbox] == [["ian@example.org"]]


def test_the_lookup_reads_the_username_index(sisircp):
    """One query through the unique LOWER(username) index, on both databases (O(log users))."""
    query = User.objects.alias(lname=Lower("username")).filter(lname__in=_lower_variants(fullwidth("SISIRCP")))
    if connection.vendor == "postgresql":  # a table of one row is read whole; ask whether the index can serve
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
    plan = query.explain()
    assert "accounts_user_username_ci_unique" in plan, plan
