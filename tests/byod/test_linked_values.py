"""A linked file's attribute values are read in the plural a user types: visits.csv holds a site_id
that sites.csv names and types, so "visits at rodent exclosures" are the visits to the sites of type
Rodent Exclosure (issue #37 item 5: values drafted in the singular only)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.byod.drafting import Drafted, drafted_session, load_and_draft

TYPES = ["Control", "Rodent Exclosure", "Open Field", "Long-term Exclosure"]


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    folder = tmp_path_factory.mktemp("visits")
    pick = random.Random(5)
    visits = ["visit_id,site_id,visitors"]
    visits += [f"{i},{pick.randint(1, 24)},{pick.randint(1, 40)}" for i in range(1, 1201)]
    (folder / "visits.csv").write_text("\n".join(visits) + "\n")
    sites = ["site_id,site_name,site_type"]
    sites += [f"{i},Site {chr(64 + i)}{chr(70 + i % 5)}x,{TYPES[i % 4]}" for i in range(1, 25)]
    (folder / "sites.csv").write_text("\n".join(sites) + "\n")
    return load_and_draft(folder, "visits", "sites")


@pytest.fixture(scope="module")
def session(drafted: Drafted) -> Iterator[Session]:
    yield from drafted_session(drafted)


def _gold(drafted: Drafted, site_type: str) -> int:
    folder = drafted[0].parent
    found = duckdb.sql(
        f"select count(*) from read_csv('{folder}/visits.csv') join "
        f"read_csv('{folder}/sites.csv') using (site_id) where site_type = '{site_type}'"
    ).fetchall()
    return int(found[0][0])


def test_a_linked_value_is_drafted_in_the_singular_and_the_plural(drafted: Drafted) -> None:
    values = drafted[1]["links"]["sites"]["attributes"]["site_type"]["values"]
    assert values["Rodent Exclosure"] == ["Rodent Exclosure", "Rodent Exclosures"]
    assert values["Control"] == ["Control", "Controls"]


@pytest.mark.parametrize(
    ("question", "site_type"),
    [
        ("how many visits at rodent exclosures", "Rodent Exclosure"),
        ("How many visits were at long-term exclosures?", "Long-term Exclosure"),
        ("number of visits at the rodent exclosure", "Rodent Exclosure"),
    ],
)
def test_a_plural_value_of_a_linked_attribute_filters_the_records(
    session: Session, drafted: Drafted, question: str, site_type: str
) -> None:
    answer = session.ask(question, question)
    assert answer.results[0].rows == [[_gold(drafted, site_type)]], answer.answer
    assert not answer.not_understood
