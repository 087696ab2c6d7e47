"""One request at a time. SQLite under concurrent writers answers "database is locked" (500s),
and redeeming a refresh token is only atomic if nothing else runs meanwhile (SQLite ignores
SELECT ... FOR UPDATE): two clients refreshing with the same token at once must see one
success and one invalid_grant, as on a real server. The test load is small; order is cheap."""

import threading

_lock = threading.Lock()


class OneAtATime:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with _lock:
            return self.get_response(request)
