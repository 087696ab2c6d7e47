"""Device-flow behaviour DOT 3.4.1 leaves out, added around its views.

- The device code lives CALGW_OAUTH_DEVICE_CODE_SECONDS (DOT always says 1800).
- Polling after that answers `expired_token` (DOT only expires a code when someone enters it).
- Polling sooner than the interval answers `slow_down` and adds 5 s to the interval for the
  rest of that code's polls (RFC 8628 section 3.5; a TODO in DOT).
- A device code gives one token: polling again afterwards answers `invalid_grant`.

An authorization answered as Microsoft Entra ID answers a tenant or app it refuses, where
CALGW_OAUTH_AUTHORIZE_ERROR="CODE:DESCRIPTION" is set (e.g. `invalid_request:AADSTS50194: …`):
the browser is sent back to the client with `error`, `error_description` and the `state`, and
the device authorization endpoint answers 400 with the same error in JSON.

And refresh tokens only where settings.REFRESH_TOKENS says (`offline_access`: only when that
scope was granted; `never`): the token answer then carries none, and none is kept.
"""

import json
import os
import threading
import urllib.parse
import time
from datetime import datetime, timedelta, timezone

from django import http
from django.conf import settings
from oauth2_provider import views as dot
from oauth2_provider.models import get_device_grant_model, get_refresh_token_model

# device_code -> (monotonic time of its last poll, its interval now). One server process.
_polls = {}
_polls_lock = threading.Lock()


def _without_unearned_refresh_token(response):
    """The token answer without its refresh token where this server issues none for it."""
    if settings.REFRESH_TOKENS == "always" or response.status_code != 200:
        return response
    body = json.loads(response.content)
    token = body.get("refresh_token")
    if token is None:
        return response
    if settings.REFRESH_TOKENS == "offline_access" and "offline_access" in body.get("scope", "").split():
        return response
    get_refresh_token_model().objects.filter(token=token).delete()
    del body["refresh_token"]
    fixed = http.JsonResponse(body, status=200)
    for header in ("Cache-Control", "Pragma"):
        if header in response:
            fixed[header] = response[header]
    return fixed


def _error(code, status=400):
    return http.JsonResponse({"error": code}, status=status)


def _configured_refusal():
    """(error, description) from CALGW_OAUTH_AUTHORIZE_ERROR, or None."""
    configured = os.environ.get("CALGW_OAUTH_AUTHORIZE_ERROR")
    if not configured:
        return None
    error, _, description = configured.partition(":")
    return error, description.strip()


class AuthorizationView(dot.AuthorizationView):
    def get(self, request, *args, **kwargs):
        refusal = _configured_refusal()
        redirect_uri = request.GET.get("redirect_uri")
        if refusal is None or not redirect_uri:
            return super().get(request, *args, **kwargs)
        query = {"error": refusal[0], "error_description": refusal[1]}
        if request.GET.get("state"):
            query["state"] = request.GET["state"]
        return http.HttpResponseRedirect(redirect_uri + "?" + urllib.parse.urlencode(query))


class DeviceAuthorizationView(dot.DeviceAuthorizationView):
    def post(self, request, *args, **kwargs):
        refusal = _configured_refusal()
        if refusal is not None:
            return http.JsonResponse({"error": refusal[0], "error_description": refusal[1]}, status=400)
        response = super().post(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        body = json.loads(response.content)
        lifetime = settings.DEVICE_CODE_SECONDS
        get_device_grant_model().objects.filter(device_code=body["device_code"]).update(
            expires=datetime.now(tz=timezone.utc) + timedelta(seconds=lifetime))
        body["expires_in"] = lifetime
        return http.JsonResponse(body, status=200)


class TokenView(dot.TokenView):
    def post(self, request, *args, **kwargs):
        return _without_unearned_refresh_token(super().post(request, *args, **kwargs))

    def device_flow_token_response(self, request, device_code, *args, **kwargs):
        grant = get_device_grant_model().objects.filter(device_code=device_code).first()
        if grant is None:
            return _error("invalid_grant")
        if grant.status == grant.AUTHORIZATION_PENDING:
            if grant.is_expired():
                return _error("expired_token")
            now = time.monotonic()
            with _polls_lock:
                # DOT stores 5 in every grant whatever interval it announced: use the announced one.
                last, interval = _polls.get(device_code, (None, settings.OAUTH2_PROVIDER["DEVICE_FLOW_INTERVAL"]))
                too_soon = last is not None and now - last < interval
                if too_soon:
                    interval += 5
                _polls[device_code] = (now, interval)
            if too_soon:
                return _error("slow_down")
        response = super().device_flow_token_response(request, device_code, *args, **kwargs)
        if response.status_code == 200:
            grant.delete()
        return response
