"""The HTTP API (FastAPI): threads, turns as JSON or Server-Sent Events, the catalog, health;
OpenAPI at /docs."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from bosun.conversation import export
from bosun.conversation.session import Session
from bosun.conversation.start import StartScreen, start_screen
from bosun.conversation.store import Origin
from bosun.engines.graphql.schema import build_schema
from bosun.engines.graphql.server import graphql_endpoint
from bosun.interfaces import owners
from bosun.interfaces.api import errors, marks, vocabulary
from bosun.interfaces.api.errors import ApiError
from bosun.interfaces.api.paging import PageRequest, read_page
from bosun.interfaces.api.turns import answer_of, engine_problem, sse_of
from bosun.interfaces.auth import served_hosts
from bosun.interfaces.deadline import Deadline
from bosun.interfaces.mcp.server import build_server, transport_security
from bosun.interfaces.owners import Requester
from bosun.planner.answer import Answer

STATIC = Path(__file__).resolve().parent.parent / "ui" / "static"
# the page and the API's description: no data
PUBLIC_PATHS = ("/", "/static/*", "/docs", "/openapi.json")


# Periods are counted from as_of ("the last 10 years"); at the calendar's ends they leave it (year 0
# or 10000).
EARLIEST_AS_OF, LATEST_AS_OF = date(1000, 1, 1), date(8999, 12, 31)


class TurnRequest(BaseModel):
    question: str = Field(min_length=1, description="the question or reply, in plain language")
    as_of: date | None = Field(
        None,
        ge=EARLIEST_AS_OF,
        le=LATEST_AS_OF,
        description="today's date for this turn; default the data's as-of date",
    )


class ThreadCreated(BaseModel):
    thread_id: str


class ThreadInfo(BaseModel):
    thread_id: str
    created: str
    title: str = Field(description="the thread's first question, or empty")


ORIGIN = (
    "only the threads started there: `api` by POST /threads (the page, or another HTTP client), "
    "`ask` by their first question (the command line's ask and chat, MCP's ask); a thread from "
    "before origins were kept counts as `api`"
)


class ThreadRename(BaseModel):
    title: str = Field(min_length=1, max_length=200, description="the thread's new title")


class Turn(BaseModel):
    question: str
    answer: dict[str, Any] = Field(description="the turn's answer JSON (DATA_CONTRACT §3)")


class RecordsRequest(BaseModel):
    query: dict[str, Any] = Field(description="a search an answer ran: its result's `query`")
    index: str | None = Field(
        None, description="the index it ran on; default the catalog's records"
    )
    columns: list[str] = Field(
        default_factory=list, description="fields to give; default every field"
    )
    offset: int = Field(
        0, ge=0, description="/records: records to skip, within the first pages (max_result_size)"
    )
    limit: int = Field(20, ge=1, le=1000)
    cursor: str | None = Field(
        None,
        max_length=16_384,
        description="/records: the `cursor` the page before gave, to read the page after it",
    )


class Records(BaseModel):
    columns: list[str]
    rows: list[list[Any]]


class RecordsPage(Records):
    cursor: str | None = Field(
        description="what to send as `cursor` for the next page; null after the last"
    )


class Exports(BaseModel):
    formats: list[export.Format] = Field(
        description="what /records.* and /table.* write on this server: csv always, xlsx with the "
        "`xlsx` extra installed"
    )


class ThreadTurns(BaseModel):
    thread_id: str
    turns: list[Turn]


def create_app(session: Session, host: str = "127.0.0.1", closing: bool = False) -> FastAPI:
    """One ASGI app: the API, the web page at `/`, GraphQL at `/graphql` and MCP (streamable HTTP)
    at `/mcp`.

    `host` is the interface served: MCP's own check of the Host and Origin headers answers to the
    same names as the Host check `bosun serve` puts in front of the whole app
    (`interfaces.auth.guard_hosts`). The bearer token, when one is needed, is checked in front of
    the whole app (`interfaces.auth.protect`), MCP included. With `closing`, the app owns the
    session and closes it when it shuts down (a worker process's app).

    MCP is stateless over HTTP: every request stands alone, so any worker process may answer it.
    Bosun's tools never call back to the client (no sampling, elicitation or progress), which is all
    a session would carry.
    """
    mcp = build_server(session, callers=session.context.settings.engine_auth == "caller")
    security = transport_security(served_hosts(host, session.context.settings.allowed_hosts))
    mcp_routes = mcp.streamable_http_app(
        streamable_http_path="/mcp", transport_security=security, stateless_http=True
    ).routes

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            if closing:
                session.close()

    app = FastAPI(
        title="Bosun",
        version="0.1.0",
        description="Ask your operational data in plain language.",
        lifespan=lifespan,
    )
    app.router.routes.extend(mcp_routes)
    errors.install(app)
    _threads(app, session)
    _turns(app, session)
    marks.install(app, session)
    _about(app, session)
    _records(app, session)
    vocabulary.routes(app, session)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_route("/", lambda _: FileResponse(STATIC / "index.html"), include_in_schema=False)
    schema = build_schema(session.context.catalog.graph_objects())
    app.add_route(
        "/graphql",
        graphql_endpoint(schema, session.context.engine),
        methods=["GET", "POST"],
        include_in_schema=False,
    )
    return app


def _threads(app: FastAPI, session: Session) -> None:
    asking = Depends(owners.dependency(session.context.settings))
    store = session.store

    @app.post("/threads", status_code=201, response_model=ThreadCreated, tags=["threads"])
    def create_thread(who: Requester = asking) -> ThreadCreated:
        """Start a conversation; its id names it in the other calls. It is its caller's (with
        BOSUN_ENGINE_AUTH=caller)."""
        thread_id = uuid.uuid4().hex[:12]
        store.open_thread(thread_id, who.owner)
        return ThreadCreated(thread_id=thread_id)

    @app.get("/threads", response_model=list[ThreadInfo], tags=["threads"])
    def list_threads(
        who: Requester = asking,
        origin: Annotated[Origin | None, Query(description=ORIGIN)] = None,
    ) -> list[ThreadInfo]:
        """The newest threads the caller may read, with their first question as a title."""
        found = owners.threads(store, who, origin=origin)
        return [ThreadInfo(thread_id=t, created=c, title=q) for t, c, q in found]

    @app.get("/threads/{thread_id}", response_model=ThreadTurns, tags=["threads"])
    def get_thread(thread_id: str, who: Requester = asking) -> ThreadTurns:
        """The thread's turns, oldest first: each question and its answer JSON."""
        answers = store.answers(owners.readable(store, thread_id, who))
        return ThreadTurns(
            thread_id=thread_id, turns=[Turn(question=a["question"], answer=a) for a in answers]
        )

    @app.patch("/threads/{thread_id}", status_code=204, tags=["threads"])
    def rename_thread(thread_id: str, change: ThreadRename, who: Requester = asking) -> Response:
        """Give the thread a title of its own (instead of its first question)."""
        store.rename(owners.readable(store, thread_id, who), change.title)
        return Response(status_code=204)

    @app.delete("/threads/{thread_id}", status_code=204, tags=["threads"])
    def delete_thread(thread_id: str, who: Requester = asking) -> Response:
        """Forget the thread: its turns, answers and checkpoints."""
        session.forget(owners.readable(store, thread_id, who))
        return Response(status_code=204)


