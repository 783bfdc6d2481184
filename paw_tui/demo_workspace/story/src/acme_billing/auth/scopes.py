"""Scope checks for route handlers: ``@requires_scope("invoices:write")``."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

Handler = Callable[[Request], Awaitable[Response]]


def has_scope(request: Request, scope: str) -> bool:
    """Whether the caller was granted ``scope``; ``invoices:*`` grants every invoices scope."""
    granted = set(request.auth.scopes) if "auth" in request.scope else set()
    domain = scope.split(":", 1)[0]
    return scope in granted or f"{domain}:*" in granted


def insufficient_scope(scope: str) -> JSONResponse:
    """403 with the header RFC 6750 section 3.1 asks for, so clients know what to request."""
    return JSONResponse(
        {"error": "insufficient_scope", "scope": scope},
        status_code=403,
        headers={"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{scope}"'},
    )


def requires_scope(scope: str) -> Callable[[Handler], Handler]:
    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def checked(request: Request) -> Response:
            if not has_scope(request, scope):
                return insufficient_scope(scope)
            return await handler(request)

        return checked

    return decorate
