"""What a user's file must be before DuckDB reads it (`bosun data load`): checked, never trusted.

A path is a regular, readable file or a directory of them (never a device, a pipe or a socket); it
is read by its literal name (DuckDB's readers would take `[ab].csv` or `q?.csv` as globs and read
other files); a zip archive is checked (total size, member count, member names) before anything is
extracted; a JSON file is scanned for its nesting depth before a parser recurses into it. Each
refusal is one LoadError naming the file and, where one applies, the limit and the setting that
raises it.
"""

from __future__ import annotations

import gzip
import re
import shutil
import stat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, cast

import numpy as np

from bosun.engines.embedded.memory import Memory
from bosun.errors import LoadError
from bosun.settings import Settings

_CHUNK = 1 << 20
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}"')))
_QUOTE = ord('"')
_STEPS = np.zeros(256, dtype=np.int8)  # what each bracket adds to the depth
_STEPS[list(b"[{")] = 1
_STEPS[list(b"]}")] = -1
_PLAIN_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,10}")


@dataclass(frozen=True)
class FileLimits:
    """The limits a loaded file is held to, from the settings of the same names."""

    json_depth: int
    archive_bytes: int
    archive_members: int
    columns: int
    memory: Memory

    @classmethod
    def of(cls, settings: Settings) -> FileLimits:
        return cls(
            settings.load_max_json_depth,
            settings.load_max_archive_bytes,
            settings.load_max_archive_members,
            settings.max_columns,
            Memory(settings.engine_memory_bytes, settings.engine_spill_dir),
        )

    @classmethod
    def default(cls) -> FileLimits:
        defaults = Settings.model_construct()  # the settings' defaults, no environment read
        return cls(
            defaults.load_max_json_depth,
            defaults.load_max_archive_bytes,
            defaults.load_max_archive_members,
            # DuckDB's own memory default: no data directory is known
            defaults.max_columns,
            Memory(),
        )


def checked_path(path: Path) -> bool:
    """Whether `path` is a directory (True) or a regular, readable file (False); anything else is
    refused."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise LoadError(f"{path}: no such file or directory") from None
    except OSError as exc:
        raise LoadError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        return True
    if not stat.S_ISREG(mode):
        raise LoadError(
            f"{path}: not a regular file (a device, a pipe or a socket); load a data file"
        )
    try:
        with path.open("rb"):
            return False
    except OSError as exc:
        raise LoadError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def directory_files(path: Path) -> list[Path]:
    """The regular files directly in a directory, sorted."""
    try:
        return sorted(p for p in path.iterdir() if p.is_file())
    except OSError as exc:
        raise LoadError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def literal_copy_name(path: PurePosixPath | Path, number: int) -> str:
    """A name without glob characters that keeps the file's plain suffixes (".csv.gz"), for DuckDB
    to read."""
    suffixes = [s for s in path.suffixes if _PLAIN_SUFFIX.fullmatch(s)]
    return f"file{number}{''.join(suffixes)}"


def linked(path: Path, folder: Path, number: int) -> Path:
    """A link in `folder`, under a name DuckDB reads literally, to the file at `path`."""
    link = folder / literal_copy_name(path, number)
    link.symlink_to(path.resolve())
    return link


def extracted(path: Path, folder: Path, first: int, limits: FileLimits) -> list[tuple[Path, str]]:
    """The archive's files written to `folder` under literal names, after its listing passed the
    limits: (file written, name in the archive)."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = _checked_members(path, archive, limits)
            return [
                (
                    _extract(
                        archive,
                        member,
                        folder / literal_copy_name(PurePosixPath(member.filename), n),
                    ),
                    member.filename,
                )
                for n, member in enumerate(members, start=first)
            ]
    except zipfile.BadZipFile:
        raise LoadError(f"{path}: not a readable zip archive") from None
    except OSError as exc:
        raise LoadError(f"{path}: cannot be extracted ({exc.strerror or exc})") from None


