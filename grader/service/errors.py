"""Every error the service returns is JSON that names the field at fault, never a traceback.

    {"error": {"code": "invalid_input", "field": "seq_len", "message": "..."}}

User input gets a 4xx: a validation error (422), a calculator's `ConfigError` (422,
with the calculator's own field), an unknown pack or question (404), a body too
large (413), too many requests (429). Only a fault of the service itself is a 500,
and its body says so without detail (the detail goes to the server log).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from calculators.errors import CalculatorError

log = logging.getLogger("grader.service")


class ErrorDetail(BaseModel):
    code: str
    field: str | None
    message: str
    problems: list[dict[str, Any]] | None = None


class ErrorBody(BaseModel):
    """The body of every 4xx and 5xx answer."""

    error: ErrorDetail


ERROR_RESPONSES = {
    401: "A TA endpoint without a valid bearer token.",
    403: "A TA endpoint while no token is configured.",
    404: "No such assignment, question, job or path.",
    409: "The self-check has not finished yet.",
    413: "The body is over its size limit.",
    422: "Invalid input; `field` names what to fix.",
    429: "Over the client's rate limit, a question's checks for the day, or a self-check "
         "already running and one waiting for this client; see Retry-After.",
    503: "The self-check queue is full, or self-check is off here.",
    504: "The computation ran past its time limit and was stopped.",
}


class ApiError(Exception):
    """An error for the client: HTTP status, a stable code, the field to blame, a message."""

    def __init__(self, status: int, code: str, message: str, *, field: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message, self.field)


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "field": field, "message": message}}


def from_calculator(exc: CalculatorError) -> ApiError:
    return ApiError(422, "invalid_input", exc.message, field=exc.field or "body")


def _field_of(loc: tuple[Any, ...] | list[Any]) -> str:
    """("body", "config", "n_layers") -> "config.n_layers"; "body" alone for a whole body."""
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "form")]
    return ".".join(parts) or "body"


def _clean(text: str) -> str:
    return text[:300]


def install(app: FastAPI) -> None:
    """Register the handlers that turn every exception into the JSON shape above."""

    @app.exception_handler(ApiError)
    async def _api(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"field": "body" if e.get("type") == "json_invalid"
                     else _field_of(e.get("loc", ())), "message": _clean(str(e.get("msg")))}
                    for e in exc.errors()]
        first = problems[0] if problems else {"field": "body", "message": "invalid request"}
        body = error_body("invalid_input", f"{first['field']}: {first['message']}",
                          first["field"])
        body["error"]["problems"] = problems[:20]
        return JSONResponse(body, status_code=422)

    @app.exception_handler(CalculatorError)
    async def _calc(_request: Request, exc: CalculatorError) -> JSONResponse:
        err = from_calculator(exc)
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, _clean(str(exc.detail))), status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body("internal_error", "the service failed; see its log"),
                            status_code=500)
