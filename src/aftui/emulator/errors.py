"""The one exception every handler raises for a client mistake.

The spec leaves the error body "not shown"; the emulator always answers
`{"error": "<message>"}` with optional `code` and `details` (docs/emulator.md).
"""

from __future__ import annotations

from typing import Any


class ApiProblem(Exception):
    """A request the service refuses, carried to the response as JSON."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.details = details
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.code:
            body["code"] = self.code
        if self.details:
            body["details"] = self.details
        return body


def bad_request(message: str, *, param: str | None = None) -> ApiProblem:
    details = {"param": param} if param else None
    return ApiProblem(400, message, code="invalid_parameter" if param else "bad_request", details=details)


def missing(param: str) -> ApiProblem:
    return ApiProblem(400, f"{param} is required", code="missing_parameter", details={"param": param})


def not_found(kind: str, ident: str) -> ApiProblem:
    return ApiProblem(404, f"{kind} {ident} not found", code="not_found")


def unauthorized(message: str = "invalid or missing bearer token") -> ApiProblem:
    return ApiProblem(401, message, code="unauthorized", headers={"WWW-Authenticate": "Bearer"})


def needs_user_key(what: str) -> ApiProblem:
    return ApiProblem(
        403,
        f"{what} works only with a user API key; workspace OAuth tokens are not accepted here",
        code="user_api_key_required",
    )
