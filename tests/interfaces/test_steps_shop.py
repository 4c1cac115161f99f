"""Issue 23, steps after grouping on the shop test domain, end to end: the same rules and compiler
answer the shop's questions (rows checked against SQL over its orders), with no code that knows
either domain."""

from __future__ import annotations

import pytest

from bosun.conversation.session import Session
from tests.interfaces.test_shop_domain import gold, shop

__all__ = ["shop"]  # the shop domain's session fixture, shared with its own tests


def test_customers_past_a_revenue_threshold(shop: Session) -> None:
    answer = shop.ask("customers who spent over $1,000 this year", "steps-1")
    (result,) = answer.results
    expected = gold(
        shop,
        "select customer_name, sum(amount) from orders where order_date between '2026-01-01' "
        "and '2026-06-15' group by 1 having sum(amount) > 1000 order by 2 desc",
    )
    assert [[r[0], pytest.approx(r[1], rel=1e-6)] for r in result.rows] == [
        [k, round(v, 2)] for k, v in expected
    ]
    customers = gold(
        shop,
        "select count(distinct customer_name) from orders where order_date between "
        "'2026-01-01' and '2026-06-15'",
    )[0][0]
    assert answer.answer.startswith(f"{len(expected)} of {customers} "), answer.answer


def test_top_products_within_each_store(shop: Session) -> None:
    answer = shop.ask("top 2 products in each store", "steps-2")
    (result,) = answer.results
    expected = gold(
        shop,
        "select store_name, n from (select store_name, count(*) n, row_number() over (partition "
        "by store_name order by count(*) desc) r from orders group by store_name, product_name) "
        "where r <= 2",
    )
    assert sorted((r[0], r[2]) for r in result.rows) == sorted(expected)


def test_average_orders_per_day(shop: Session) -> None:
    answer = shop.ask("average orders per day in May", "steps-3")
    total = gold(
        shop, "select count(*) from orders where order_date between '2026-05-01' and '2026-05-31'"
    )[0][0]
    assert answer.results[0].rows == [[round(total / 31, 2), 31, total]]
