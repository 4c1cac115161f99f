"""MCP's teaching tools (issue #25): a thin call of the session's taught words, as the API's
/vocabulary: who teaches is the call's identity (`interfaces.identity`), and teaching anew a word
that already means something is an administrator's."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from pydantic import Field

from bosun.catalog.taught import Kind, TaughtWord
from bosun.conversation.session import Session
from bosun.interfaces.identity import of_call


class TeachingTools:
    def __init__(self, session: Session) -> None:
        assert session.teacher is not None
        self.teacher = session.teacher
        self.settings = session.context.settings

    def teach_word(
        self,
        word: Annotated[str, Field(description="the word people use, e.g. “trainers”")],
        means: Annotated[
            str,
            Field(
                description="what it means in the catalog's words: a field, "
                "measure, object, value or name"
            ),
        ],
        kind: Annotated[
            Kind | None, Field(description="what the word is, when `means` names several things")
        ] = None,
        confirm: Annotated[
            bool,
            Field(
                description="teach it even where it shadows a word Bosun already knows (an "
                "administrator's call)"
            ),
        ] = False,
        ctx: Context | None = None,
    ) -> TaughtWord:
        """Teach a word (vocabulary only): every later question of every thread reads it so. Refused
        when it names nothing in the catalog or is a word the readers keep to themselves; a word
        that already means something only an administrator teaches anew, with `confirm`."""
        who = of_call(ctx, self.settings)
        taught = self.teacher.proposed(word, means, kind, who.name)
        return self.teacher.teach(taught, confirmed=confirm, admin=who.admin)

    def taught_words(self) -> list[TaughtWord]:
        """The taught words: what each means, who taught it and when."""
        return self.teacher.store.words()
