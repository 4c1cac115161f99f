"""The second domain answers its own questions, end to end, with no code change."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest

from bosun.catalog import load_catalog
from bosun.conversation.session import Session, open_session
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.settings import Settings
from tests.interfaces.readings import unread

SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Session:
    folder = tmp_path_factory.mktemp("shop")
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, load_catalog(SHOP), 3000, 11, date(2026, 6, 15))
    engine.close()
    return open_session(Settings(data_dir=folder, catalog=SHOP))


def gold(shop: Session, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect()
    con.register("orders", shop.context.engine.inner.to_arrow("orders"))
    return con.execute(sql).fetchall()


def test_revenue_by_store_for_a_customer_alias(shop: Session) -> None:
    answer = shop.ask("Revenue by store for Northwind in March 2026", "t1")
    (result,) = answer.results
    expected = gold(shop, "select store_name, sum(amount) from orders where customer_name = 'NORTHWIND TRADERS' "
                          "and order_date between '2026-03-01' and '2026-03-31' group by 1")
    assert {r[0]: r[1] for r in result.rows} == pytest.approx({k: round(v, 2) for k, v in expected}, rel=1e-6)


def test_count_last_month(shop: Session) -> None:
    answer = shop.ask("How many orders did Contoso place last month?", "t2")
    expected = gold(shop, "select count(*) from orders where customer_name = 'CONTOSO LTD' "
                          "and order_date between '2026-05-01' and '2026-05-31'")
    assert answer.results[0].rows == [[expected[0][0]]]


def test_top_products_ranked_and_stated(shop: Session) -> None:
    answer = shop.ask("Top 3 products by units this year", "t3")
    expected = gold(shop, "select product_name, sum(quantity) q from orders where order_date >= '2026-01-01' "
                          "group by 1 order by q desc limit 3")
    assert [tuple(r) for r in answer.results[0].rows] == expected
    assert answer.answer.splitlines()[-1].startswith(f"{expected[0][0]} leads on units")


def test_every_figure_is_read_back_in_the_shops_words(shop: Session) -> None:
    """The readings name the shop catalog's measures, fields and date field; no word of another domain."""
    questions = ["Revenue by store for Northwind in March 2026", "How many orders did Contoso place last month?",
                 "Top 3 products by units this year", "orders over 500 dollars at the web store"]
    answers = [shop.ask(q, f"r{i}") for i, q in enumerate(questions)]
    meanings = [shop.history(f"r{i}")[-1].meaning for i in range(len(questions))]
    problems = [p for a, m in zip(answers, meanings, strict=True) for p in unread(a, m, shop.context.catalog)]
    assert not problems, "\n".join(problems)
    assert [a.results[0].reading for a in answers] == [
        "total revenue (USD) · by store · customer NORTHWIND TRADERS · 2026-03-01 to 2026-03-31 (order date)",
        "number of orders · customer CONTOSO LTD · 2026-05-01 to 2026-05-31 (order date)",
        "total units · by product · top 3 by total units · 2026-01-01 to 2026-06-15 (order date)",
        "orders · store ONLINE · amount above 500 USD"]
    (count,) = answers[1].results[0].rows[0]
    assert answers[1].answer == f"{count} orders with customer CONTOSO LTD and order date 2026-05-01 to 2026-05-31."


def test_periods_side_by_side_per_store(shop: Session) -> None:
    """Issue 23: "which store grew most" ranks the stores by the change between the two periods."""
    answer = shop.ask("which store grew most in revenue from Q4 2025 to Q1 2026", "t-periods")
    expected = gold(shop, "select store_name, round(sum(amount) filter (where order_date between '2025-10-01' and "
                          "'2025-12-31'), 2) a, round(sum(amount) filter (where order_date between '2026-01-01' "
                          "and '2026-03-31'), 2) b from orders group by 1 order by b - a desc limit 1")
    ((store, before, after),) = expected
    (row,) = answer.results[0].rows
    assert row[:3] == [store, pytest.approx(before), pytest.approx(after)]
    assert row[3] == pytest.approx(after - before, abs=0.02)


def test_products_of_one_store_never_of_another(shop: Session) -> None:
    """Issue 23: "but never" keeps the products with no order at the other store, not their other orders."""
    answer = shop.ask("products sold downtown but never at the mall last week", "t-never")
    expected = gold(shop, "select product_name, count(*) filter (where store_name = 'DOWNTOWN') from orders where "
                          "order_date between '2026-06-08' and '2026-06-14' group by 1 having "
                          "count(*) filter (where store_name = 'DOWNTOWN') > 0 and "
                          "count(*) filter (where store_name = 'MALL') = 0")
    assert expected
    assert sorted(map(tuple, answer.results[0].rows)) == sorted(expected)
