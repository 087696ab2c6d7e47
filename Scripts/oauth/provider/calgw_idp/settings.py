"""Django settings of the test authorization server (Scripts/oauth/server starts it).

Everything that varies per start comes from the environment the script sets: the state folder
(SQLite database, signing key) and the port, and the knobs tests turn (token lifetimes,
rotation, device-flow timing). Loopback only, plain HTTP, never for real use.
"""

import os
from pathlib import Path

STATE = Path(os.environ["CALGW_OAUTH_STATE"])
PORT = int(os.environ["CALGW_OAUTH_PORT"])
BASE_URL = f"http://127.0.0.1:{PORT}"


def number(name, default):
    return int(os.environ.get(name) or default)


SECRET_KEY = (STATE / "django-secret").read_text().strip()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "calgw_idp",
]
MIDDLEWARE = [
    "calgw_idp.middleware.OneAtATime",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "calgw_idp.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                       "django.contrib.auth.context_processors.auth"]},
}]
# A busy machine may hold the database a moment: wait rather than fail with "locked".
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE / "db.sqlite3",
                         "OPTIONS": {"timeout": 20}}}
USE_TZ = True
STATIC_URL = "/static/"
LOGIN_URL = "/accounts/login/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Fast hashing: passwords and client secrets are checked on every request of a test.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "loggers": {"oauth2_provider": {"handlers": ["console"], "level": "WARNING"},
                       "django.request": {"handlers": ["console"], "level": "ERROR"}}}

# Seconds a device code stays valid, and the polling interval it asks for (RFC 8628).
DEVICE_CODE_SECONDS = number("CALGW_OAUTH_DEVICE_CODE_SECONDS", 600)

# When a refresh token is issued: "always" (django-oauth-toolkit's way, and Google's at first
# consent), "offline_access" (only when that scope was asked and granted: Authelia, Authentik,
# Keycloak's offline tokens; the scope is then offered and listed in the discovery document),
# or "never" (a provider set up without refresh tokens).
REFRESH_TOKENS = os.environ.get("CALGW_OAUTH_REFRESH_TOKENS") or "always"

OAUTH2_PROVIDER = {
    "OAUTH2_VALIDATOR_CLASS": "calgw_idp.validators.Validator",
    "SCOPES": {
        "openid": "your identity",
        "email": "your e-mail address",
        "profile": "your name",
        "calendar": "your calendars",
        "https://www.googleapis.com/auth/calendar": "your calendars (Google's scope name)",
        "introspection": "checking tokens (the CalDAV gate)",
        **({"offline_access": "staying signed in"} if REFRESH_TOKENS == "offline_access" else {}),
    },
    "DEFAULT_SCOPES": ["openid", "email", "calendar"],
    "PKCE_REQUIRED": True,
    # S256 only: "plain" (and a challenge without a method, which means plain) is refused.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    # http://localhost:PORT matches a registered http://localhost with any port, as
    # 127.0.0.1 and [::1] do by default (RFC 8252 section 7.3).
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": number("CALGW_OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "ID_TOKEN_EXPIRE_SECONDS": number("CALGW_OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": number("CALGW_OAUTH_REFRESH_TOKEN_SECONDS", 30 * 86400),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 120,
    # Rotation: every refresh answers a new refresh token; the one used is refused at once
    # (grace 0) unless the grace period is set. Reuse protection revokes the whole family
    # when a used refresh token comes back (RFC 9700 section 4.14.2).
    "ROTATE_REFRESH_TOKEN": number("CALGW_OAUTH_ROTATE_REFRESH_TOKEN", 1) == 1,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": number("CALGW_OAUTH_REFRESH_GRACE_SECONDS", 0),
    "REFRESH_TOKEN_REUSE_PROTECTION": number("CALGW_OAUTH_REFRESH_REUSE_PROTECTION", 0) == 1,
    "REQUEST_APPROVAL_PROMPT": "force",
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (STATE / "oidc-key.pem").read_text(),
    "OIDC_ISS_ENDPOINT": f"{BASE_URL}/o",
    "OAUTH_DEVICE_VERIFICATION_URI": f"{BASE_URL}/o/device/",
    "DEVICE_FLOW_INTERVAL": number("CALGW_OAUTH_DEVICE_INTERVAL", 1),
}
