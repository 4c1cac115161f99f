"""The workers a session plans with, listed in one place: the default registry."""

from __future__ import annotations

from bosun.workers import baselines, data, links, objects, referents
from bosun.workers.registry import Registry


def default_registry() -> Registry:
    """Seed 000's workers and those added since, in the order the planner and its prompt list
    them."""
    return Registry.of(
        links.reference_lookup,
        baselines.overall_figure,
        referents.last_answer_rows,
        data.common_helpdesk,
        data.explain_metadata,
        data.metadata_lookup,
        data.es_query_gen,
        data.es_query_exec,
        data.page_query,
        data.show_results,
        data.analyze_results,
        data.clarify_question,
        data.diagnose_query,
        objects.graphql_lookup,
    )