def _turns(app: FastAPI, session: Session) -> None:
    cap = session.context.settings.max_question_chars
    asking = Depends(owners.dependency(session.context.settings))

    @app.post(
        "/threads/{thread_id}/turns",
        tags=["turns"],
        response_model=Answer,
        responses={
            200: {
                "content": {"text/event-stream": {}},
                "description": "the answer JSON, or with `Accept: text/event-stream` the turn's "
                "events (round_started, dispatched, finished, …, clarification, "
                "answer)",
            }
        },
    )
    async def ask(
        thread_id: str, turn: TurnRequest, request: Request, who: Requester = asking
    ) -> Response:
        """Ask a question on the thread; a reply to a question back is simply the next turn."""
        if len(turn.question) > cap:
            raise ApiError(
                413,
                "question_too_long",
                f"a question may be {cap} characters long; this is {len(turn.question)}",
            )
        if not turn.question.strip():
            raise ApiError(400, "bad_request", "question: the question is empty")
        owners.readable(session.store, thread_id, who)
        if "text/event-stream" in request.headers.get("accept", ""):
            return StreamingResponse(
                sse_of(session, turn.question, thread_id, turn.as_of),
                media_type="text/event-stream",
                headers={"Cache-Control": "no-cache"},
            )
        answer = await answer_of(session, turn.question, thread_id, turn.as_of)
        return JSONResponse(answer.model_dump(mode="json"))


