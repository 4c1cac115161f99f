"""The second domain answers its own questions, end to end, with no code change."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest

from bosun.catalog import load_catalog
from bosun.conversation.session import Session, open_session
from bosun.conversation.start import start_screen
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
    expected = gold(
        shop,
        "select store_name, sum(amount) from orders where customer_name = 'NORTHWIND TRADERS' "
        "and order_date between '2026-03-01' and '2026-03-31' group by 1",
    )
    assert {r[0]: r[1] for r in result.rows} == pytest.approx(
        {k: round(v, 2) for k, v in expected}, rel=1e-6
    )


def test_count_last_month(shop: Session) -> None:
    answer = shop.ask("How many orders did Contoso place last month?", "t2")
    expected = gold(
        shop,
        "select count(*) from orders where customer_name = 'CONTOSO LTD' "
        "and order_date between '2026-05-01' and '2026-05-31'",
    )
    assert answer.results[0].rows == [[expected[0][0]]]


def test_top_products_ranked_and_stated(shop: Session) -> None:
    answer = shop.ask("Top 3 products by units this year", "t3")
    expected = gold(
        shop,
        "select product_name, sum(quantity) q from orders where order_date >= '2026-01-01' "
        "group by 1 order by q desc limit 3",
    )
    assert [tuple(r) for r in answer.results[0].rows] == expected
    assert answer.answer.splitlines()[-1].startswith(f"{expected[0][0]} leads on units")


def test_every_figure_is_read_back_in_the_shops_words(shop: Session) -> None:
    """The readings name the shop catalog's measures, fields and date field; no word of another
    domain."""
    questions = [
        "Revenue by store for Northwind in March 2026",
        "How many orders did Contoso place last month?",
        "Top 3 products by units this year",
        "orders over 500 dollars at the web store",
    ]
    answers = [shop.ask(q, f"r{i}") for i, q in enumerate(questions)]
    meanings = [shop.history(f"r{i}")[-1].meaning for i in range(len(questions))]
    problems = [
        p
        for a, m in zip(answers, meanings, strict=True)
        for p in unread(a, m, shop.context.catalog)
    ]
    assert not problems, "\n".join(problems)
    assert [a.results[0].reading for a in answers] == [
        "total revenue (USD) · by store · customer NORTHWIND TRADERS · March 2026 (order date)",
        "number of orders · customer CONTOSO LTD · May 2026 (order date)",
        "total units · by product · top 3 by total units · 1 Jan 2026 to 15 Jun 2026 (order date)",
        "orders · store ONLINE · amount above 500 USD",
    ]
    (count,) = answers[1].results[0].rows[0]
    assert answers[1].answer == f"{count} orders with customer CONTOSO LTD and order date May 2026."


def test_the_start_screen_offers_six_questions_of_this_domain_that_it_answers(
    shop: Session,
) -> None:
    context = shop.context
    start = start_screen(context.catalog, context.engine, context.today())
    assert start.holds.records == "orders" and start.holds.count == 3000
    assert len(start.questions) == 6
    for i, question in enumerate(start.questions):
        answer = shop.ask(question, f"start-{i}")
        assert answer.status == "done" and answer.results and not answer.not_understood, question


def test_a_link_to_a_customer_attribute_and_a_listing_of_customers(shop: Session) -> None:
    """Issue 23: the shop's own linkable attributes (a customer's segment) filter the orders through
    a lookup of the customers; and a listing of the customers themselves reads their index."""
    con = duckdb.connect()
    for index in ("orders", "customers"):
        con.register(index, shop.context.engine.inner.to_arrow(index))
    answer = shop.ask("revenue by store from business customers", "links-1")
    (result,) = answer.results
    expected = con.execute(
        "select o.store_name, sum(o.amount) from orders o join customers c using (customer_name) "
        "where c.segment = 'business' group by 1"
    ).fetchall()
    assert sorted(tuple(r) for r in result.rows) == sorted(
        (s, pytest.approx(v)) for s, v in expected
    )
    assert [s.worker for s in answer.trace.sub_goals][:3] == [
        "metadata_lookup",
        "reference_lookup",
        "es_query_gen",
    ]
    listing = shop.ask("which customers are business customers", "links-2")
    (table,) = listing.results
    names = con.execute(
        "select customer_name from customers where segment = 'business' order by 1"
    ).fetchall()
    assert [r[0] for r in table.rows] == [n for (n,) in names]


def test_shares_and_a_median_in_the_shop(shop: Session) -> None:
    """Issue 23's measure kinds on the second domain: each store's share of all revenue, the
    catalog's online share, and a median, against SQL over the orders."""
    shares = shop.ask("share of revenue by store", "share").results[0]
    [(whole,)] = gold(shop, "select sum(amount) from orders")
    expected = {
        s: [round(100 * v / whole, 2), round(v, 2), round(whole, 2)]
        for s, v in gold(shop, "select store_name, sum(amount) from orders group by 1")
    }
    got = {r[0]: r[1:] for r in shares.rows}
    assert set(got) == set(expected)
    for store, cells in expected.items():
        assert got[store] == pytest.approx(cells), store
    online = shop.ask("online share of orders", "online").results[0]
    [(part, count)] = gold(
        shop, "select count(*) filter (where store_name = 'ONLINE'), count(*) from orders"
    )
    assert online.rows == [[round(100 * part / count, 2), part, count]]
    median = shop.ask("median order amount", "median").results[0]
    [(value, n)] = gold(shop, "select quantile_cont(amount, 0.5), count(amount) from orders")
    assert median.rows == [[round(value, 2), n]]


