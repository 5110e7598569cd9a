"""Issue 22 item 3: Web Push endpoints cannot be used for server-side request forgery, delivery errors never
quote the far side's answer, and a subscription cannot be taken over (games/notify/endpoints.py)."""

from __future__ import annotations

import base64
import contextlib
import socket
import threading
from unittest import mock

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pywebpush import WebPushException
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.notify import service
from games.notify.endpoints import EndpointRefused, endpoint_problem, is_public, public_address
from games.notify.models import Delivery, PushSubscription

PATH = "/api/v1/notifications/push-subscriptions"
KEYS = {"p256dh": "k", "auth": "a"}


@pytest.mark.parametrize("url", [
    "http://fcm.googleapis.com/fcm/send/x",  # not https
    "https://127.0.0.1/x", "https://[::1]/x", "https://169.254.169.254/latest/meta-data/",  # address literals
    "https://10.0.0.1/x", "https://2130706433/x", "https://0x7f000001/x",
    "https://localhost/x", "https://redis.internal/x", "https://evil.example/x",  # not a push service
    "https://user:pw@fcm.googleapis.com/x",  # credentials
    "https://fcm.googleapis.com:6379/x",  # odd port
    "https://fcm.googleapis.com.evil.example/x", "https://evilfcm.googleapis.com.example/x",
    "file:///etc/passwd", "gopher://fcm.googleapis.com/x",
])
def test_issue22_push_endpoint_refused_unless_https_at_a_known_push_service(url):
    assert endpoint_problem(url)


@pytest.mark.parametrize("url", ["https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
                                 "https://web.push.apple.com/QGx", "https://wns2-db5p.notify.windows.com/w/?token=x"])
def test_push_endpoints_of_the_real_services_are_accepted(url):
    assert endpoint_problem(url) is None


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
                                     "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "::1", "fe80::1", "fc00::1",
                                     "::ffff:127.0.0.1", "::"])
def test_non_public_addresses(address):
    assert not is_public(address)


def test_public_address_refuses_a_name_that_resolves_to_loopback():
    with pytest.raises(EndpointRefused):
        public_address("localhost", 443)


@pytest.mark.django_db
def test_registering_a_loopback_endpoint_is_a_400_naming_the_rule(make_user, api_client):
    api_client.force_authenticate(make_user("u"))
    r = api_client.post(PATH, {"endpoint": "http://127.0.0.1:6379/", "keys": KEYS}, format="json")
    assert r.status_code == 400 and "https" in r.json()["error"]["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_issue22_another_users_endpoint_cannot_be_taken_over(make_user, api_client):
    alice, mallory = make_user("alice"), make_user("mallory")
    endpoint = "https://push.example/alice-browser"
    api_client.force_authenticate(alice)
    assert api_client.post(PATH, {"endpoint": endpoint, "keys": KEYS}, format="json").status_code == 201
    api_client.force_authenticate(mallory)
    r = api_client.post(PATH, {"endpoint": endpoint, "keys": {"p256dh": "evil", "auth": "evil"}}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "endpoint_taken"
    sub = PushSubscription.objects.get(endpoint=endpoint)
    assert sub.user == alice and sub.p256dh == "k"
    api_client.delete(PATH, {"endpoint": endpoint}, format="json")  # mallory cannot delete it either
    assert PushSubscription.objects.filter(endpoint=endpoint, user=alice).exists()
    api_client.force_authenticate(alice)  # alice renews her own keys
    r = api_client.post(PATH, {"endpoint": endpoint, "keys": {"p256dh": "k2", "auth": "a2"}}, format="json")
    assert r.status_code == 201 and PushSubscription.objects.get(endpoint=endpoint).p256dh == "k2"


@pytest.mark.django_db
def test_issue22_delivery_errors_never_store_the_push_services_answer(make_user, api_client, settings, commit):
    settings.VAPID_PRIVATE_KEY = "test-key"
    u = make_user("u")
    PushSubscription.objects.create(user=u, endpoint="https://push.example/1", p256dh="k", auth="a")
    answer = mock.Mock(status_code=403, text="SECRET-BODY redis_version:7.0", content=b"SECRET-BODY")
    failure = WebPushException("Push failed: 403 Forbidden\nResponse body:SECRET-BODY redis_version:7.0",
                               response=answer)
    with mock.patch("pywebpush.webpush", side_effect=failure), commit():
        service.notify(u, "your_turn", None, "Your turn")
    api_client.force_authenticate(u)
    body = api_client.get("/api/v1/notifications/deliveries").content.decode()
    assert "SECRET" not in body and "redis_version" not in body and "403" in body


def _vapid_and_keys() -> tuple[str, dict[str, str]]:
    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    vapid = ec.generate_private_key(ec.SECP256R1())
    vapid_raw = vapid.private_numbers().private_value.to_bytes(32, "big")
    browser = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = browser.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64(vapid_raw), {"p256dh": b64(p256dh), "auth": b64(b"0123456789abcdef")}


@pytest.mark.django_db
def test_issue22_an_allowed_name_resolving_to_loopback_is_never_contacted(make_user, settings, commit):
    """DNS is the attacker's: even a host on the list is contacted only at a public address (the real
    pywebpush and requests stack; a listener on loopback sees no connection)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    hits: list[object] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            hits.append(listener.accept())

    thread = threading.Thread(target=accept)
    thread.start()
    vapid, keys = _vapid_and_keys()
    settings.VAPID_PRIVATE_KEY = vapid
    settings.PUSH_SERVICE_HOSTS = ["localhost"]
    u = make_user("u")
    sub = PushSubscription.objects.create(user=u, endpoint="https://localhost/x", **keys)
    real_getaddrinfo = socket.getaddrinfo

    def to_listener(host, port_, *args, **kwargs):  # localhost:443 -> the listener's port, same address
        return real_getaddrinfo(host, port if port_ == 443 else port_, *args, **kwargs)

    with mock.patch("socket.getaddrinfo", side_effect=to_listener), commit():
        service.notify(u, "your_turn", None, "Your turn")
    thread.join()
    listener.close()
    assert hits == []
    failed = Delivery.objects.get(user=u, channel="push")
    assert not failed.ok and "non-public" in failed.error
    assert PushSubscription.objects.filter(pk=sub.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "delete"])
def test_a_token_cannot_manage_push_subscriptions(make_user, method):
    """A leaked token must not point the player's notifications at a subscription of its own."""
    user = make_user("pushy")
    _, secret = ApiToken.issue(user, "bot", ["games:read", "games:play", "account:read"])
    client = APIClient()
    r = getattr(client, method)(PATH, {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": KEYS},
                                format="json", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "session_required", r.content
    assert not PushSubscription.objects.filter(user=user).exists()
