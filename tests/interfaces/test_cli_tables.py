"""`bosun ask`'s tables as a person reads them: headers as the answer words them, figures
right-aligned in one format per column, percentages and medians at their natural precision, money
in full in the table and short in the text (issue #38)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from bosun.answers.numbers import currency_symbol, percent, said, short
from bosun.interfaces.cli.app import app

WIDTH = 120


def printed(data_dir: Path, question: str, *extra: str) -> str:
    """What `bosun ask QUESTION` prints on a terminal WIDTH columns wide."""
    env = {"BOSUN_DATA_DIR": str(data_dir), "COLUMNS": str(WIDTH)}
    result = CliRunner().invoke(app, ["ask", question, *extra], env=env, terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    return result.output


def table(output: str) -> tuple[list[str], list[list[str]]]:
    """The first table's header and body cells, each cell with its padding (to see its
    alignment)."""
    lines = output.splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("┃"))
    header = [cell.strip() for cell in lines[header_at].strip("┃").split("┃")]
    body = []
    for line in lines[header_at + 2 :]:
        if not line.startswith("│"):
            break
        body.append(line.strip("│").split("│"))
    return header, body


def column(body: list[list[str]], at: int) -> list[str]:
    return [row[at] for row in body]


def right_aligned(cells: list[str]) -> bool:
    """Every cell's text ends at the column's right edge (one space of padding after it)."""
    return all(cell.endswith(" ") and not cell.endswith("  ") for cell in cells if cell.strip())


def gold(data_dir: Path, sql: str) -> list[tuple[object, ...]]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        return connection.execute(sql).fetchall()


def test_a_ranking_has_catalog_headers_and_right_aligned_figures_of_one_format(
    data_dir: Path,
) -> None:
    header, body = table(printed(data_dir, "Top 5 shippers to LA and their average transit times"))
    assert header == ["shipper", "shipments", "average transit days"]
    shipments, days = column(body, 1), column(body, 2)
    assert right_aligned(shipments) and right_aligned(days)
    assert not right_aligned(column(body, 0))  # names read from the left
    # 1,045 … 519: the thousands separated wherever there are some
    assert all("," in cell for cell in shipments if int(cell.replace(",", "")) >= 1000)
    assert all(len(cell.strip().split(".")[1]) == 2 for cell in days)


def test_thousands_are_separated_in_every_row_of_a_column_or_in_none(data_dir: Path) -> None:
    """The issue's "25,590 above 8824": a quarter under 10,000 TEU is written like the others."""
    _, body = table(
        printed(data_dir, "What is the total TEU handled by Long Beach per quarter in 2025?")
    )
    teu = [cell.strip() for cell in column(body, 1)]
    assert any(int(cell.replace(",", "")) < 10_000 for cell in teu)
    assert all("," in cell for cell in teu)


def test_a_date_part_is_headed_in_words(data_dir: Path) -> None:
    header, body = table(printed(data_dir, "shipments by weekday this year"))
    assert header == ["day of the week of arrival date", "shipments"]
    assert [cell.strip() for cell in column(body, 0)][:2] == ["Monday", "Tuesday"]


def test_a_change_in_percent_reads_with_its_sign_and_one_decimal(data_dir: Path) -> None:
    header, body = table(printed(data_dir, "percentage change of TEU per month in 2025"))
    assert header == ["month", "TEU", "change", "change %"]
    rows = json.loads(printed(data_dir, "percentage change of TEU per month in 2025", "--json"))
    percents = rows["results"][0]["rows"]
    assert column(body, 3)[1].strip() == f"{percents[1][3]:.1f} %"  # "-5.3 %"
    assert all(cell.strip().endswith(" %") for cell in column(body, 3)[1:])
    assert all("," in cell for cell in column(body, 2)[1:] if abs(int(cell.replace(",", ""))) > 999)


def test_a_median_of_whole_days_is_written_whole(data_dir: Path) -> None:
    header, body = table(printed(data_dir, "median transit days in 2025"))
    assert header[0] == "median transit days"
    assert column(body, 0)[0].strip() == "17"  # not 17.00


def test_money_is_whole_in_the_table_and_short_in_the_text(data_dir: Path) -> None:
    output = printed(data_dir, "declared value by carrier in 2025")
    header, body = table(output)
    totals = gold(
        data_dir,
        "select carrier_name, sum(declared_value_usd) v from shipments where arrival_date "
        "between '2025-01-01' and '2025-12-31' group by 1 order by v desc",
    )
    (first, value), *_ = totals
    assert header == ["carrier", "declared value (USD)"]
    whole = column(body, 1)[0].strip()  # the table keeps every cent: "$5,198,999,470.25"
    assert re.fullmatch(r"\$\d{1,3}(,\d{3})+\.\d\d", whole), whole
    assert float(whole[1:].replace(",", "")) == pytest.approx(value)
    assert right_aligned(column(body, 1))
    assert f"{first} ${value / 1e9:.2f} B" in " ".join(output.split())  # type: ignore[operator]
    # the JSON answer keeps the figures as numbers, and says them short in its text
    answer = json.loads(printed(data_dir, "declared value by carrier in 2025", "--json"))
    assert answer["results"][0]["rows"][0] == [first, pytest.approx(value)]
    assert f"{first} ${value / 1e9:.2f} B" in answer["answer"]  # type: ignore[operator]


def test_a_listing_heads_its_fields_in_catalog_words_and_writes_money_whole(
    data_dir: Path,
) -> None:
    header, body = table(printed(data_dir, "show the 5 most valuable shipments in 2025"))
    assert header[:3] == ["bol number", "value", "arrival date"]
    assert all(cell.strip().startswith("$") and cell.strip()[-3] == "." for cell in column(body, 1))
    assert column(body, 2)[0].strip().startswith("2025-")


@pytest.mark.parametrize(
    ("value", "currency", "said"),
    [
        (2_410_725_382.79, "$", "$2.41 B"),
        (-155_088_907.57, "$", "-$155.09 M"),
        (999_999.999, "$", "$1.00 M"),  # rounded up into the next scale, not "$1,000.00 K"
        (512.3, "$", "$512.30"),
        (29_462_538_388.96, None, "29.46 B"),
    ],
)
def test_short_figures(value: float, currency: str | None, said: str) -> None:
    assert short(value, currency) == said


@pytest.mark.parametrize(
    ("value", "unit", "written"),
    [
        (2_410_725_382.79, "USD", "$2.41 B"),  # money short with its symbol
        (512.3, "USD", "$512.30"),
        (29_462_538_388.96, None, "29.46 B"),  # a million or more short
        (24_946, None, "24,946"),
        (17.0, "days", "17"),  # no false precision
        (16.14, "days", "16.14"),
        (0.1234567, None, "0.1235"),
    ],
)
def test_a_figure_in_a_sentence(value: float, unit: str | None, written: str) -> None:
    assert said(value, unit) == written


@pytest.mark.parametrize(
    ("value", "written"), [(-2.30, "-2.3 %"), (12.0, "12 %"), (0.25, "0.25 %")]
)
def test_a_percentage_at_its_natural_precision(value: float, written: str) -> None:
    assert percent(value) == written


def test_a_currency_is_a_currency_code_as_the_catalog_writes_it() -> None:
    assert [currency_symbol(u) for u in ("USD", "EUR", "TEU", "kg", "days", "cup", None)] == [
        "$",
        "€",
        None,
        None,
        None,
        None,
        None,
    ]