def test_periods_side_by_side_per_store(shop: Session) -> None:
    """Issue 23: "which store grew most" ranks the stores by the change between the two periods."""
    answer = shop.ask("which store grew most in revenue from Q4 2025 to Q1 2026", "t-periods")
    expected = gold(
        shop,
        "select store_name, round(sum(amount) filter (where order_date between '2025-10-01' and "
        "'2025-12-31'), 2) a, round(sum(amount) filter (where order_date between '2026-01-01' "
        "and '2026-03-31'), 2) b from orders group by 1 order by b - a desc limit 1",
    )
    ((store, before, after),) = expected
    (row,) = answer.results[0].rows
    assert row[:3] == [store, pytest.approx(before), pytest.approx(after)]
    assert row[3] == pytest.approx(after - before, abs=0.02)


def test_products_of_one_store_never_of_another(shop: Session) -> None:
    """Issue 23: "but never" keeps the products with no order at the other store, not their other
    orders."""
    answer = shop.ask("products sold downtown but never at the mall last week", "t-never")
    expected = gold(
        shop,
        "select product_name, count(*) filter (where store_name = 'DOWNTOWN') from orders where "
        "order_date between '2026-06-08' and '2026-06-14' group by 1 having "
        "count(*) filter (where store_name = 'DOWNTOWN') > 0 and "
        "count(*) filter (where store_name = 'MALL') = 0",
    )
    assert expected
    assert sorted(map(tuple, answer.results[0].rows)) == sorted(expected)


def test_a_period_before_the_records_begin_gives_no_change(shop: Session) -> None:
    """Issue 23: April a year before the data begins has no records: its zero is no figure to change
    from."""
    [(first,)] = gold(shop, "select min(order_date) from orders")
    answer = shop.ask("revenue in April vs April last year", "t-before")
    assert first > date(2025, 4, 30)
    assert (
        f"The records begin {first.day} {first:%b %Y}: April 2025 is before them." in answer.answer
    )
    assert "change +" not in answer.answer and "no change is given" in answer.answer


def test_the_shops_revenue_is_judged_by_its_own_catalog(shop: Session) -> None:
    """The shop's catalog says more revenue is better: the store with the least is the worst, in its
    words."""
    answer = shop.ask("bottom 2 stores by revenue", "t-worst")
    rows = gold(shop, "select store_name, sum(amount) r from orders group by 1 order by r limit 2")
    (last, least), (other, _) = rows
    assert [r[0] for r in answer.results[0].rows] == [last, other]
    figure = f"{least:,.0f}" if float(least).is_integer() else f"{least:,.2f}"  # type: ignore[arg-type]
    assert f"{last} has the worst revenue (USD), the least, with {figure}, " in answer.answer


def test_suggested_questions_fit_the_domain_and_read_back_as_made(shop: Session) -> None:
    """Issue 38 item 4 on a second catalog: the suggestions come from its own fields and dates,
    and each, asked in the thread, is read as it says."""
    answer = shop.ask("how many orders last month", "next")
    assert answer.suggestions == [
        "number of orders · by product · May 2026 (order date)",
        "number of orders · April 2026 vs May 2026 compared (order date)",
        "orders · May 2026 (order date)",
    ]
    for question in answer.suggestions:
        asked = shop.ask(question, "next")
        assert asked.not_understood == [] and [r.reading for r in asked.results] == [question]


@pytest.mark.parametrize(
    ("question", "attribute", "reference"),
    [
        ("revenue by customer segment", "segment", "customers"),
        ("revenue per store region", "region", "stores"),
    ],
)
def test_revenue_grouped_by_a_linked_attribute_is_a_join(
    shop: Session, question: str, attribute: str, reference: str
) -> None:
    answer = shop.ask(question, f"link-{attribute}")
    assert answer.not_understood == []
    (result,) = answer.results
    con = duckdb.connect()
    con.register("orders", shop.context.engine.inner.to_arrow("orders"))
    con.register(reference, shop.context.engine.inner.to_arrow(reference))
    key = {"customers": "customer_name", "stores": "store_name"}[reference]
    expected = con.execute(
        f"select r.{attribute}, sum(o.amount) from orders o join {reference} r using ({key}) "
        f"where r.{attribute} is not null group by 1"
    ).fetchall()
    assert {r[0]: r[1] for r in result.rows} == pytest.approx(
        {k: round(v, 2) for k, v in expected}, rel=1e-6
    )
    assert len(result.rows) == len(expected) > 1