def _records(app: FastAPI, session: Session) -> None:
    catalog, engine = session.context.catalog, session.context.engine

    @app.get("/exports", response_model=Exports, tags=["results"])
    def exports() -> Exports:
        """The export formats this server writes, for the page to offer only those."""
        return Exports(formats=export.formats())

    def _columns(request: RecordsRequest) -> list[str]:
        return request.columns or list(catalog.record.fields)

    @app.post("/records", response_model=RecordsPage, tags=["results"])
    def records(request: RecordsRequest) -> Response:
        """One page of the records a search matches, in its order: the table's pager past the
        answer's rows. Each page is one search, continuing from the `cursor` of the page before
        (`offset` reaches the first pages only); it and its reply are within one deadline
        (BOSUN_QUERY_TIMEOUT_S)."""
        deadline = Deadline(session.context.settings.query_timeout_s)
        _shallow(request, session.context.settings.max_result_size)
        asked = PageRequest(
            request.index or catalog.record.index,
            request.query,
            request.limit,
            request.offset,
            request.cursor,
            tuple(request.columns),
        )
        page = read_page(engine, asked, _id_field(asked.index), deadline)
        columns = _columns(request)
        rows = [[record.get(c) for c in columns] for record in page.records]
        reply = RecordsPage(columns=columns, rows=rows, cursor=page.cursor)
        return Response(deadline.json(reply.model_dump(mode="json")), media_type="application/json")

    def _id_field(index: str) -> str | None:
        found = [o.id_field for o in catalog.spec.objects.values() if o.index == index]
        return found[0] if found else None

    def _exported(
        request: RecordsRequest, name: str
    ) -> tuple[Iterator[dict[str, Any]], dict[str, str]]:
        """The records to export, at most `max_export_rows`, and the headers: the file's name, and
        `X-Bosun-Capped` (how many of how many) when the cap cut them."""
        index = request.index or catalog.record.index
        cap = session.context.settings.max_export_rows
        found = export.records(engine, index, request.query, cap)
        total = export.matching(engine, index, request.query)
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        if total > cap:
            headers["X-Bosun-Capped"] = f"{cap} of {total}"
        return found, headers

    @app.post("/records.csv", tags=["results"], response_class=StreamingResponse)
    def records_csv(request: RecordsRequest) -> StreamingResponse:
        """Every record a search matches as CSV, streamed; past `max_export_rows` it stops, and the
        `X-Bosun-Capped` header says how many of how many were written."""
        found, headers = _exported(request, "records.csv")
        return StreamingResponse(
            export.csv_lines(found, _columns(request)), media_type="text/csv", headers=headers
        )

    @app.post("/records.xlsx", tags=["results"], response_class=Response)
    def records_xlsx(request: RecordsRequest) -> Response:
        """The same records as the CSV, capped the same way, as one XLSX sheet (needs
        `bosun-bi[xlsx]`)."""
        found, headers = _exported(request, "records.xlsx")
        columns = _columns(request)
        book = export.xlsx_book(([record.get(c) for c in columns] for record in found), columns)
        return Response(book, media_type=export.XLSX, headers=headers)

    @app.post("/table.xlsx", tags=["results"], response_class=Response)
    def table_xlsx(table: Records) -> Response:
        """An answer's table (an aggregation's rows, all in the answer) as one XLSX sheet."""
        cap = session.context.settings.max_export_rows
        if len(table.rows) > cap:
            raise ApiError(400, "bad_request", f"rows: at most {cap:,} rows are exported")
        headers = {"Content-Disposition": 'attachment; filename="table.xlsx"'}
        return Response(
            export.xlsx_book(table.rows, table.columns), media_type=export.XLSX, headers=headers
        )


def _shallow(request: RecordsRequest, most: int) -> None:
    """An offset reaches the first `most` records; deeper pages continue from a cursor."""
    if request.offset and request.cursor:
        raise ApiError(400, "bad_request", "offset: give a cursor or an offset, not both")
    if request.offset + request.limit > most:
        raise ApiError(
            400,
            "bad_request",
            f"offset: an offset reaches the first {most:,} records; read on with the `cursor` "
            "each page gives",
        )


def _about(app: FastAPI, session: Session) -> None:
    @app.get("/catalog", tags=["catalog"])
    def catalog() -> dict[str, Any]:
        """What Bosun knows about the domain: objects and their fields, measures, glossary."""
        spec = session.context.catalog.spec
        return {
            "domain": spec.domain,
            "description": spec.description,
            "record": spec.record,
            **spec.model_dump(mode="json", include={"objects", "measures"}),
            "glossary": session.context.catalog.glossary,
        }

    @app.get("/start", tags=["catalog"], response_model=StartScreen)
    def start() -> StartScreen:
        """What the data holds and questions to begin with, for the page's start screen."""
        context = session.context
        return start_screen(context.catalog, context.engine, context.today())

    @app.get("/health", tags=["health"])
    def health() -> JSONResponse:
        """200 when the engine answers, 503 with the reason when it does not; `process` is the id of
        the process that answered (with `bosun serve --workers N`, one of N)."""
        down = engine_problem(session)
        if down:
            return errors.error_response(503, "engine_unavailable", down)
        return JSONResponse(
            {"status": "ok", "engine": session.context.settings.engine, "process": os.getpid()}
        )
