"""Fills a fresh database: the user alice, the two clients calgw signs in with and the
CalDAV gate's own client; writes every fact a test needs to STATE/server.env (KEY=VALUE lines,
also printed by `Scripts/oauth/server start`).

    CALGW_OAUTH_STATE=DIR CALGW_OAUTH_PORT=N DJANGO_SETTINGS_MODULE=calgw_idp.settings \\
        python3 -m calgw_idp.seed
"""

import os
import secrets

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

USER, EMAIL = "alice", "alice@example.org"
SCOPES = "openid email calendar"
# RFC 8252 section 7.3: loopback addresses match with any port. The path must match exactly,
# so both the bare origin and "/" are registered for each loopback host.
LOOPBACK = " ".join(f"http://{host}{path}" for host in ("127.0.0.1", "[::1]", "localhost") for path in ("", "/"))


def main():
    base = settings.BASE_URL
    password = secrets.token_urlsafe(12)
    confidential_secret = "calgw-secret-" + secrets.token_urlsafe(16)
    gate_secret = "calgw-caldav-" + secrets.token_urlsafe(16)

    user = get_user_model().objects.create_user(USER, EMAIL, password)
    common = dict(user=user, redirect_uris=LOOPBACK, algorithm=Application.RS256_ALGORITHM,
                  authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, skip_authorization=False)
    # A native app with no secret (Microsoft, a generic server), and one that carries a secret
    # that protects nothing, as Google's desktop clients do. DOT hashes secrets on save.
    Application.objects.create(client_id="calgw", name="calgw", client_type="public",
                               client_secret="", **common)
    Application.objects.create(client_id="calgw-secret", name="calgw (with a secret)",
                               client_type="confidential", client_secret=confidential_secret, **common)
    # The CalDAV gate (Scripts/proxies/bearer_proxy.py) authenticates to the introspection
    # endpoint with these client credentials.
    Application.objects.create(client_id="calgw-caldav", name="CalDAV gate", client_type="confidential",
                               client_secret=gate_secret, authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS)

    facts = {
        "CALGW_OAUTH_URL": f"{base}/",
        "CALGW_OAUTH_ISSUER": f"{base}/o",
        "CALGW_OAUTH_DISCOVERY": f"{base}/o/.well-known/openid-configuration",
        "CALGW_OAUTH_AUTHORIZATION_ENDPOINT": f"{base}/o/authorize/",
        "CALGW_OAUTH_TOKEN_ENDPOINT": f"{base}/o/token/",
        "CALGW_OAUTH_DEVICE_AUTHORIZATION_ENDPOINT": f"{base}/o/device-authorization/",
        "CALGW_OAUTH_DEVICE_VERIFICATION_URI": f"{base}/o/device/",
        "CALGW_OAUTH_REVOCATION_ENDPOINT": f"{base}/o/revoke_token/",
        "CALGW_OAUTH_INTROSPECTION_ENDPOINT": f"{base}/o/introspect/",
        "CALGW_OAUTH_USERINFO_ENDPOINT": f"{base}/o/userinfo/",
        "CALGW_OAUTH_LOGIN_URL": f"{base}{settings.LOGIN_URL}",
        "CALGW_OAUTH_SCOPES": SCOPES,
        "CALGW_OAUTH_CLIENT_ID": "calgw",
        "CALGW_OAUTH_CONFIDENTIAL_CLIENT_ID": "calgw-secret",
        "CALGW_OAUTH_CONFIDENTIAL_CLIENT_SECRET": confidential_secret,
        "CALGW_OAUTH_INTROSPECTION_CLIENT_ID": "calgw-caldav",
        "CALGW_OAUTH_INTROSPECTION_CLIENT_SECRET": gate_secret,
        "CALGW_OAUTH_USER": USER,
        "CALGW_OAUTH_PASSWORD": password,
        "CALGW_OAUTH_EMAIL": EMAIL,
        "CALGW_OAUTH_ACCESS_TOKEN_SECONDS": settings.OAUTH2_PROVIDER["ACCESS_TOKEN_EXPIRE_SECONDS"],
    }
    path = settings.STATE / "server.env"
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(f"{key}={value}\n" for key, value in facts.items())
    os.chmod(path, 0o600)


if __name__ == "__main__":
    main()
