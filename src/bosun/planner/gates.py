"""Deterministic control, outside F02 (lessons of seeds 002/003): pure functions the gate nodes
apply.

Each takes the state (and the registry where it must) and returns what to change; none calls a
worker or a model, so each is tested on its own.
"""

from __future__ import annotations

from datetime import date

from bosun.planner.state import MainState, PlanDecision
from bosun.understanding import Audit, Turn, Verdict
from bosun.workers.models import Goal, ResultFlags, SubGoal
from bosun.workers.registry import Registry

MAX_ATTEMPTS = 2  # one retry, for transient failures only


def audit_goals(
    goals: list[Goal], question: str, audit: Audit, today: date
) -> tuple[list[Goal], list[Verdict]]:
    """Each data goal's reading checked for the words it leaves unread (the coverage audit); a
    rejected reading goes on with those words said as not understood."""
    audited: list[Goal] = []
    verdicts: list[Verdict] = []
    for goal in goals:
        meaning = goal.params.meaning
        if meaning is None:
            audited.append(goal)
            continue
        beside = [g.params.meaning for g in goals if g is not goal and g.text == goal.text]
        turn = Turn(question, goal.params.continuation, goal.id, [m for m in beside if m])
        meaning, verdict = audit.reviewed(meaning, today, turn)
        verdicts += [verdict] if verdict else []
        params = goal.params.model_copy(update={"meaning": meaning})
        audited.append(goal.model_copy(update={"params": params}))
    return audited, verdicts


def round_cap_reached(state: MainState) -> bool:
    return state.round > state.max_rounds


def deadline_passed(state: MainState, now: float) -> bool:
    return state.deadline is not None and now >= state.deadline


def validate_plan(proposal: PlanDecision, state: MainState, registry: Registry) -> list[str]:
    """Why a proposed round may not run: unknown workers, bad or cyclic InputRefs, duplicate
    work."""
    problems: list[str] = []
    known = {s.id: s for s in state.sub_goals}
    proposed = {s.id: s for s in proposal.sub_goals}
    for sub_goal in proposal.sub_goals:
        if registry.get(sub_goal.worker) is None:
            problems.append(f"sg{sub_goal.id}: unknown worker {sub_goal.worker!r}")
        if sub_goal.id in known:
            problems.append(f"sg{sub_goal.id}: id already used")
        for name, ref in sub_goal.inputs.items():
            source = known.get(ref.from_sub_goal) or proposed.get(ref.from_sub_goal)
            if source is None:
                problems.append(
                    f"sg{sub_goal.id}.{name}: refers to unknown sub-goal {ref.from_sub_goal}"
                )
            elif source.status == "failed":
                problems.append(
                    f"sg{sub_goal.id}.{name}: refers to failed sub-goal {ref.from_sub_goal}"
                )
            elif ref.slot not in source.outputs:
                problems.append(
                    f"sg{sub_goal.id}.{name}: sg{source.id} declares no slot {ref.slot!r}"
                )
    problems += _cycles(proposal.sub_goals)
    problems += _duplicates(proposal.sub_goals, state.sub_goals)
    return problems


def _cycles(sub_goals: list[SubGoal]) -> list[str]:
    edges = {s.id: {r.from_sub_goal for r in s.inputs.values()} for s in sub_goals}
    problems = []
    for start in edges:
        seen, frontier = set(), set(edges[start])
        while frontier:
            node = frontier.pop()
            if node == start:
                problems.append(f"sg{start}: its inputs depend on itself")
                break
            if node not in seen:
                seen.add(node)
                frontier |= edges.get(node, set())
    return problems


def _signature(s: SubGoal) -> tuple[int, str, tuple[tuple[str, int, str], ...]]:
    return (
        s.goal_id,
        s.worker,
        tuple(sorted((k, r.from_sub_goal, r.slot) for k, r in s.inputs.items())),
    )


def _duplicates(proposed: list[SubGoal], existing: list[SubGoal]) -> list[str]:
    seen = {_signature(s) for s in existing if s.status != "failed"}
    problems = []
    for sub_goal in proposed:
        signature = _signature(sub_goal)
        if signature in seen:
            problems.append(f"sg{sub_goal.id}: duplicates work already planned ({sub_goal.worker})")
        seen.add(signature)
    return problems


def retries(finished: list[SubGoal]) -> list[int]:
    """Sub-goals of the last round to run once more: transient failures with attempts left."""
    return [
        s.id
        for s in finished
        if s.status == "failed"
        and s.result is not None
        and s.result.transient
        and s.attempts < MAX_ATTEMPTS
    ]


def accept_partial(goals: list[Goal], blocked: dict[int, str]) -> list[Goal]:
    """Partial success: a goal that cannot progress is failed with its reason; the others go on."""
    return [
        g.model_copy(update={"status": "failed", "error": blocked[g.id]})
        if g.id in blocked and g.status == "open"
        else g
        for g in goals
    ]


def review(goal: Goal, finished: SubGoal, registry: Registry, ambiguity: str) -> Goal:
    """The review gate: an empty result gets one diagnostic step; a needed clarification is asked
    (policy)."""
    flags = finished.result or ResultFlags()
    if flags.needs and ambiguity == "ask" and flags.needs not in goal.deliverables:
        return goal.model_copy(update={"deliverables": [flags.needs]})
    if flags.empty and not goal.reviewed:
        diagnostic = next((c for c in registry.capabilities() if c.reviews_empty), None)
        if diagnostic is not None:
            slot = diagnostic.produces[0]
            return goal.model_copy(
                update={"deliverables": [*goal.deliverables, slot], "reviewed": True}
            )
    return goal


def delivered(goal: Goal, sub_goals: list[SubGoal]) -> bool:
    return all(
        any(
            s.goal_id == goal.id and slot in s.outputs and s.status in ("success", "partial")
            for s in sub_goals
        )
        for slot in goal.deliverables
    )