def _checked_members(
    path: Path, archive: zipfile.ZipFile, limits: FileLimits
) -> list[zipfile.ZipInfo]:
    """The archive's files, when their count, total size and names are within bounds."""
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) > limits.archive_members:
        raise LoadError(
            f"{path}: the archive holds {len(members):,} files; the limit is "
            f"{limits.archive_members:,} "
            "(BOSUN_LOAD_MAX_ARCHIVE_MEMBERS)"
        )
    total = sum(m.file_size for m in members)
    if total > limits.archive_bytes:
        raise LoadError(
            f"{path}: the archive expands to {total:,} bytes; the limit is "
            f"{limits.archive_bytes:,} "
            "(BOSUN_LOAD_MAX_ARCHIVE_BYTES)"
        )
    for member in members:
        name = PurePosixPath(member.filename.replace("\\", "/"))
        if name.is_absolute() or ".." in name.parts or ":" in member.filename:
            raise LoadError(
                f"{path}: the archive names a file outside itself ({member.filename!r}); refused"
            )
    return members


def _extract(archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path) -> Path:
    """One member copied out; zipfile stops at its declared size, which the limits have checked."""
    with archive.open(member) as source, target.open("wb") as sink:
        shutil.copyfileobj(source, sink, _CHUNK)
    return target


def check_json_depth(path: Path, shown: Path, limit: int) -> None:
    """Refuse a JSON file nested deeper than `limit`, found by a scan that never recurses (`shown`
    names it)."""
    try:
        with _opened(path) as handle:
            depth = _deepest(handle, limit)
    except (OSError, EOFError) as exc:
        raise LoadError(f"{shown}: cannot be read ({exc})") from None
    if depth > limit:
        raise LoadError(
            f"{shown}: JSON nested more than {limit} levels deep; the limit is {limit} "
            "(BOSUN_LOAD_MAX_JSON_DEPTH)"
        )


def _opened(path: Path) -> IO[bytes]:
    if path.suffix.lower() == ".gz":
        # a GzipFile is a binary file, whatever its stubs say
        return cast(IO[bytes], gzip.open(path, "rb"))
    return path.open("rb")


def _deepest(handle: IO[bytes], limit: int) -> int:
    """The nesting depth of the JSON in `handle`, or the first depth past `limit` (the scan stops
    there).

    Per chunk, at C speed: escaped backslashes and quotes are removed (so no quote inside a string
    counts), then every byte but brackets and quotes; a bracket after an odd number of quotes is
    inside a string.
    """
    depth = deepest = 0
    inside = False
    carry = b""
    for chunk in _chunks(handle):
        chunk, carry = _split_escape(carry + chunk)
        plain = chunk.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
        codes = np.frombuffer(plain, dtype=np.uint8)
        quotes = codes == _QUOTE
        in_string = (np.cumsum(quotes) + inside) % 2 == 1
        steps = np.cumsum(_STEPS[codes[~quotes & ~in_string]], dtype=np.int64)
        if steps.size:
            deepest = max(deepest, depth + int(steps.max()))
            depth += int(steps[-1])
        inside = bool((int(quotes.sum()) + inside) % 2)
        if deepest > limit:
            break
    return deepest


def _chunks(handle: IO[bytes]) -> Iterator[bytes]:
    while chunk := handle.read(_CHUNK):
        yield chunk


def _split_escape(chunk: bytes) -> tuple[bytes, bytes]:
    """The chunk without a trailing unpaired backslash, which escapes the next chunk's first byte,
    and it."""
    trailing = len(chunk) - len(chunk.rstrip(b"\\"))
    if trailing % 2:
        return chunk[:-1], b"\\"
    return chunk, b""


# What every engine accepts as an index name (Elasticsearch's rules, and a field name's form): the
# engines keep names that start otherwise for themselves ("_bosun_indices",
# "__tok__<index>__<field>", ".security").
_INDEX_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,254}")


def checked_index(name: str, reserved: set[str]) -> str:
    """`name`, when files may load into it: a plain index name that Bosun does not keep for
    itself."""
    if name in reserved:
        raise LoadError(f"index {name!r} is Bosun's own; load into another --index")
    if not _INDEX_NAME.fullmatch(name):
        raise LoadError(
            f"index {name!r}: an index name is lowercase letters, digits, '_' and '-', starting "
            "with a "
            "letter or digit (names starting with '_', '.', '-' or '+' are the engine's own)"
        )
    return name
