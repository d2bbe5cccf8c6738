"""Per-client rate limit and body-size limit, as plain ASGI middleware.

Both run before any parsing, so a flood or an oversized body costs the service a
dictionary lookup and at most ``limit + 1`` bytes of memory, whatever the endpoint.
Clients are told when to come back (``Retry-After``) in the usual JSON error shape.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from grader.service.errors import error_body

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

EXEMPT = ("/healthz",)
"""Paths never limited: a load balancer's health probe must not use a client's budget."""


async def _send_json(send: Send, status: int, body: dict[str, Any],
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


class TokenBuckets:
    """One token bucket per client: ``burst`` tokens, refilled at ``per_minute`` a minute."""

    def __init__(self, per_minute: int, burst: int, max_clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str, now: float | None = None) -> float:
        """0 when the request may go ahead, else seconds until a token is free."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._store(client, tokens - 1, now)
                return 0.0
            self._store(client, tokens, now)
            return (1 - tokens) / self.rate

    def _store(self, client: str, tokens: float, now: float) -> None:
        if client not in self._buckets and len(self._buckets) >= self.max_clients:
            # forget the client idle longest, so memory stays bounded under many addresses
            oldest = min(self._buckets, key=lambda c: self._buckets[c][1])
            del self._buckets[oldest]
        self._buckets[client] = (tokens, now)


class LimitsMiddleware:
    """Refuse a request over the client's rate (429) or with a body over its limit (413)."""

    def __init__(self, app: ASGIApp, *, per_minute: int, burst: int, max_body_bytes: int,
                 max_upload_bytes: int, upload_paths: tuple[str, ...]) -> None:
        self.app = app
        self.buckets = TokenBuckets(per_minute, burst) if per_minute > 0 else None
        self.max_body, self.max_upload = max_body_bytes, max_upload_bytes
        self.upload_paths = upload_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in EXEMPT:
            await self.app(scope, receive, send)
            return
        if self.buckets is not None:
            client = (scope.get("client") or ("unknown", 0))[0]
            wait = self.buckets.take(client)
            if wait > 0:
                await _send_json(send, 429, error_body(
                    "rate_limited", f"too many requests; retry in {math.ceil(wait)} s"),
                    [(b"retry-after", str(math.ceil(wait)).encode())])
                return
        upload = scope["path"] in self.upload_paths
        limit = self.max_upload if upload else self.max_body
        field = "notebook" if upload else "body"
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _send_json(send, 413, error_body(
                "too_large", f"the request body is over the limit of {limit} bytes", field))
            return
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                await _send_json(send, 413, error_body(
                    "too_large", f"the request body is over the limit of {limit} bytes", field))
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
