"""games.signals.game_changed: one signal per committed version, for ratings/notifications/clocks."""

from __future__ import annotations

import pytest

from games.signals import game_changed

from .conftest import play_human_vs_human


@pytest.mark.django_db
def test_game_changed_is_sent_once_per_committed_version(alice, bob):
    seen: list[tuple[int, int, str]] = []

    def receiver(sender, game_id, version, status, **kwargs):
        seen.append((game_id, version, status))

    game_changed.connect(receiver)
    try:
        game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}])
        bob.post(f"/api/v1/games/{game['id']}/join")
        final = play_human_vs_human(alice, bob, game["id"])
    finally:
        game_changed.disconnect(receiver)
    versions = [v for gid, v, _ in seen if gid == game["id"]]
    assert versions == sorted(set(versions)), "one signal per version, in order"
    assert versions[-1] == final["version"]
    assert seen[-1][2] == "finished"
    assert {s for _, _, s in seen} >= {"open", "active", "finished"}


@pytest.mark.django_db
def test_a_failing_receiver_never_breaks_a_move(alice, bob):
    def broken(sender, **kwargs):
        raise RuntimeError("receiver bug")

    game_changed.connect(broken)
    try:
        game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}])
        joined = bob.post(f"/api/v1/games/{game['id']}/join")
    finally:
        game_changed.disconnect(broken)
    assert joined.status_code == 201, joined.content
    assert joined.json()["status"] == "active"
