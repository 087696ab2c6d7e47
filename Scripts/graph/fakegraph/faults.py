"""Faults a test injects through POST /_fake/faults, each good for `count` requests.

A rule matches a request by method and by a substring of its path (both optional):
  {"status": 429, "retryAfter": 2}            throttled (Retry-After in seconds)
  {"status": 503} / {"status": 504}           service faults seen mid-delta-round
  {"kind": "syncStateNotFound"}               a delta or skip token answers 410
  {"kind": "repeatPage"}                      a $skiptoken page links to itself (a loop)
  {"kind": "endlessPages"}                    a delta page (its first included) answers the same
                                              content with a *different* nextLink each time, so
                                              the round never ends (msgraph-sdk-dotnet #3082,
                                              #3070: seen on some mailboxes in 2026); with
                                              "empty": true each such page is empty
  {"kind": "calendarIdChanges"}               POST /me/calendars answers an id other than the one the
                                              calendar lists with later (both are taken: docs #5580, #4007)
  {"kind": "editFirst", "body": {...}}        another client (Outlook on the web) PATCHes the
                                              event with `body` just before this request on it;
                                              "id" names the event (any request then matches),
                                              "after": true edits just after the request was
                                              answered (between a client's listing and its write)
A status rule may also say
  "every": n     it answers only each n-th request it matches (a storm that lets the rest through)
  "after": true  the request is done first and its answer lost: the fault replaces it (a 504
                 from a gateway that timed out while the mailbox did the work)
Default error bodies are Graph's (research notes §3, §7); "code" and "message" override them.
"""

import threading

DEFAULT_ERRORS = {
    412: ("ErrorIrresolvableConflict", "The send or update operation could not be performed because the change "
                                       "key passed in the request does not match the current change key for the item."),
    429: ("ApplicationThrottled", "Application is over its MailboxConcurrency limit."),
    500: ("ErrorInternalServerTransientError", "An internal server error occurred. The operation failed."),
    502: ("UnknownError", ""),
    503: ("ServiceUnavailable", "The service is temporarily unavailable. Please retry later."),
    504: ("UnknownError", ""),
}
KINDS = ("status", "syncStateNotFound", "repeatPage", "endlessPages", "calendarIdChanges", "editFirst")


class FaultError(ValueError):
    pass


class Faults:
    def __init__(self):
        self.lock = threading.Lock()
        self.rules = []

    def add(self, rule):
        if not isinstance(rule, dict):
            raise FaultError("a fault is a JSON object")
        kind = rule.get("kind", "status")
        if kind not in KINDS:
            raise FaultError(f"unknown fault kind {kind!r}; known: {', '.join(KINDS)}")
        if kind == "status" and not isinstance(rule.get("status"), int):
            raise FaultError("a status fault needs an integer status")
        rule = {"kind": kind, "count": int(rule.get("count", 1)), **{k: v for k, v in rule.items() if k not in ("kind", "count")}}
        with self.lock:
            self.rules.append(rule)
        return rule

    def clear(self):
        with self.lock:
            self.rules.clear()

    def list(self):
        with self.lock:
            return [dict(r) for r in self.rules]

    def take(self, kind, method, target):
        """The first live rule of `kind` matching this request, its count spent; else None."""
        with self.lock:
            for rule in self.rules:
                if rule["kind"] != kind or rule["count"] <= 0:
                    continue
                if rule.get("method") and rule["method"].upper() != method.upper():
                    continue
                if rule.get("path") and rule["path"] not in target:
                    continue
                every = int(rule.get("every", 1))
                if every > 1:
                    rule["seen"] = rule.get("seen", 0) + 1
                    if rule["seen"] % every:
                        continue
                rule["count"] -= 1
                return dict(rule)
            return None


def error_for(rule):
    """(status, code, message, headers) of a status fault."""
    status = rule["status"]
    code, message = DEFAULT_ERRORS.get(status, ("UnknownError", ""))
    headers = {}
    if "retryAfter" in rule:
        headers["Retry-After"] = str(rule["retryAfter"])
    elif status == 429:
        headers["Retry-After"] = "1"
    return status, rule.get("code", code), rule.get("message", message), headers
