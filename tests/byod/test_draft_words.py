"""Issue #24 classes 7 and 10 on a file of sales written here (one row per pizza sold), drafted with
no edits.

Class 7: short codes are read as the words of their common code set (code_sets.yaml): "large" is
size L, a Y/N column is a flag read by its name ("delivered" is delivered = Y). Class 10: what one
row is comes from the file's name ("pizza_sales": a pizza sold), so "pizzas" and "sold" count rows.
The questions were written before the drafter learnt either; each is judged against SQL over the
same file.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session, open_session
from bosun.settings import load_settings
from tests.byod.drafting import load_and_draft

NAME = "pizza_sales"


def _sales() -> str:
    pick = random.Random(24)
    prices = {"S": 12.0, "M": 16.0, "L": 20.5, "XL": 25.5}
    lines = ["order_id,order_date,pizza_name,size,quantity,price,delivered,vegetarian"]
    for i in range(900):
        size = pick.choice(list(prices))
        lines.append(
            f"{1 + i // 3},2015-{1 + i % 12:02d}-{1 + i % 28:02d},{pick.choice(['hawaiian', 'veggie'])},"
            f"{size},{pick.choice([1, 1, 2])},{prices[size] + pick.choice([0, 0.25])},"
            f"{pick.choice('YN')},{pick.choice(['YES', 'NO'])}"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any], str]]:
    """(data dir, catalog, what `catalog init` printed) for the file loaded and drafted as a user
    would."""
    folder = tmp_path_factory.mktemp(NAME)
    (folder / f"{NAME}.csv").write_text(_sales())
    yield load_and_draft(folder, NAME)


@pytest.fixture(scope="module")
def session(drafted: tuple[Path, dict[str, Any], str]) -> Iterator[Session]:
    data_dir = drafted[0]
    opened = open_session(
        load_settings(data_dir=data_dir, catalog=data_dir.parent / "catalog.yaml")
    )
    yield opened
    opened.close()


def _sql(drafted: tuple[Path, dict[str, Any], str], query: str) -> list[list[Any]]:
    with duckdb.connect() as con:
        con.execute(
            f"create view {NAME} as select * from "
            f"read_csv_auto('{drafted[0].parent / (NAME + '.csv')}', "
            "all_varchar = false, types = {'delivered': 'VARCHAR', 'vegetarian': 'VARCHAR'})"
        )
        return [list(row) for row in con.execute(query).fetchall()]


def _key(row: list[Any]) -> tuple[str, float]:
    return str(row[0]), round(float(row[-1]), 2)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("How many large pizzas were sold?", "select count(*) from pizza_sales where size = 'L'"),
        (
            "How many pizzas did we sell in March 2015?",
            "select count(*) from pizza_sales where month(order_date) = 3 and year(order_date) = "
            "2015",
        ),
        ("Revenue from extra large pizzas", "select sum(price) from pizza_sales where size = 'XL'"),
        ("How many delivered pizzas?", "select count(*) from pizza_sales where delivered = 'Y'"),
        (
            "How many vegetarian pizzas were sold in 2015?",
            "select count(*) from pizza_sales where vegetarian = 'YES'",
        ),
        ("Pizzas sold by size", "select size, count(*) from pizza_sales group by 1"),
        ("Pizzas by size", "select size, count(*) from pizza_sales group by 1"),
        (
            "Top 2 pizzas by revenue",
            "select pizza_name, sum(price) from pizza_sales group by 1 order by 2 desc limit 2",
        ),
        (
            "How many orders had small pizzas?",
            "select count(distinct order_id) from pizza_sales where size = 'S'",
        ),
    ],
)
def test_questions_in_the_owners_words(
    question: str, gold: str, session: Session, drafted: tuple[Path, dict[str, Any], str]
) -> None:
    answer = session.ask(question, question)
    assert answer.status == "done" and not answer.not_understood, answer.answer
    rows = answer.results[0].rows
    assert sorted(map(_key, rows)) == sorted(map(_key, _sql(drafted, gold))), (answer.answer, rows)


def test_code_sets_give_their_words(drafted: tuple[Path, dict[str, Any], str]) -> None:
    fields = drafted[1]["objects"][NAME]["fields"]
    assert (
        fields["size"]["values"]["L"][0] == "large"
        and fields["size"]["values"]["XL"][0] == "extra large"
    )
    assert fields["delivered"]["values"] == {"Y": ["delivered"]}
    assert fields["vegetarian"]["type"] == "boolean"  # the loader reads YES/NO as true/false
    assert fields["vegetarian"]["values"] == {"true": ["vegetarian"]}


def test_the_record_noun_and_its_verbs_count_rows(
    drafted: tuple[Path, dict[str, Any], str],
) -> None:
    count = drafted[1]["measures"][NAME]
    assert count["label"] == "pizzas sold"
    # "pizzas" alone also names pizza_name
    assert {"sold", "sell", "pizzas sold"} <= set(count["words"])
    assert {"pizza", "pizzas", "sold"} <= set(drafted[1]["objects"][NAME]["synonyms"])


def test_catalog_init_says_which_code_set(drafted: tuple[Path, dict[str, Any], str]) -> None:
    printed = drafted[2].splitlines()
    assert "size: values S, M, L, XL: the code set sizes (code_sets.yaml) → dimension" in printed
    assert (
        "delivered: values Y, N: the code set yes/no (code_sets.yaml) → a flag read by its name "
        "and share 'share delivered'" in printed
    )
