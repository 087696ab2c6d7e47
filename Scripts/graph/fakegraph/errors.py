"""Graph's error answers: `{"error": {"code", "message", "innerError": {...}}}`
(docs: concepts/errors.md), raised as GraphError anywhere and written by the HTTP layer."""


class GraphError(Exception):
    """An error answer: HTTP status, Graph error code, message, extra response headers."""

    def __init__(self, status, code, message, headers=None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def bad_request(message, code="ErrorInvalidRequest"):
    return GraphError(400, code, message)


def not_found(what="The specified object was not found in the store."):
    return GraphError(404, "ErrorItemNotFound", what)


def stale_change_key():
    return GraphError(412, "ErrorIrresolvableConflict",
                      "The send or update operation could not be performed because the change key passed "
                      "in the request does not match the current change key for the item.")


def access_denied():
    return GraphError(403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.")
