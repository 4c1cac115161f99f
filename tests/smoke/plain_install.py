"""Bosun used as a new user would, through the `bosun` command of a fresh plain install (`python3
dev.py smoke`).

    FRESH_VENV/bin/python tests/smoke/plain_install.py FOLDER

Run with the fresh venv's python, in FOLDER (its data directory is FOLDER/data): the sample is
generated and asked about, then a CSV of the user's own orders is loaded, a catalog drafted and
checked, and asked about. Each step must exit 0, print no traceback and say what it is expected to
say; the first that does not stops the smoke, named, with its output. Not a pytest module: it needs
the installed command, not this checkout.
"""

from __future__ import annotations

import csv
import os
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from importlib.metadata import version
from pathlib import Path

BOSUN = Path(sys.executable).with_name("bosun")
# versions named in the log
REPORTED = ["bosun-bi", "duckdb", "pyarrow", "langgraph", "pydantic", "typer"]
REGIONS = ["North", "South", "East", "West"]
CATEGORIES = ["Tools", "Garden", "Kitchen", "Toys"]
CUSTOMERS = [
    "Harbor Foods",
    "Linden Hardware",
    "Quarry Books",
    "Meadow Toys",
    "Cobalt Kitchens",
    "Pine Garden Co",
]


@dataclass
class Step:
    name: str
    args: list[str]
    expect: list[str] = field(default_factory=list)  # words the output must contain
    catalog: str | None = None  # BOSUN_CATALOG for the step


def write_orders(path: Path, rows: int = 400, seed: int = 7) -> list[dict[str, str]]:
    """A deterministic CSV of orders: date, customer, region, product category, quantity, amount;
    its rows."""
    draw = random.Random(seed)
    orders = []
    for _ in range(rows):
        quantity = draw.randint(1, 20)
        day = date(2026, 1, 1) + timedelta(days=draw.randrange(160))
        orders.append(
            {
                "order_date": day.isoformat(),
                "customer": draw.choice(CUSTOMERS),
                "region": draw.choice(REGIONS),
                "category": draw.choice(CATEGORIES),
                "quantity": str(quantity),
                "amount": f"{quantity * draw.uniform(5, 80):.2f}",
            }
        )
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(orders[0]))
        writer.writeheader()
        writer.writerows(orders)
    return orders


def steps(path: Path, orders: list[dict[str, str]]) -> list[Step]:
    """The commands in a new user's order, each with what its answer must say, worked out from the
    rows."""
    totals = {
        region: sum(float(o["amount"]) for o in orders if o["region"] == region)
        for region in REGIONS
    }
    top = max(totals, key=lambda region: totals[region])
    kitchen = sum(1 for o in orders if o["category"] == "Kitchen")
    return [
        Step(
            "generate the sample",
            ["data", "generate", "--rows", "2000", "--seed", "7", "--as-of", "2026-06-15"],
        ),
        Step(
            "ask about the sample",
            ["ask", "Top 3 carriers by TEU last quarter"],
            ["The top 3 carriers by TEU"],
        ),
        Step(
            "load the user's CSV",
            ["data", "load", str(path)],
            [f"loaded {len(orders)} rows into index 'orders'"],
        ),
        Step(
            "draft a catalog",
            ["catalog", "init", "--index", "orders", "--out", "catalog.yaml"],
            ["wrote catalog.yaml"],
        ),
        Step("check the catalog", ["catalog", "check", "catalog.yaml"], ["no problems"]),
        Step(
            "ask about the user's data",
            ["ask", "total amount by region"],
            [*REGIONS, f"{top} {totals[top]:,.2f}"],
            catalog="catalog.yaml",
        ),
        Step(
            "ask a count of the user's data",
            ["ask", "How many orders in Kitchen?"],
            [f"{kitchen} orders with category Kitchen."],
            catalog="catalog.yaml",
        ),
    ]


def run(step: Step, env: dict[str, str]) -> None:
    """One `bosun` command; exits naming the step, with its output, when it fails."""
    if step.catalog:
        env = {**env, "BOSUN_CATALOG": step.catalog}
    started = time.monotonic()
    done = subprocess.run(
        [str(BOSUN), *step.args], env=env, capture_output=True, text=True, check=False
    )
    output = done.stdout + done.stderr
    missing = [word for word in step.expect if word not in output]
    problem = None
    if done.returncode:
        problem = f"exit {done.returncode}"
    elif "Traceback" in output:
        problem = "a traceback"
    elif missing:
        problem = f"no {missing} in the output"
    if problem:
        sys.exit(
            f"smoke step failed: {step.name} ({shlex.join(['bosun', *step.args])}): "
            f"{problem}\n{output}"
        )
    print(f"smoke: {step.name}: ok ({time.monotonic() - started:.1f} s)", flush=True)


def main(folder: Path) -> None:
    os.chdir(folder)
    env = {name: value for name, value in os.environ.items() if not name.startswith("BOSUN_")}
    env |= {"BOSUN_DATA_DIR": str(folder / "data"), "COLUMNS": "120"}
    print(
        "smoke: installed " + ", ".join(f"{name} {version(name)}" for name in REPORTED), flush=True
    )
    path = folder / "orders.csv"
    for step in steps(path, write_orders(path)):
        run(step, env)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
