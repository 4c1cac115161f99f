"""Writes TPC-H with DuckDB's own generator: run by `tpch.generate` in a subprocess, not imported.

python -S tests/byod/dbgen.py FOLDER SCALE    # with PYTHONPATH at the generator `dev.py test`
installs

The tpch extension is loaded by path from the `duckdb-extension-tpch` package (offline). That
package exists only up to duckdb 1.5.5 and pins duckdb to it, so it runs here with its own duckdb,
beside the project's newer one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import duckdb_extension_tpch

LINEITEMS = """
SELECT l.l_orderkey AS order_key, l.l_linenumber AS line_number, o.o_orderdate AS order_date,
       l.l_shipdate AS ship_date, l.l_commitdate AS commit_date, l.l_receiptdate AS receipt_date,
       o.o_orderstatus AS order_status, o.o_orderpriority AS order_priority, l.l_shipmode AS ship_mode,
       l.l_shipinstruct AS ship_instructions, l.l_returnflag AS return_flag, l.l_linestatus AS line_status,
       c.c_custkey AS customer_key, c.c_name AS customer_name, c.c_mktsegment AS market_segment,
       cn.n_name AS customer_nation, cr.r_name AS customer_region,
       s.s_suppkey AS supplier_key, s.s_name AS supplier_name, sn.n_name AS supplier_nation,
       p.p_partkey AS part_key, p.p_brand AS brand, p.p_type AS part_type, p.p_container AS container,
       l.l_quantity::DOUBLE AS quantity, l.l_extendedprice::DOUBLE AS extended_price,
       l.l_discount::DOUBLE AS discount, l.l_tax::DOUBLE AS tax,
       round(l.l_extendedprice * (1 - l.l_discount), 2)::DOUBLE AS revenue
FROM lineitem l JOIN orders o ON o.o_orderkey = l.l_orderkey JOIN customer c ON c.c_custkey = o.o_custkey
JOIN nation cn ON cn.n_nationkey = c.c_nationkey JOIN region cr ON cr.r_regionkey = cn.n_regionkey
JOIN supplier s ON s.s_suppkey = l.l_suppkey JOIN nation sn ON sn.n_nationkey = s.s_nationkey
JOIN part p ON p.p_partkey = l.l_partkey
ORDER BY order_key, line_number
"""

REFERENCES = {
    "customers": "SELECT c_custkey AS customer_key, c_name AS customer_name, c_address AS address, "
    "n_name AS nation, c_phone AS phone, c_acctbal::DOUBLE AS account_balance, "
    "c_mktsegment AS market_segment "
    "FROM customer JOIN nation ON n_nationkey = c_nationkey ORDER BY c_custkey",
    "suppliers": "SELECT s_suppkey AS supplier_key, s_name AS supplier_name, s_address AS address, n_name AS nation, "
    "s_phone AS phone, s_acctbal::DOUBLE AS account_balance FROM supplier JOIN nation ON "
    "n_nationkey = "
    "s_nationkey ORDER BY s_suppkey",
    "parts": "SELECT p_partkey AS part_key, p_name AS part_name, p_mfgr AS manufacturer, p_brand AS brand, "
    "p_type AS part_type, p_size AS size, p_container AS container, p_retailprice::DOUBLE AS "
    "retail_price "
    "FROM part ORDER BY p_partkey",
    "nations": "SELECT n_nationkey AS nation_key, n_name AS nation_name, r_name AS region FROM nation "
    "JOIN region ON r_regionkey = n_regionkey ORDER BY n_nationkey",
}


def extension_path() -> Path:
    folder = Path(duckdb_extension_tpch.__file__).parent / "extensions" / f"v{duckdb.__version__}"
    return folder / "tpch.duckdb_extension"


def write(folder: Path, scale: float) -> None:
    """line_items.parquet and the reference CSVs, written into `folder`."""
    con = duckdb.connect()
    con.execute(f"LOAD '{extension_path()}'")
    con.execute(f"CALL dbgen(sf={scale})")
    con.execute(f"COPY ({LINEITEMS}) TO '{folder / 'line_items.parquet'}' (FORMAT parquet)")
    for name, sql in REFERENCES.items():
        con.execute(f"COPY ({sql}) TO '{folder / (name + '.csv')}' (HEADER, DELIMITER ',')")
    con.close()


if __name__ == "__main__":
    write(Path(sys.argv[1]), float(sys.argv[2]))
