#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer; starts them with the
# machine's own commands if they are down; says clearly what is missing otherwise.
set -uo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! pg_up; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "==> starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
  pg_up || { echo "error: PostgreSQL is not reachable on 127.0.0.1:5432 and could not be started (install postgresql, or set DATABASE_URL)" >&2; exit 1; }
fi
if ! redis_up; then
  if command -v redis-server >/dev/null; then
    echo "==> starting Redis"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    for _ in $(seq 1 30); do redis_up && break; sleep 1; done
  fi
  redis_up || { echo "error: Redis is not reachable on 127.0.0.1:6379 and could not be started (install redis-server, or set REDIS_URL)" >&2; exit 1; }
fi
echo "==> PostgreSQL and Redis are up"
