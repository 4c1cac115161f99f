"""LangGraph's SQLite checkpointer, writing each channel's value once per version instead of every
step.

`SqliteSaver` stores a checkpoint's every channel value inline, so each step of a turn rewrote the
whole state (sub-goals, outputs, goals, history: about 10 kB) although a step changes one or two
channels; a turn wrote about 260 kB. This subclass stores values apart, keyed by channel and
version, and writes only the channels a step changed (the `new_versions` LangGraph hands to `put`),
as LangGraph's Postgres and in-memory savers do. Reading puts the values back, so the graph, its
resumption after a killed process and `get_state` see full checkpoints as before; checkpoints
written by the plain saver (values inline) still read as they were.

Own code because langgraph-checkpoint-sqlite offers no such layout; the rest is the library's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.sqlite import SqliteSaver

_BLOBS = """CREATE TABLE IF NOT EXISTS bosun_channel_values (
    thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', channel TEXT NOT NULL,
    version TEXT NOT NULL, type TEXT, value BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, channel, version))"""


class ChannelSqliteSaver(SqliteSaver):
    """SqliteSaver whose checkpoints hold channel versions only; values live once per version."""

    def setup(self) -> None:
        if self.is_setup:
            return
        super().setup()
        self.conn.execute(_BLOBS)
        self.conn.commit()

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """The checkpoint without its values, and the values of the channels this step changed."""
        thread_id, ns = (
            str(config["configurable"]["thread_id"]),
            config["configurable"]["checkpoint_ns"],
        )
        values = checkpoint["channel_values"]
        blobs = [
            (thread_id, ns, channel, str(version), *self.serde.dumps_typed(values[channel]))
            for channel, version in new_versions.items()
            if channel in values
        ]
        kind, stripped = self.serde.dumps_typed({**checkpoint, "channel_values": {}})
        meta = json.dumps(get_checkpoint_metadata(config, metadata), ensure_ascii=False).encode(
            "utf-8", "ignore"
        )
        with self.cursor() as cur:  # one transaction: values and the checkpoint that names them
            cur.executemany(
                "INSERT OR REPLACE INTO bosun_channel_values VALUES (?, ?, ?, ?, ?, ?)", blobs
            )
            cur.execute(
                "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                "parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    thread_id,
                    ns,
                    checkpoint["id"],
                    config["configurable"].get("checkpoint_id"),
                    kind,
                    stripped,
                    meta,
                ),
            )
        return {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": ns,
                "checkpoint_id": checkpoint["id"],
            }
        }

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        found = super().get_tuple(config)
        return self._with_values(found) if found is not None else None

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        # The parent yields while it holds the saver's lock: read its rows first, then their values.
        listed = [*super().list(config, filter=filter, before=before, limit=limit)]
        for found in listed:
            yield self._with_values(found)

    def delete_thread(self, thread_id: str) -> None:
        super().delete_thread(thread_id)
        with self.cursor() as cur:
            cur.execute("DELETE FROM bosun_channel_values WHERE thread_id = ?", (str(thread_id),))

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """The base class's walk over get_tuple/list: the parent's fast path reads values inline."""
        return BaseCheckpointSaver.get_delta_channel_history(self, config=config, channels=channels)

    def _with_values(self, found: CheckpointTuple) -> CheckpointTuple:
        """The tuple with its channel values read back (values stored inline by the plain saver are
        kept)."""
        checkpoint = found.checkpoint
        versions = checkpoint["channel_versions"]
        if not versions:
            return found
        configurable = found.config["configurable"]
        wanted = [(channel, str(version)) for channel, version in versions.items()]
        placeholders = " OR ".join(["(channel = ? AND version = ?)"] * len(wanted))
        params = [
            configurable["thread_id"],
            configurable.get("checkpoint_ns", ""),
            *(x for w in wanted for x in w),
        ]
        with self.cursor(transaction=False) as cur:
            cur.execute(
                f"SELECT channel, type, value FROM bosun_channel_values WHERE thread_id = ? AND "
                f"checkpoint_ns = ? AND ({placeholders})",
                params,
            )
            stored = {
                channel: self.serde.loads_typed((kind, value))
                for channel, kind, value in cur.fetchall()
            }
        values = {**checkpoint["channel_values"], **stored}
        return found._replace(checkpoint={**checkpoint, "channel_values": values})
