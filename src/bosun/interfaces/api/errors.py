"""Every error the API returns is JSON `{error, detail}` with its status; never a stack trace."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from bosun.errors import (
    BosunError,
    ConfigError,
    Forbidden,
    RunFailure,
    Unauthorized,
    UnknownThread,
    UserError,
)
from bosun.interfaces.api.numbers import UNHELD, CheckedRoute

log = logging.getLogger("bosun.api")
_PLACES = ("body", "path", "query", "header")  # where a field stands, left out of its name


class ApiError(Exception):
    """An error the API answers with a status of its own choosing (404 unknown thread, 413 too
    long)."""

    def __init__(self, status: int, error: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.error, self.detail = status, error, detail


def error_response(status: int, error: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": error, "detail": detail}, status_code=status)


def status_of(exc: BosunError) -> tuple[int, str]:
    """User mistakes are 400, outside failures (engine down, store locked) 503, configuration
    500; the caller's cluster credentials missing or refused 401, not allowed what was asked 403,
    a thread that is none of the caller's 404."""
    if isinstance(exc, Unauthorized):
        return 401, "unauthorized"
    if isinstance(exc, Forbidden):
        return 403, "forbidden"
    if isinstance(exc, UnknownThread):
        return 404, "unknown_thread"
    if isinstance(exc, UserError):
        return 400, "bad_request"
    if isinstance(exc, RunFailure):
        return 503, "unavailable"
    if isinstance(exc, ConfigError):
        return 500, "misconfigured"
    return 500, "error"


def _field(loc: Sequence[object]) -> str:
    """A field's name from its place in the request: `rows.3.1`, not `body.rows.3.1`."""
    parts = loc[1:] if loc and loc[0] in _PLACES else loc
    return ".".join(str(part) for part in parts)


def install(app: FastAPI) -> None:
    """Register the handlers that turn exceptions into `{error, detail}`, and make every route
    declared from now on check its request's numbers (`numbers.CheckedRoute`)."""
    app.router.route_class = CheckedRoute

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.error, exc.detail)

    @app.exception_handler(BosunError)
    async def _bosun(_: Request, exc: BosunError) -> JSONResponse:
        status, error = status_of(exc)
        return error_response(status, error, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        """400 naming the field; 422 for a number no number type holds (NaN, 1e400, 2⁶⁴)."""
        first = exc.errors()[0]
        detail = f"{_field(first.get('loc', ()))}: {first.get('msg', 'invalid')}".lstrip(": ")
        if first.get("type") == UNHELD:
            return error_response(422, "unprocessable", detail)
        return error_response(400, "bad_request", detail)

    @app.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:
        return error_response(exc.status_code, "http_error", str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        # the trace goes to the server's log, not the client
        log.exception("unexpected error", exc_info=exc)
        return error_response(
            500, "internal", f"an unexpected {type(exc).__name__}; the server log has the details"
        )
