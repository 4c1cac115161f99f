"""Confirmed examples for the LLM backend: answers people marked right (or wrong, with a
correction), the few closest to a question found by similarity in the name index's vector store
(Qdrant).

An example only informs the prompt, as inert data: the model's reading is checked as every reading
is, so an example can never add an index, a field outside the catalog, a script or a guardrail
change.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bosun.understanding.vectors import Embedder, HashingEmbedder

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

MAX_EXAMPLES = 3  # in one prompt
MAX_TEXT = 240  # characters of a question or a correction, each
MAX_LINE = 900  # characters of one example as the prompt shows it; a longer reading is left out
MIN_SCORE = 0.2  # cosine similarity below which an example is not "close"
MAX_KEPT = 2000  # the newest confirmed examples searched


@dataclass(frozen=True)
class Example:
    """A question and how it was read, as a person confirmed it: right, or wrong with a
    correction."""

    question: str
    # the turn's reading (the Meaning's main parts), as the history shows it
    read_as: dict[str, Any] | None
    right: bool
    correction: str = ""

    def line(self) -> str:
        """One JSON line: every text a quoted string, never an instruction; bounded in size."""
        entry: dict[str, Any] = {
            "question": _cut(self.question),
            "confirmed": "right" if self.right else "wrong",
        }
        if self.correction:
            entry["correction"] = _cut(self.correction)
        shown = _inert(json.dumps({**entry, "read_as": self.read_as}, ensure_ascii=False))
        return shown if len(shown) <= MAX_LINE else _inert(json.dumps(entry, ensure_ascii=False))


def _inert(line: str) -> str:
    """Angle brackets escaped (still JSON): no text can close the prompt's <examples> or open a
    <question>."""
    return line.replace("<", "\\u003c").replace(">", "\\u003e")


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


class ExampleSource(Protocol):
    """Where the examples are kept (the conversation store): read again when its version changes."""

    def version(self) -> str: ...

    def examples(self) -> list[Example]: ...


class ExampleIndex:
    """The confirmed examples, embedded into a collection of the vector store the name index
    uses."""

    def __init__(
        self,
        embedder: Embedder | None = None,
        client: Callable[[], QdrantClient] | None = None,
        source: ExampleSource | None = None,
    ) -> None:
        self.embedder = embedder or HashingEmbedder()
        self._client: QdrantClient | None = None
        self._client_of = client  # opened on the first search, once there are examples to search
        self._source = source
        self._version: str | None = None  # the source's version the held examples were read at
        self._examples: list[Example] = []
        self._collection: str | None = None  # the collection holding `_examples`, once built
        self._name = f"examples-{self.embedder.name}-{uuid.uuid4().hex[:12]}"
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Read the source again on the next search."""
        self._version = None

    def _hold(self, examples: list[Example]) -> None:
        """Hold these examples (the newest last) instead of the ones held; embedded on the next
        search."""
        self._examples = examples[-MAX_KEPT:]
        self._collection = None

    def _follow(self) -> None:
        """The source's examples, when they changed since they were read (one small query a
        question)."""
        if self._source is None:
            return
        version = self._source.version()
        if version != self._version:
            self._hold(self._source.examples())
            self._version = version

    def closest(self, question: str, limit: int = MAX_EXAMPLES) -> list[Example]:
        """Up to `limit` examples closest to the question, best first; none when none is close."""
        with self._lock:
            self._follow()
            if not self._examples:
                return []
            collection = self._built()
            (vector,) = self.embedder.embed([question])
            found = self.client.query_points(
                collection, query=vector, limit=limit, score_threshold=MIN_SCORE
            )
            return [self._examples[int(point.id)] for point in found.points]

    def prompt_text(self, question: str) -> str:
        """The closest examples as the prompt carries them, one JSON line each, or "(none)"."""
        return "\n".join(example.line() for example in self.closest(question)) or "(none)"

    @property
    def client(self) -> QdrantClient:
        if self._client is None and self._client_of is not None:
            self._client = self._client_of()
        if self._client is None:
            from qdrant_client import QdrantClient

            self._client = QdrantClient(location=":memory:")
        return self._client

    def _built(self) -> str:
        """The collection of the held examples, built again (replacing this index's last one) when
        they changed.

        Named by this index alone: a Qdrant server shared by several processes gives each its own
        collection.
        """
        if self._collection is not None:
            return self._collection
        from qdrant_client import models

        name = self._name
        if self.client.collection_exists(name):
            self.client.delete_collection(name)
        self.client.create_collection(
            name,
            vectors_config=models.VectorParams(
                size=self.embedder.dim, distance=models.Distance.COSINE
            ),
        )
        vectors = self.embedder.embed([example.question for example in self._examples])
        self.client.upload_points(
            name, [models.PointStruct(id=i, vector=v) for i, v in enumerate(vectors)], wait=True
        )
        self._collection = name
        return name
