"""Web Push endpoints: only the push services' public HTTPS hosts (docs/security.md, "Push endpoints").

A subscription's endpoint is a URL the worker POSTs to; left open it is a server-side request forgery (a
subscription to ``http://127.0.0.1:6379/`` or to the cloud metadata address made the worker call it, and
the error text quoted the answer). Two checks:

* **when a subscription is registered** (:func:`endpoint_problem`): ``https``, no user name or password,
  the default port, a host name (not an address literal) that is one of the known push services
  (``PUSH_SERVICE_HOSTS``: a name, or ``.suffix`` for a domain and its subdomains);
* **when a message is sent** (:func:`public_session`): the connection is made only to an address that the
  host name resolves to *and* that is public (not loopback, private, link-local, shared, multicast or
  reserved), and to exactly the address that was checked (no second lookup: DNS rebinding gets nothing).

Delivery errors record the status code and the exception's class, never the push service's answer.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool

# The default PUSH_SERVICE_HOSTS (claim/settings.py): the push services of the browsers people use
# (Chrome/Edge/Opera/Samsung: FCM; Firefox: Mozilla autopush; Safari: Apple; legacy Edge: WNS).


class EndpointRefused(ValueError):
    """The endpoint may not be contacted; the message says why (no address, no answer quoted)."""


def allowed_hosts() -> tuple[str, ...]:
    return tuple(settings.PUSH_SERVICE_HOSTS)


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    host = host.lower().rstrip(".")
    return any(host == a.lstrip(".") or (a.startswith(".") and host.endswith(a)) for a in allowed)


def endpoint_pattern() -> str:
    """The endpoints :func:`endpoint_problem` accepts, as a regular expression for the OpenAPI schema:
    https on the default port at a known push service (a name with a leading dot: any name below it),
    then a path of the characters push services use (FCM's has a colon)."""
    names = []
    for host in allowed_hosts():
        name = re.escape(host.lstrip("."))
        names.append(f"(?:[a-z0-9]{{1,20}}\\.)+{name}" if host.startswith(".") else name)
    return f"^https://(?:{'|'.join(names)})(?:/[A-Za-z0-9_.~:=+-]*)*$"


def endpoint_problem(url: str) -> str | None:
    """Why ``url`` cannot be a push endpoint (a sentence for the client), or ``None``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "The endpoint is not a valid URL."
    if parts.scheme != "https":
        return "A push endpoint must be an https:// URL."
    if parts.username is not None or parts.password is not None:
        return "A push endpoint cannot carry a user name or password."
    if port not in (None, 443):
        return "A push endpoint must use the default HTTPS port."
    host = parts.hostname or ""
    try:
        ipaddress.ip_address(host)
        return "A push endpoint must name its push service, not an IP address."
    except ValueError:
        pass
    if not host_allowed(host, allowed_hosts()):
        return ("This endpoint is not at a known Web Push service (" + ", ".join(allowed_hosts()) + ").")
    return None


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_loopback or ip.is_link_local
                                 or ip.is_private or ip.is_unspecified)


def public_address(host: str, port: int) -> str:
    """The first address ``host`` resolves to, if every address it resolves to is public."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise EndpointRefused("The push service's host name does not resolve.") from None
    addresses = [str(info[4][0]) for info in infos]  # IPv4 and IPv6 socket addresses: (address text, port, …)
    if not addresses or not all(is_public(a) for a in addresses):
        raise EndpointRefused("The push service's host name resolves to a non-public address.")
    return addresses[0]


class _PublicHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> Any:
        # Connect to the checked address (SNI and the certificate check still use the host name).
        self._dns_host = public_address(self._dns_host, self.port or 443)
        return super()._new_conn()


class _PublicHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PublicHTTPSConnection


class _PublicAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"https": _PublicHTTPSPool}


def public_session() -> requests.Session:
    """A ``requests`` session that only speaks HTTPS to public addresses, following no redirects."""
    session = requests.Session()
    session.mount("https://", _PublicAdapter())
    session.mount("http://", _RefuseAdapter())
    session.max_redirects = 0
    return session


class _RefuseAdapter(HTTPAdapter):
    def send(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        raise EndpointRefused("A push endpoint must be an https:// URL.")
