"""WSGI entry point: Django's HTTP on a thread server (gunicorn, production) beside uvicorn's sockets.

Imported in each worker process (no ``--preload``): each starts its own background event loop, from which
its request threads' pushes go out (claim/loops.py; docs/architecture.md, "Process model").
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
application = get_wsgi_application()

from claim.loops import start_background_loop  # noqa: E402

# Pushes (channel-layer sends) of the request threads go out on this process's one loop (claim/loops.py).
start_background_loop()
