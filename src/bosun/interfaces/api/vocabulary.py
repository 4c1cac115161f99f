"""/vocabulary: taught words over HTTP (issue #25); behind the same bearer token as every other
route. A taught word records who taught it from the request's identity (`interfaces.identity`), and
teaching anew a word that already means something needs the administrators' token (403 without)."""

from __future__ import annotations

from fastapi import Depends, FastAPI, Response
from pydantic import BaseModel, Field

from bosun.catalog.taught import Kind, TaughtWord
from bosun.conversation.session import Session
from bosun.conversation.vocabulary import Teacher
from bosun.errors import TeachingRefused
from bosun.interfaces import identity
from bosun.interfaces.api.errors import ApiError
from bosun.interfaces.identity import Identity


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


def routes(app: FastAPI, session: Session) -> None:
    assert session.teacher is not None
    teacher = session.teacher
    requester = Depends(identity.dependency(session.context.settings))

    @app.get("/vocabulary", response_model=list[TaughtWord], tags=["vocabulary"])
    def taught_words() -> list[TaughtWord]:
        """The taught words: what each means, who taught it and when."""
        return teacher.store.words()

    @app.get("/vocabulary/candidates", response_model=list[TaughtWord], tags=["vocabulary"])
    def candidates(word: str) -> list[TaughtWord]:
        """What a word the answer did not understand may mean: the catalog's closest entries."""
        return teacher.candidates(word)

    @app.post("/vocabulary", status_code=201, response_model=TaughtWord, tags=["vocabulary"])
    def teach(teaching: Teaching, who: Identity = requester) -> TaughtWord:
        """Teach a word; 400 when it is no catalog entry or the readers' own, 403 when it already
        means something and the request is no administrator's, 409 when an administrator has not
        confirmed."""
        try:
            entry = _entry(teacher, teaching, who.name)
            return teacher.teach(entry, confirmed=teaching.confirm, admin=who.admin)
        except TeachingRefused as exc:
            raise ApiError(*_refused(exc), str(exc)) from None

    # a path: a taught word may hold "/" ("Maersk A/S"), sent as %2F
    @app.delete("/vocabulary/{word:path}", status_code=204, tags=["vocabulary"])
    def forget(word: str) -> Response:
        """Forget a taught word (a "/" in it written %2F)."""
        if not teacher.store.remove(word):
            raise ApiError(404, "unknown_word", f"“{word}” is not a taught word")
        return Response(status_code=204)


def _refused(exc: TeachingRefused) -> tuple[int, str]:
    if exc.admin_only:
        return 403, "forbidden"
    if exc.shadowing:
        return 409, "shadowing"
    return 400, "refused"


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
