"""Django settings, configured by environment variables only (documented in README.md).

Two shapes from the same code:

* **Embedded** (``CLAIM_EMBEDDED=1``, set by ``make run``): SQLite, Channels' in-memory layer,
  Celery tasks run in-process on a thread pool (no broker), a generated secret key. DEBUG is off here too:
  the embedded run is sometimes reached from a LAN, and Django's debug page prints whatever state a
  failing view held (docs/security.md).
* **Served** (default): ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL`` (channel layer, Celery broker
  and result backend, cache), DEBUG off, secure cookies; passes ``manage.py check --deploy``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("CLAIM_VAR_DIR", str(BASE_DIR / "var")))

EMBEDDED = env_bool("CLAIM_EMBEDDED", False)
DEBUG = env_bool("DEBUG", False)  # only for development on your own machine; never reachable by others
TESTING = env_bool("CLAIM_TESTING", False)


def _secret_key() -> str:
    key = env_str("SECRET_KEY")
    if key:
        return key
    if EMBEDDED or DEBUG or TESTING:
        # Embedded runs keep a generated key on disk so sessions survive a restart.
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path = VAR_DIR / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(50))
        return path.read_text().strip()
    raise RuntimeError("SECRET_KEY must be set (or run the embedded demo with CLAIM_EMBEDDED=1)")


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if (DEBUG or EMBEDDED) else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, no CDN
    "channels",
    "oauth2_provider",  # OAuth 2 authorization server for third-party apps (accounts/oauth.py)
    "accounts",
    "games",
    "games.ratings",
    "games.clock",
    "games.seeks",
    "games.notify",
    "games.challenges",
    "games.chat",
    "games.tournaments",
    "games.review",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # NUL / lone surrogates in the address refused; a view's unhandled exception a generic 500 (no state).
    "claim.middleware.RequestGuard",
    # RateLimit / RateLimit-Policy fields of the throttles that checked the request (claim/ratelimit.py).
    "claim.ratelimit.RateLimitHeaders",
    # WhiteNoise, async-capable: every middleware here is, so ASGI requests stay on the event loop
    # until the view (one hand-off to a thread per request, docs/performance.md).
    "claim.frontend_urls.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "claim.urls"
ASGI_APPLICATION = "claim.asgi.application"
WSGI_APPLICATION = None
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "claim" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
_default_db = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL", _default_db if (EMBEDDED or DEBUG) else "")
if not DATABASE_URL:
    raise RuntimeError("DATABASE_URL must be set, e.g. postgres://user:pass@127.0.0.1:5432/claim")
if DATABASE_URL.startswith("sqlite"):
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # psycopg's connection pool: ASGI serves requests from many threads, where persistent
    # per-thread connections (CONN_MAX_AGE) pile up; a pool reuses a bounded set.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN", 2),
        "max_size": env_int("DB_POOL_MAX", 20),
        "timeout": env_int("DB_POOL_TIMEOUT", 10),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server and statements prepared after psycopg's default 5 uses on a connection:
    # PostgreSQL parses and plans each of a move's statements once per connection, not once per move
    # (docs/performance.md). Needs a direct connection or a pooler that keeps prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 5})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # IMMEDIATE: a transaction takes the write lock when it begins, so concurrent writers (requests
        # and in-process tasks) wait up to the timeout instead of failing with "database is locked".
        {"timeout": 20, "transaction_mode": "IMMEDIATE",
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, Celery, cache -------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    # CHANNEL_LAYER=pubsub: Redis pub/sub, each message pushed to the subscribed servers as it is
    # published; =lists: channels_redis' list-based layer (a BZPOPMIN round trip per message received,
    # per-channel capacity and expiry). docs/performance.md compares them.
    CHANNEL_LAYER = env_str("CHANNEL_LAYER", "pubsub")
    # Redis pub/sub ignores the database number: two deployments on one Redis server (staging on /5,
    # production on /6) would hear each other's "user.<id>" groups. Every channel and group name carries
    # CHANNEL_PREFIX, by default derived from this deployment's secret key and Redis database (a hash:
    # it reveals neither). Servers of one deployment share both, so they share the prefix.
    CHANNEL_PREFIX = env_str("CHANNEL_PREFIX", "") or "claim-" + hashlib.sha256(
        f"channels|{SECRET_KEY}|{urlsplit(REDIS_URL).path.lstrip('/') or '0'}".encode()).hexdigest()[:16]
    if CHANNEL_LAYER == "pubsub":
        CHANNEL_LAYERS = {
            "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                        "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_PREFIX}}
        }
    elif CHANNEL_LAYER == "lists":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30, "prefix": CHANNEL_PREFIX},
            }
        }
    else:
        raise ValueError(f"CHANNEL_LAYER must be 'pubsub' or 'lists', got {CHANNEL_LAYER!r}")
    # django-redis: one Redis client per cache instance (Django's RedisCache builds a client per call).
    CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# WORKER_NICE: the Celery worker runs that much nicer than the web servers, so under a burst of background
# work the CPU goes first to the moves and pushes; idle CPU is its all the same.
WORKER_NICE = env_int("WORKER_NICE", 10)
# The game_changed receivers (notifications, clocks) get the changes of this many milliseconds as one task
# (games/signals.py): the worker and the database pay mostly per task, not per change.
GAME_CHANGED_BATCH_MS = env_int("GAME_CHANGED_BATCH_MS", 250)

# How background tasks run: "celery" (a broker is configured), "thread" (in-process pool, the
# embedded default: never blocks the request that caused it) or "eager" (inline; some tests).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", REDIS_URL or "")
TASK_MODE = env_str("CLAIM_TASK_MODE", "celery" if CELERY_BROKER_URL else "thread")
CELERY_TASK_ACKS_LATE = True
# Nothing reads task results; storing them made every enqueue subscribe to a result channel.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Queues: everything on Celery's default queue ("celery") but the long computations of game reviews (games/review,
# tens of seconds of CPU each), on their own queue "review" so they never delay an AI's turn: served, a worker
# consumes it (docker/compose.yml "review-worker": -Q review); embedded, claim.tasks gives it its own thread.
CELERY_TASK_ROUTES = {"review.compute": {"queue": "review"}}
# Celery's Django fixup closes every database connection before and after each task unless this is
# set (a new PostgreSQL backend per task: 5 connections/s at 200 moves/s, docs/performance.md seventh
# round). With it the fixup leaves them open and claim.celery applies Django's own per-request policy
# (close_old_connections: CONN_MAX_AGE, unusable connections) around each task instead.
CELERY_DB_REUSE_MAX = 2**62
# Redis broker: a task taken by a worker that dies before acknowledging it (acks_late) goes back to the queue
# once it has been unacknowledged this long. Production keeps kombu's default, 1 hour (longer than any
# countdown we use, so no task runs twice for waiting); a worker looks for such tasks every 100 s (kombu:
# unacked_restore_interval 10 s x throttle 10). The fault tests lower both (docs/testing.md).
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
if env_str("CELERY_RESTORE_SWEEP_SECONDS"):
    CELERY_BROKER_TRANSPORT_OPTIONS.update(unacked_restore_interval=env_int("CELERY_RESTORE_SWEEP_SECONDS", 100),
                                           unacked_restore_throttle=1)
# Correspondence timings, shortened by the journey tests only (tests/journeys, docs/testing.md): the
# length of one "day" of a days-per-move deadline, and how long "Play now" waits before the AI fallback.
CLOCK_DAY_SECONDS = env_int("CLOCK_DAY_SECONDS", 86400)
SEEK_AI_FALLBACK_SECONDS = env_int("SEEK_AI_FALLBACK_SECONDS", 120)
VACATION_START_DAYS = env_int("VACATION_START_DAYS", 7)  # a newcomer's vacation days (docs/correspondence.md)
SEEK_MAX_OPEN = env_int("SEEK_MAX_OPEN", 10)  # open seeks per user (games/seeks/service.py)
SEEK_PAIR_CHUNK = env_int("SEEK_PAIR_CHUNK", 50)  # groups per game-making task of a pairing round (seeks.tasks)
# Held connections per server process (games/realtime/limits.py, docs/security.md "Held connections"): WebSockets
# per user, and WebSockets plus NDJSON streams per client address.
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 16)
CONNECTIONS_PER_ADDRESS = env_int("CONNECTIONS_PER_ADDRESS", 100)
CELERY_BEAT_SCHEDULE: dict = {
    # Safety net: an AI seat whose turn task was lost (crash between commit and enqueue) moves.
    "resume-ai-turns": {"task": "games.resume_ai_turns", "schedule": 60.0},
    # Correspondence (issue 6, docs/correspondence.md): deadlines, pairing, reminders, digest, ratings net.
    "expire-deadlines": {"task": "clock.expire_deadlines", "schedule": float(env_int("CLOCK_BEAT_SECONDS", 60))},
    "pair-seeks": {"task": "seeks.pair_all", "schedule": float(env_int("SEEK_BEAT_SECONDS", 60))},
    "expire-challenges": {"task": "challenges.expire", "schedule": 60.0},
    "deadline-reminders": {"task": "notify.send_reminders", "schedule": 600.0},
    "daily-digest": {"task": "notify.send_digests", "schedule": 3600.0},
    "rate-missed-games": {"task": "ratings.rate_unrated_games", "schedule": 900.0},
    # Tournaments (issue 36, docs/tournaments.md): start those due, adjudicate games past the maximum duration.
    "tournaments-tick": {"task": "tournaments.tick", "schedule": float(env_int("TOURNAMENT_BEAT_SECONDS", 300))},
}

# --- Auth and accounts -------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
# The session's user by a compiled SELECT (accounts/backends.py); Django's ModelBackend for sessions naming it.
AUTHENTICATION_BACKENDS = ["accounts.backends.UserBackend", "django.contrib.auth.backends.ModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("cs", "Čeština")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (the PWA build lands in frontend/dist) -------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [p for p in [BASE_DIR / "frontend" / "dist"] if p.exists()]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if (DEBUG or TESTING)
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- E-mail -------------------------------------------------------------------------------------
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "claim <noreply@localhost>")
# Where password-reset links point (the PWA's reset page).
FRONTEND_URL = env_str("FRONTEND_URL", "http://127.0.0.1:8000")

# --- Web Push (VAPID) ---------------------------------------------------------------------------
def _embedded_vapid_keys() -> tuple[str, str]:
    """The embedded run makes its own Web Push key pair once, into ``VAR_DIR/vapid.json`` (as it does the
    secret key), so permission -> subscription -> push works on the one-command app. Returns (public
    key: the uncompressed P-256 point, private key: its 32-byte value), both base64url as VAPID wants."""
    path = VAR_DIR / "vapid.json"
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        raw = key.private_numbers().private_value.to_bytes(32, "big")
        point = key.public_key().public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"public": b64(point), "private": b64(raw)}))
        path.chmod(0o600)
    keys = json.loads(path.read_text())
    return keys["public"], keys["private"]


VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
if EMBEDDED and not (VAPID_PUBLIC_KEY or VAPID_PRIVATE_KEY):
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = _embedded_vapid_keys()
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:admin@localhost")
# The push services a subscription's endpoint may name (games/notify/endpoints.py): a host, or ".domain".
PUSH_SERVICE_HOSTS = env_list("PUSH_SERVICE_HOSTS", ["fcm.googleapis.com", "android.googleapis.com",
                                                     ".push.services.mozilla.com", ".push.apple.com",
                                                     ".notify.windows.com"])

# --- REST framework -----------------------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Token scopes apply to every endpoint by default: GET needs games:read, writes games:play
    # (views with their own permission_classes, e.g. accounts, state theirs).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated", "games.api.permissions.GameScopes"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "claim.api_errors.exception_handler",
    # JSON only, bounded depth, no NUL / lone surrogates (claim/parsers.py); a form post gets 415.
    "DEFAULT_PARSER_CLASSES": ["claim.parsers.JSONParser"],
    # JSON answers whatever Accept says (claim/negotiation.py): no HTML page under /api/.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "claim.negotiation.JSONWhateverAccept",
    "DEFAULT_METADATA_CLASS": "claim.api_metadata.EndpointMetadata",
    "DEFAULT_THROTTLE_CLASSES": [
        # DRF's throttles on the default cache, reporting RateLimit fields (claim/throttling.py).
        "claim.throttling.AnonRateThrottle",
        "claim.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("THROTTLE_ANON", "120/min"),
        "user": env_str("THROTTLE_USER", "1200/min"),
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "invite_preview": env_str("THROTTLE_INVITE_PREVIEW", "30/min"),
        # failed logins per account from all addresses; a browser that logged in to it before is exempt
        # (accounts/throttles.py LoginAccountThrottle; "N/<k>min" windows allowed)
        "login_account": env_str("THROTTLE_LOGIN_ACCOUNT", "30/15min"),
        "register": env_str("THROTTLE_REGISTER", "20/hour"),
        "password_reset": env_str("THROTTLE_PASSWORD_RESET", "5/hour"),
        "moves": env_str("THROTTLE_MOVES", "600/min"),
        "games_create": env_str("THROTTLE_GAMES_CREATE", "200/hour"),
        # anonymous game exports, per address, on top of "anon" (games/api/export.py; issue #32)
        "export_anon": env_str("THROTTLE_EXPORT_ANON", "10/min"),
        "privacy": env_str("THROTTLE_PRIVACY", "60/hour"),  # your data's export and the account's deletion
        # +time, pause, resume, vacation bookings (games/clock/api.py; the limits per game: docs/rulings.md)
        "clock": env_str("THROTTLE_CLOCK", "30/hour"),
        # chat lines per user, every game together, and at once (games/chat/api.py); reports per user
        "chat": env_str("THROTTLE_CHAT", "8/min"),
        "chat_burst": env_str("THROTTLE_CHAT_BURST", "3/10s"),
        "reports": env_str("THROTTLE_REPORTS", "10/hour"),
        # follows, blocks and mutes added or removed, per user (games/social/api.py)
        "social": env_str("THROTTLE_SOCIAL", "60/min"),
        # game reviews requested, per user (games/review/api.py): each is seconds of CPU in the background
        "review": env_str("THROTTLE_REVIEW", "20/hour"),
    },
    "DEFAULT_PAGINATION_CLASS": "claim.pagination.BoundedLimitOffsetPagination",  # limit <= 200 (claim/pagination.py)
    "PAGE_SIZE": 50,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Throttles key on the client IP: trust X-Forwarded-For only behind our own proxy.
    "NUM_PROXIES": 1 if env_bool("BEHIND_PROXY", False) else 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "claim API",
    "DESCRIPTION": "Correspondence play of Claim, Claim 2 and Inheritors. See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # The error answers every operation can give (parser, auth, CSRF, throttles...), added once (claim/openapi.py);
    # the NDJSON streams, an ASGI layer and not DRF views, with their own errors (games/stream_schema.py).
    # The engines' JSON shapes (moves, views, events, results) from their TypedDicts, after the enum hook
    # (games/api/typed_schema.py); OAuth's token and revocation endpoints (django-oauth-toolkit's, not DRF views).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "games.api.typed_schema.add_typed_components", "claim.openapi.add_common_errors",
                             "games.stream_schema.add_stream_paths", "accounts.openapi.add_oauth_endpoints"],
    # The docs page's "Authorize" uses the authorization code grant with PKCE, as the server requires.
    "SWAGGER_UI_SETTINGS": {"usePkceWithAuthorizationCodeGrant": True},
    "COMPONENT_SPLIT_REQUEST": True,
    # ``<id:…>`` path segments (claim/ids.py) are integers, as the same ids are in bodies and answers.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 1,
                                        "maximum": 2**63 - 1}},
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.api.serializers.GAME_STATUSES",
        "OpponentTypeEnum": "games.api.serializers.OPPONENT_TYPES",
        "NewTimeControlTypeEnum": "games.api.serializers.NEW_TIME_CONTROL_TYPES",
        "TimeControlTypeEnum": "games.api.serializers.TIME_CONTROL_TYPES",
        "ChallengeStatusEnum": "games.challenges.models.CHALLENGE_STATUSES",
        "DeclineReasonEnum": "games.challenges.service.DECLINE_REASON_CHOICES",
        "RematchOfferKindEnum": "games.api.serializers.REMATCH_OFFER_KINDS",
        "ChatRoomEnum": "games.api.serializers.CHAT_ROOMS",
        "ChatPhraseEnum": "games.chat.phrases.CODES",
        "ReportReasonEnum": "games.chat.models.REPORT_REASONS",
        "SeekStatusEnum": "games.seeks.schema.SEEK_STATUSES",
        "GameKindEnum": "games.rules.registry.KINDS",
        "TournamentStatusEnum": "games.tournaments.models.TOURNAMENT_STATUSES",
        "TournamentFormatEnum": "games.tournaments.models.TOURNAMENT_FORMATS",
        "LeagueStatusEnum": "games.tournaments.models.LEAGUE_STATUSES",
    },
    # The docs page loads Swagger UI from our own static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- OAuth 2 for third-party apps (django-oauth-toolkit; accounts/oauth.py, docs/api.md "OAuth") -----------
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "accounts.oauth.ApiScopes",  # the personal tokens' scope list (accounts/scopes.py)
    "PKCE_REQUIRED": True,
    # RFC 9700: S256 only (plain refused), no implicit or password grant, tokens stored as SHA-256 only.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,  # DOT's own resource views (we use accounts/oauth.py)
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # RFC 9207: the redirect carries iss (mix-up defence)
    "ACCESS_TOKEN_GENERATOR": "accounts.oauth.new_access_token",
    "REFRESH_TOKEN_GENERATOR": "accounts.oauth.new_refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_REFRESH_TOKEN_SECONDS", 60 * 60 * 24 * 60),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # Native apps use a loopback or private-use scheme redirect (RFC 8252); exact match, no wildcards.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"] if (DEBUG or EMBEDDED or TESTING) else ["https"],
    "ALLOW_URI_WILDCARDS": False,
    # The admin's application form offers only the authorization code grant (accounts/oauth_admin.py).
    "APPLICATION_ADMIN_CLASS": "accounts.oauth_admin.OAuthApplicationAdmin",
}

# --- Security (production defaults; relaxed only for the embedded run / DEBUG) ------------------
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not (DEBUG or EMBEDDED or TESTING))
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not (DEBUG or EMBEDDED or TESTING))
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not (DEBUG or EMBEDDED or TESTING))
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if (DEBUG or EMBEDDED or TESTING) else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not (DEBUG or EMBEDDED or TESTING)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not (DEBUG or EMBEDDED or TESTING))
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # correspondence players stay logged in on their phone
# Sessions read from the cache (Redis when REDIS_URL is set), written through to the database: a PWA request
# costs no session query, and a session survives a cache flush.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
X_FRAME_OPTIONS = "DENY"
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
