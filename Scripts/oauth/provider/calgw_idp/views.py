"""Device-flow behaviour DOT 3.4.1 leaves out, added around its views.

- The device code lives CALGW_OAUTH_DEVICE_CODE_SECONDS (DOT always says 1800).
- Polling after that answers `expired_token` (DOT only expires a code when someone enters it).
- Polling sooner than the interval answers `slow_down` and adds 5 s to the interval for the
  rest of that code's polls (RFC 8628 section 3.5; a TODO in DOT).
- A device code gives one token: polling again afterwards answers `invalid_grant`.
"""

import json
import threading
import time
from datetime import datetime, timedelta, timezone

from django import http
from django.conf import settings
from oauth2_provider import views as dot
from oauth2_provider.models import get_device_grant_model

# device_code -> (monotonic time of its last poll, its interval now). One server process.
_polls = {}
_polls_lock = threading.Lock()


def _error(code, status=400):
    return http.JsonResponse({"error": code}, status=status)


class DeviceAuthorizationView(dot.DeviceAuthorizationView):
    def post(self, request, *args, **kwargs):
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
