"""Bosun's tools, resources and prompts on the official MCP SDK's MCPServer, over stdio or
streamable HTTP."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ParamSpec, TypeVar

import yaml
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.prompts.base import Prompt, PromptArgument
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from bosun.catalog import Catalog
from bosun.conversation.session import Session
from bosun.engines.caller import as_caller, credential
from bosun.engines.remote import run_as_callers
from bosun.errors import BosunError, CatalogError, Unauthorized
from bosun.interfaces.auth import same_token, served_hosts
from bosun.interfaces.callers import request_header
from bosun.interfaces.deadline import Deadline
from bosun.interfaces.mcp.marking import mark_tool
from bosun.interfaces.mcp.teaching import TeachingTools
from bosun.interfaces.mcp.tools import Tools
from bosun.interfaces.owners import Requester, as_requester, requester
from bosun.settings import Settings

log = logging.getLogger("bosun.mcp")
P = ParamSpec("P")
R = TypeVar("R")
# beside the catalog: a domain's starting prompts are domain knowledge
PROMPTS_FILE = "mcp_prompts.yaml"
INSTRUCTIONS = (
    "Bosun answers questions about operational data. `ask` runs the whole agent; the other tools "
    "are its parts: the catalog, name resolution, read-only Elasticsearch-DSL search and "
    "aggregation, "
    "single business objects and field explanations."
)


class StaticToken:
    """The token verifier for one shared bearer token (BOSUN_API_TOKEN), or the administrators'
    (BOSUN_ADMIN_TOKEN), compared in constant time."""

    def __init__(self, token: str, admin: str | None = None) -> None:
        self._tokens = [token, *([admin] if admin else [])]

    async def verify_token(self, token: str) -> AccessToken | None:
        if any(same_token(token, known) for known in self._tokens):
            return AccessToken(token=token, client_id="bosun", scopes=[])
        return None


class BosunMCP(MCPServer):
    """The SDK's server, with every error a client sees one line that says what went wrong.

    The SDK gives a tool's crash as a bare "Error executing tool X", a bad argument as pydantic's
    multi-line report, and a prompt's missing arguments as "Internal server error".
    """

    # BOSUN_ENGINE_AUTH=caller over HTTP: each call queries with its request's credentials
    callers = False
    bosun_settings: Settings | None = None  # who asks over HTTP: their threads (interfaces.owners)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            with self._as_caller(context), as_requester(self._requester(context)):
                return await super().call_tool(name, arguments, context)
        except Unauthorized as exc:
            raise ToolError(f"Error executing tool {name}: {exc}") from None
        except UnexpectedToolError as exc:
            log.error("tool %r crashed", name, exc_info=exc.__cause__)
            cause = type(exc.__cause__).__name__
            raise ToolError(
                f"Error executing tool {name}: an unexpected {cause}; the server log has the "
                "details"
            ) from None
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(
                    f"Error executing tool {name}: {first_problem(exc.__cause__)}"
                ) from None
            raise ToolError(one_line(str(exc), name)) from None

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        try:
            with self._as_caller(context):
                return await super().read_resource(uri, context)
        except Unauthorized as exc:
            raise ResourceError(str(exc)) from None

    def _requester(self, context: Any) -> Requester:
        """Who makes the call: from its HTTP request's headers; over stdio, the deployment."""
        headers = _headers(context)
        if self.bosun_settings is None or headers is None:
            return Requester()
        return requester(headers, self.bosun_settings)

    def _as_caller(self, context: Any) -> AbstractContextManager[None]:
        """Run as the caller of the HTTP request (its tool runs in a thread started in this
        context).

        Read here, per call, and not by the HTTP middleware: the SDK runs a session's calls in a
        task of the session's own, outside the context of the HTTP request that carried the call.
        """
        if not self.callers:
            return nullcontext()
        return as_caller(credential(request_header(_headers(context) or [])))

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        try:
            result: Any = await super().get_prompt(name, arguments, context)
        except ValueError as exc:
            raise MCPError(INVALID_PARAMS, one_line(str(exc), name)) from None
        return result


def _headers(context: Any) -> list[tuple[bytes, bytes]] | None:
    """The raw headers of the HTTP request that carried a call; None over stdio."""
    request = getattr(getattr(context, "request_context", None), "request", None)
    return list(request.scope.get("headers", [])) if isinstance(request, Request) else None


def first_problem(exc: ValidationError) -> str:
    """Pydantic's first complaint, on one line: `where: what` (the rejected value is the caller's
    own)."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid')}".lstrip(": ")


def one_line(text: str, name: str) -> str:
    """The message's first line, or a plain statement of what failed when it has none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else f"{name} failed without a message"


