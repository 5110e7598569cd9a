#!/usr/bin/env bash
# One command, fresh machine: install, migrate, build, and serve the whole app on embedded
# defaults (SQLite in var/, in-memory channel layer, background tasks in-process).
# Safe to run again: it keeps var/db.sqlite3 and only applies new migrations.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

export CLAIM_EMBEDDED=1
export CLAIM_EMBEDDED_BEAT=1  # deadlines, reminders, pairing run in-process (claim/tasks.py)
unset REDIS_URL CELERY_BROKER_URL || true
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
# Links in e-mails (the password-reset link, notification mail) point at this server unless FRONTEND_URL is set.
case "$HOST" in
  0.0.0.0 | :: | "[::]") link_host=127.0.0.1 ;;
  *:*) link_host="[${HOST#[}"; link_host="${link_host%]}]" ;;
  *) link_host=$HOST ;;
esac
export FRONTEND_URL=${FRONTEND_URL:-http://$link_host:$PORT}

echo "==> applying migrations (SQLite: var/db.sqlite3)"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py collectstatic --noinput -v 0

echo
echo "    claim is running: open http://$HOST:$PORT/   (API docs: http://$HOST:$PORT/api/v1/docs/)"
echo "    e-mail is not sent: each message (password-reset links included) is printed in this log"
echo "    links in e-mails point at $FRONTEND_URL (set FRONTEND_URL to change that)"
echo "    stop with Ctrl+C"
echo
# One process (--workers 1 whatever WEB_CONCURRENCY says): the embedded channel layer and cache live in its memory.
# No proxy in front: --no-proxy-headers, so a client's X-Forwarded-For never stands for its address (throttles).
# Held connections (docs/security.md): a keep-alive connection idle 5 s after an answer is closed; a socket whose
# peer stops answering pings (every 20 s) is closed 20 s later. uvicorn has no timeout for slow header fields or
# bodies: serve beyond this machine behind the proxy (docker/Caddyfile), which has them.
exec .venv/bin/uvicorn claim.asgi:application --host "$HOST" --port "$PORT" --workers 1 --lifespan off --log-level warning \
    --http httptools --loop uvloop --ws-per-message-deflate false --no-access-log --no-proxy-headers \
    --timeout-keep-alive 5 --ws-ping-interval 20 --ws-ping-timeout 20
