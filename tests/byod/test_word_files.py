"""The words files are read as words: YAML 1.1 reads a bare `no` as false, so "no" (number) was in
no list and a column such as "order_no" was drafted as a quantity and summed ("total order no")."""

from __future__ import annotations

from pathlib import Path

from tests.byod.drafting import load_and_draft


def test_a_number_named_no_is_a_key_said_as_a_number(tmp_path: Path) -> None:
    lines = ["order_no,order_date,amount"]
    lines += [f"{n},2024-{1 + n % 12:02d}-{1 + n % 28:02d},{n % 40 + 0.5}" for n in range(1, 301)]
    (tmp_path / "orders.csv").write_text("\n".join(lines) + "\n")
    _, catalog, printed = load_and_draft(tmp_path, "orders")
    field = catalog["objects"]["orders"]["fields"]["order_no"]
    assert field["role"] == "identifier"
    assert "order number" in field["synonyms"]
    assert all(m.get("field") != "order_no" for m in catalog["measures"].values())
    assert "order_no: a number with an id name: a key, never summed → identifier" in (
        printed.splitlines()
    )
