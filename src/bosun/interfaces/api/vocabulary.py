"""/vocabulary: taught words over HTTP (issue #25); behind the same bearer token as every other
route."""

from __future__ import annotations

import hashlib

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, Field

from bosun.catalog.taught import Kind, TaughtWord
from bosun.conversation.session import Session
from bosun.conversation.vocabulary import Teacher
from bosun.errors import TeachingRefused
from bosun.interfaces.api.errors import ApiError


class Teaching(BaseModel):
    """A word to teach: what it means in the catalog's words (`means`), or exactly (`kind`,
    `target`, `of`)."""

    word: str = Field(min_length=1, max_length=200, description="the word people use")
    means: str | None = Field(
        None, max_length=200, description="a field, measure, object, value or name"
    )
    kind: Kind | None = None
    target: str | None = Field(
        None, max_length=200, description="with kind: the catalog's own name of it"
    )
    of: str | None = Field(None, max_length=200, description="alias: the entity; value: the field")
    confirm: bool = Field(
        False, description="teach it even where it shadows a word Bosun already knows"
    )


def who(request: Request) -> str:
    """Who teaches: the bearer of the API token (named by its digest, never the token), else
    "local"."""
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return "local"
    return "token " + hashlib.sha256(token.strip().encode()).hexdigest()[:8]


def routes(app: FastAPI, session: Session) -> None:
    assert session.teacher is not None
    teacher = session.teacher

    @app.get("/vocabulary", response_model=list[TaughtWord], tags=["vocabulary"])
    def taught_words() -> list[TaughtWord]:
        """The taught words: what each means, who taught it and when."""
        return teacher.store.words()

    @app.get("/vocabulary/candidates", response_model=list[TaughtWord], tags=["vocabulary"])
    def candidates(word: str) -> list[TaughtWord]:
        """What a word the answer did not understand may mean: the catalog's closest entries."""
        return teacher.candidates(word)

    @app.post("/vocabulary", status_code=201, response_model=TaughtWord, tags=["vocabulary"])
    def teach(teaching: Teaching, request: Request) -> TaughtWord:
        """Teach a word; 409 when it shadows a known word unconfirmed, 400 when it is no catalog
        entry."""
        try:
            return teacher.teach(
                _entry(teacher, teaching, who(request)), confirmed=teaching.confirm
            )
        except TeachingRefused as exc:
            raise ApiError(
                409 if exc.shadowing else 400, "shadowing" if exc.shadowing else "refused", str(exc)
            ) from None

    # a path: a taught word may hold "/" ("Maersk A/S"), sent as %2F
    @app.delete("/vocabulary/{word:path}", status_code=204, tags=["vocabulary"])
    def forget(word: str) -> Response:
        """Forget a taught word (a "/" in it written %2F)."""
        if not teacher.store.remove(word):
            raise ApiError(404, "unknown_word", f"“{word}” is not a taught word")
        return Response(status_code=204)


def _entry(teacher: Teacher, teaching: Teaching, by: str) -> TaughtWord:
    """The word as given exactly (the page's candidates, a remembered pick), else read from
    `means`."""
    if teaching.kind is not None and teaching.target is not None:
        exact = TaughtWord(
            kind=teaching.kind, word=teaching.word.strip(), target=teaching.target, of=teaching.of
        )
        return teacher.stamped(exact, by)
    if teaching.means is None:
        raise ApiError(
            400, "bad_request", "say what the word means: `means`, or `kind` and `target`"
        )
    return teacher.proposed(teaching.word, teaching.means, teaching.kind, by)