def build_server(
    session: Session, token: str | None = None, url: str = "http://127.0.0.1", callers: bool = False
) -> MCPServer:
    """The MCP server over `session`; with a token, HTTP clients must send it as `Authorization:
    Bearer …`; with `callers`, each call queries the cluster with its request's
    `X-Bosun-Engine-Authorization`."""
    settings = session.context.settings
    admin = settings.admin_token.get_secret_value() if settings.admin_token else None
    auth = AuthSettings(issuer_url=url, resource_server_url=None) if token else None
    server = BosunMCP(
        "bosun",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        auth=auth,
        token_verifier=StaticToken(token, admin) if token else None,
    )
    server.callers, server.bosun_settings = callers, settings
    tools = Tools(session)
    seconds = session.context.settings.query_timeout_s
    for tool in (
        tools.describe_catalog,
        tools.resolve_name,
        _replied(tools.search, seconds),
        _replied(tools.aggregate, seconds),
        tools.lookup_object,
        tools.explain_field,
    ):
        server.add_tool(
            _one_line(tool, ToolError),
            annotations=_hints(read_only=True, idempotent=True),
        )
    # ask adds a turn to the thread's memory: read-only for the data, but not idempotent.
    server.add_tool(
        _one_line(tools.ask, ToolError),
        annotations=_hints(read_only=True, idempotent=False),
    )
    # mark_answer writes a mark beside the turn (never data); marking a turn again replaces its
    # mark.
    server.add_tool(
        _one_line(mark_tool(session), ToolError),
        annotations=_hints(read_only=False, idempotent=True),
    )
    teaching = TeachingTools(session)  # writes vocabulary, never data
    server.add_tool(
        _one_line(teaching.teach_word, ToolError),
        annotations=_hints(read_only=False, idempotent=True),
    )
    server.add_tool(
        _one_line(teaching.taught_words, ToolError),
        annotations=_hints(read_only=True, idempotent=True),
    )
    _add_resources(server, tools)
    for prompt in domain_prompts(tools.catalog):
        server.add_prompt(prompt)
    return server


def transport_security(hosts: list[str]) -> TransportSecuritySettings:
    """The SDK's Host and Origin check answering to `hosts` (any port); off when any host (or a `*.`
    name, which the SDK cannot match) is allowed, leaving the Host check to
    `interfaces.auth.guard_hosts`."""
    if any(name.startswith("*") for name in hosts):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    with_ports = [f"{name}{port}" for name in hosts for port in ("", ":*")]
    return TransportSecuritySettings(
        allowed_hosts=with_ports,
        allowed_origins=[f"{scheme}://{h}" for scheme in ("http", "https") for h in with_ports],
    )


def _one_line(call: Callable[P, R], error: type[Exception]) -> Callable[P, R]:
    """`call`, with Bosun's deliberate errors turned into the SDK's error carrying their one-line
    message."""

    @functools.wraps(call)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return call(*args, **kwargs)
        except BosunError as exc:
            raise error(str(exc)) from None

    return guarded


def _replied(call: Callable[P, BaseModel], seconds: float) -> Callable[P, Any]:
    """`call`, its result made into the tool's reply (structured and as text) within the request's
    deadline: the SDK, given a finished reply, only checks it against the output schema."""

    @functools.wraps(call)
    def replied(*args: P.args, **kwargs: P.kwargs) -> CallToolResult:
        deadline = Deadline(seconds)
        structured = call(*args, **kwargs).model_dump(mode="json", by_alias=True)
        text = deadline.json(structured)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=structured
        )

    return replied


def _add_resources(server: MCPServer, tools: Tools) -> None:
    def catalog() -> str:
        """The semantic catalog, as describe_catalog returns it."""
        return tools.describe_catalog().model_dump_json(indent=1)

    def glossary() -> str:
        """The domain's glossary: term → definition."""
        return json.dumps(tools.catalog.glossary, ensure_ascii=False, indent=1)

    def mapping(name: str) -> str:
        """The Elasticsearch mapping of an index of the catalog."""
        return json.dumps(tools.session.context.engine.mapping(name), indent=1)

    json_type = "application/json"
    server.resource("catalog://current", name="catalog", mime_type=json_type)(
        _one_line(catalog, ResourceError)
    )
    server.resource("catalog://glossary", name="glossary", mime_type=json_type)(
        _one_line(glossary, ResourceError)
    )
    server.resource("index://{name}/mapping", name="mapping", mime_type=json_type)(
        _one_line(mapping, ResourceError)
    )


def domain_prompts(catalog: Catalog) -> list[Prompt]:
    """The starting prompts of the catalog's domain pack (`mcp_prompts.yaml` beside it), if it has
    them."""
    path = catalog.path.parent / PROMPTS_FILE
    if not path.exists():
        return []
    try:
        specs: dict[str, dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return [_prompt(name, spec) for name, spec in specs.items()]
    except (yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
        raise CatalogError(
            f"{path.name}: not a mapping of name → description, arguments, text: {exc}"
        ) from None


def _prompt(name: str, spec: dict[str, Any]) -> Prompt:
    arguments: dict[str, str] = spec.get("arguments") or {}
    text = str(spec["text"])

    def render(**values: str) -> str:
        return text.format(**values)

    return Prompt(
        name=name,
        description=str(spec["description"]),
        fn=render,
        arguments=[
            PromptArgument(name=a, description=d, required=True) for a, d in arguments.items()
        ],
    )


def serve(session: Session, http: bool, host: str, port: int, token: str | None) -> None:
    """Serve until interrupted: stdio for a desktop client, or streamable HTTP at
    http://HOST:PORT/mcp.

    The caller has checked the exposure (`interfaces.auth.required_token`) before opening the
    session.
    """
    if not http:
        build_server(session).run("stdio")
        return
    callers = session.context.settings.engine_auth == "caller"
    if callers:
        run_as_callers(session.context.engine)
    server = build_server(session, token, f"http://{host}:{port}", callers)
    hosts = served_hosts(host, session.context.settings.allowed_hosts)
    server.run(
        "streamable-http", host=host, port=port, transport_security=transport_security(hosts)
    )


def _hints(*, read_only: bool, idempotent: bool) -> ToolAnnotations:
    """What a client may assume of a tool: none destroys anything or reaches past Bosun's data."""
    return ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=False,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )
