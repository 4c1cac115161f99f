"""The tools MCP clients call: each a thin, typed call of what the session, engines and workers
already do.

Nothing here imports the MCP SDK, so the same functions can be tested or served by any interface.
Arguments and results are pydantic models: the SDK publishes their JSON schemas.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from bosun.catalog import Catalog, EntitySpec, MeasureSpec, ObjectSpec
from bosun.conversation.session import Session
from bosun.errors import UnknownEntity, UserError
from bosun.interfaces import owners
from bosun.planner.answer import Answer
from bosun.understanding.meaning import Resolution
from bosun.understanding.names import NameIndex, build_index, find_names
from bosun.understanding.vectors import NameVectors
from bosun.workers.data import explain_fields
from bosun.workers.models import Deliverable
from bosun.workers.objects import fetch_object

QueryDSL = Annotated[
    dict[str, Any],
    Field(
        description="an Elasticsearch query DSL request body, e.g. "
        '{"query": {"term": {"status": "held"}}}'
    ),
]
IndexName = Annotated[
    str, Field(description="an index of the catalog (describe_catalog lists them)")
]


class CatalogDescription(BaseModel):
    """The semantic catalog: business objects with their fields, names resolved in questions,
    measures, glossary."""

    domain: str
    description: str
    record: str = Field(description="the object that questions are about")
    objects: dict[str, ObjectSpec]
    entities: dict[str, EntitySpec] = Field(
        description="kinds of names resolved in questions (resolve_name's kind)"
    )
    measures: dict[str, MeasureSpec]
    glossary: dict[str, str]


class NameCandidate(BaseModel):
    phrase: str = Field(description="the words of the text that name it")
    kind: str = Field(description="the entity kind, e.g. one of describe_catalog's entities")
    value: str = Field(description="the canonical name, as it is stored in the data")
    method: Resolution
    score: float = Field(
        description="100 for an exact, alias or code match; lower for fuzzy and vector matches"
    )


class NameResolution(BaseModel):
    """What a text may name; several candidates for one phrase mean it is ambiguous."""

    text: str
    candidates: list[NameCandidate]


class TotalHits(BaseModel):
    value: int
    relation: str = "eq"


class Hits(BaseModel):
    model_config = ConfigDict(extra="allow")

    total: TotalHits | None = None
    max_score: float | None = None
    hits: list[dict[str, Any]] = Field(default_factory=list)


class SearchResponse(BaseModel):
    """Elasticsearch's _search response, as every engine answers it."""

    model_config = ConfigDict(extra="allow")

    took: int = 0
    timed_out: bool = False
    hits: Hits
    aggregations: dict[str, Any] | None = None


class AggregateResponse(BaseModel):
    total: int | None = Field(description="documents matched by the query")
    aggregations: dict[str, Any]


class BusinessObject(BaseModel):
    object: str
    id: str
    fields: dict[str, Any]


@dataclass
class Tools:
    """Bosun's tools over one open session (engine behind the guardrails, catalog, names,
    conversation)."""

    session: Session
    _indexed: tuple[Catalog, NameIndex] | None = None  # the names of the catalog last seen

    @property
    def catalog(self) -> Catalog:
        """The catalog with the words taught so far (in any process of the deployment)."""
        catalog: Catalog = self.session.refreshed().catalog
        return catalog

    @property
    def names(self) -> NameIndex:
        """The catalog's names, indexed again only when taught words changed the catalog."""
        catalog = self.catalog
        if self._indexed is None or self._indexed[0] is not catalog:
            self._indexed = (catalog, build_index(catalog))
        return self._indexed[1]

    def ask(
        self,
        question: Annotated[str, Field(description="a question in plain language")],
        thread_id: Annotated[
            str | None,
            Field(
                description="a conversation id: pass the previous answer's "
                "thread_id to follow up or reply"
            ),
        ] = None,
    ) -> Answer:
        """Answer a question with the whole agent (one turn); the answer JSON of `bosun ask --json`.

        When its status is needs_clarification, reply on the same thread_id with one of the options.
        """
        return self.session.ask(question, self._thread(thread_id))

    def _thread(self, thread_id: str | None) -> str:
        """The caller's thread to ask on: a new one, or one of theirs (another's is no thread)."""
        store, who = self.session.store, owners.current()
        if thread_id is None or not store.owner(thread_id)[0]:
            thread_id = thread_id or uuid.uuid4().hex[:12]
            store.open_thread(thread_id, who.owner)
        return owners.readable(store, thread_id, who)

    def describe_catalog(self) -> CatalogDescription:
        """The catalog: objects and their fields (type, role, description), names, measures and
        glossary."""
        spec = self.catalog.spec
        return CatalogDescription(
            domain=spec.domain,
            description=spec.description,
            record=spec.record,
            objects=spec.objects,
            entities=spec.entities,
            measures=spec.measures,
            glossary=self.catalog.glossary,
        )

    def resolve_name(
        self,
        text: Annotated[str, Field(description="a name as a person writes it, e.g. 'Maersk'")],
        kind: Annotated[
            str | None, Field(description="only candidates of this entity kind")
        ] = None,
    ) -> NameResolution:
        """Resolve a name the way the agent does: exact, alias or code, then partial and fuzzy, then
        vectors."""
        limit = self.session.context.settings.max_question_chars
        if len(text) > limit:
            raise UserError(f"text: at most {limit:,} characters are read; this is {len(text):,}")
        if kind is not None and kind not in self.catalog.spec.entities:
            raise UserError(
                f"no entity kind {kind!r}; the kinds are {', '.join(self.catalog.spec.entities)}"
            )
        candidates = resolve(text, self.names, self.session.context.vectors)
        return NameResolution(
            text=text, candidates=[c for c in candidates if kind in (None, c.kind)]
        )

    def search(
        self,
        index: IndexName,
        query_dsl: QueryDSL,
        size: Annotated[
            int | None, Field(description="hits to return (overrides the body's size)")
        ] = None,
    ) -> SearchResponse:
        """Run a search on an index through the agent's read-only guardrails (allowlist, no scripts,
        caps, deadline)."""
        body = query_dsl if size is None else {**query_dsl, "size": size}
        return SearchResponse.model_validate(self.session.context.engine.search(index, body))

    def aggregate(self, index: IndexName, query_dsl: QueryDSL) -> AggregateResponse:
        """Run the aggregations ("aggs") of a request on an index, without hits, through the same
        guardrails."""
        if not (query_dsl.get("aggs") or query_dsl.get("aggregations")):
            raise UserError(
                'the request has no aggregations: put them under "aggs", or use search for hits'
            )
        response = self.search(index, {"track_total_hits": True, **query_dsl, "size": 0})
        total = response.hits.total.value if response.hits.total else None
        return AggregateResponse(total=total, aggregations=response.aggregations or {})

    def lookup_object(
        self,
        object: Annotated[str, Field(description="a business object of the catalog")],
        id: Annotated[str, Field(description="its identifier")],
    ) -> BusinessObject:
        """One business object by its id, with every field, through the GraphQL route."""
        _, row = fetch_object(self.session.context, object, id, id)
        return BusinessObject(object=object, id=id, fields=row)

    def explain_field(
        self,
        name: Annotated[
            str, Field(description="a field of the record, e.g. from describe_catalog")
        ],
    ) -> Deliverable:
        """What the agent says about a field of the record: its type and meaning."""
        if name not in self.catalog.record.fields:
            raise UnknownEntity(
                name,
                f"no field {name!r} in {self.catalog.record.index}; the fields are "
                f"{', '.join(self.catalog.record.fields)}",
            )
        return explain_fields(self.catalog, [name])


def resolve(text: str, index: NameIndex, vectors: NameVectors | None) -> list[NameCandidate]:
    """Every candidate of every name found in `text`, with how it matched; the one place
    resolve_name reads names."""
    return [
        NameCandidate(
            phrase=found.text, kind=c.entity, value=c.value, method=c.method, score=found.score
        )
        for found in find_names(text, index, vectors=vectors)
        for c in found.candidates
    ]
