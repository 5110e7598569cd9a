"""The chat's part of the data export and of an account's deletion (docs/security.md, "Chat and reports").

* Export (``personal_data_requested``): every line the user wrote (hidden ones too, with ``hidden``), and the
  reports they made. Reports about them are the operator's and their reporters' and are not exported.
* Deletion (``account_deleting``, inside the deletion's transaction): the user's lines are deleted (the other
  players' lines stay; a report that named one of them keeps its game but loses the line), their read markers
  and the reports they made too. Reports about them stay for the operator, naming the anonymous account.
"""

from __future__ import annotations

from typing import Any

from accounts.privacy import Section, below, iso

from .models import ChatMessage, ChatRead, Report


def _lines(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
    return [{"id": m.pk, "game_id": m.game_id, "room": m.room, "phrase": m.phrase, "text": m.text,
             "created_at": iso(m.created_at), "hidden": m.hidden}
            for m in below(ChatMessage.objects.filter(author=user), before, limit)]


def _reports(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
    return [{"id": r.pk, "username": r.user.username, "game_id": r.game_id, "message_id": r.message_id,
             "reason": r.reason, "note": r.note, "created_at": iso(r.created_at), "status": r.status}
            for r in below(Report.objects.filter(reporter=user).select_related("user"), before, limit)]


def personal_data_sections(sender: Any, **kwargs: Any) -> list[Section]:
    return [
        Section("chat_messages", "Every chat line you wrote, by id (hidden: an operator hid it).", _lines),
        Section("reports", "The reports you made to the operator.", _reports),
    ]


def on_account_deleting(sender: Any, user: Any, **kwargs: Any) -> None:
    for queryset in (Report.objects.filter(reporter=user), ChatMessage.objects.filter(author=user),
                     ChatRead.objects.filter(user=user)):
        queryset.delete()
