"""The checks every request to `brass serve` passes before any handler sees it (docs/web.md, "Safe
by default"). The server has no accounts: whoever can send it a request can play and read every
game, so it must be sure a request comes from a page of its own or from a program on purpose.

- **Host** is `localhost`, an IP address (`127.0.0.1`, `[::1]`, a LAN address), or a name given
  with `--allowed-host`, with any port: else 403. A page of another site cannot make the browser
  send one of these: DNS rebinding (a site's name pointed at 127.0.0.1 after the page loaded,
  so that the page reads this server as its own origin) still sends that site's name, and an IP
  address is no name anyone can point elsewhere.
- A request that may change something (any method but GET, HEAD and OPTIONS) is refused (403)
  when the browser says it comes from another site (`Sec-Fetch-Site: cross-site`) or its Origin
  is not this server's own (scheme, host and port); a request without Origin (curl, a script) is
  a program's, and passes.
- Its body, if it has one (or names a type), is `application/json` (else 415): a cross-site form
  can post `text/plain` without asking the server first, and that body used to be read as JSON.

A handler then reads the body with `read_json`: at most MAX_BODY_BYTES (413), a JSON object (400).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from interpreter.ruleset.errors import BrassError
from interpreter.tools.files.guards import parse_json
from interpreter.tools.web.sessions import WebError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
ALLOWED_TYPE = "application/json"
MAX_BODY_BYTES = 4_000_000  # a save of a whole 4-player game is under 100 kB


class Guard:
    """ASGI middleware: answers a refused request with a JSON error itself, passes the others on."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str] = ()) -> None:
        self.app = app
        self.names = {"localhost", *(name.lower() for name in allowed_hosts)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":  # the server has no websocket; lifespan events pass
            refusal = self.refusal(scope)
            if refusal is not None:
                status, message = refusal
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message a request is refused with, or None when it may be served."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if not self.host_allowed(host):
            return 403, (f"this server answers to localhost, an IP address or a name given with "
                         f"`brass serve --allowed-host NAME`, not to the host {host!r}: open it by one of those "
                         "(a page of another site may not reach it through that site's own name)")
        if scope["method"] in SAFE_METHODS:
            return None
        if headers.get("sec-fetch-site", "").lower() == "cross-site":
            return 403, (f"{scope['method']} from a page of another site is refused: only this server's own "
                         "page may change games")
        origin = headers.get("origin")
        if origin is not None and not same_origin(origin, scope.get("scheme", "http"), host):
            return 403, (f"{scope['method']} from the page of {origin!r} is refused: only this server's own page "
                         f"(http://{host}) may change games")
        content_type = headers.get("content-type")
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if (has_body or content_type is not None) and media_type(content_type) != ALLOWED_TYPE:
            return 415, (f"a {scope['method']} body must be JSON sent with Content-Type: {ALLOWED_TYPE}, not "
                         f"{content_type or 'a body of no type'} (a page of another site can post forms and "
                         "text/plain without asking, never application/json)")
        return None

    def host_allowed(self, host: str) -> bool:
        parts = split_host(host)
        return parts is not None and (parts[0] in self.names or is_ip_literal(parts[0]))


def split_host(host: str) -> tuple[str, int | None] | None:
    """A Host header's name (lower case; an IPv6 address without its brackets) and port, or None
    if it is no host name with an optional port (an IPv6 address is valid only in brackets)."""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or not _is_ipv6(name):
            return None
    else:
        name = host.split(":", 1)[0]
        rest = host[len(name):]
        if not name or ":" in rest[1:]:
            return None
    if not rest:
        return name.lower(), None
    port = rest[1:]
    if rest[0] != ":" or not port.isascii() or not port.isdigit() or len(port) > 5 or int(port) > 65535:
        return None
    return name.lower(), int(port)


def is_ip_literal(name: str) -> bool:
    """A dotted IPv4 address, or an IPv6 one (as `split_host` gives it, out of its brackets)."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_ipv6(name: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(name), ipaddress.IPv6Address)
    except ValueError:
        return False


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether a request's Origin (`http://localhost:8765`) is the server's own origin: the
    request's scheme and its Host's name and port (a missing port is the scheme's default)."""
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return False
    own = split_host(host)
    if own is None or parts.scheme != scheme or parts.hostname is None:
        return False
    default = DEFAULT_PORTS.get(scheme)
    return (parts.hostname, origin_port or default) == (own[0], own[1] or default)


def media_type(content_type: str | None) -> str:
    """`application/json` of `Application/JSON; charset=utf-8`; "" for none."""
    return (content_type or "").split(";", 1)[0].strip().lower()


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object: 413 past MAX_BODY_BYTES (read no further), 400 otherwise."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise WebError(413, f"the request body is {declared} bytes; at most {MAX_BODY_BYTES} are read")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise WebError(413, f"the request body is over {MAX_BODY_BYTES} bytes")
    try:
        data = parse_json(body.decode("utf-8"), "the request body", BrassError)
    except UnicodeDecodeError:
        raise WebError(400, "the request body is not UTF-8 text") from None
    except BrassError as error:
        raise WebError(400, str(error)) from None
    if not isinstance(data, dict):
        raise WebError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data
