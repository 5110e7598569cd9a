"""The AI seats' own names (issue 33 item 8): "Ada (AI)", "Boris (AI)"..., one per seat, and nobody may take one.

The seat payload names an AI seat by its seat index (``games.service.payload.AI_SEAT_NAMES``), the level stays in
``ai_level``/``ai_name``; accounts/names.py reserves the names, their first word (the web app's short form) and
"AI"/"KI" written next to them, in look-alike letters too.
"""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.names import AI_SEAT_NAMES, reads_as_ai_seat
from games.service.payload import AI_SEAT_NAMES as SERVED

from .conftest import url
from .test_confusable_names import refusal, register

pytestmark = pytest.mark.django_db

SEAT_LOOKALIKES = [
    "Ada", "ada", "ADA", "Ada (AI)", "Boris (AI)", "Cleo (KI)", "Dario AI", "AI Ada", "KI-Boris", "AdaAI",
    "Ada Lovelace",  # the web app shows "Ada" of it where space is tight: the AI's short name
    "(Ada)", "Ada!", "Cle0", "CIeo", "B\u043eris",  # digit zero, capital I for l; a Cyrillic o is refused anyway
    "\uff21\uff44\uff41 (AI)",  # fullwidth
]
NOT_SEATS = ["Adam", "Adalbert", "Borisov", "Cleopatra", "Ann Ada", "Kira", "Kai", "Darius", "Dr Boris"]


def test_the_seat_names_are_the_games_ones():
    assert AI_SEAT_NAMES == SERVED


@pytest.mark.parametrize("name", SEAT_LOOKALIKES)
def test_a_display_name_that_reads_as_an_ai_seats_name_is_refused(session_client, name):
    response = session_client.patch(url("me"), {"display_name": name}, format="json")
    assert response.status_code == 400, (name, response.content)
    assert reads_as_ai_seat(name) or "mix" in refusal(response)


@pytest.mark.parametrize("name", NOT_SEATS)
def test_names_near_the_seat_names_are_fine(session_client, name):
    response = session_client.patch(url("me"), {"display_name": name}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == name, response.content


@pytest.mark.parametrize("username", ["ada", "Boris", "cleo_ai", "AI_Dario", "Cle0"])
def test_a_username_that_reads_as_an_ai_seats_name_is_refused(api_client, username):
    assert "AI seat" in refusal(register(api_client, username), "username")
    assert not User.objects.filter(username__iexact=username).exists()


def test_the_old_level_forms_stay_refused():
    assert all(reads_as_ai_seat(n) for n in ("AI (Knight) 2", "AI (Squire)", "King (AI)", "Knight KI"))
