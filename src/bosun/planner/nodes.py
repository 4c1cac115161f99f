"""The graph's nodes, with seed 000's ids, and the gate nodes that keep control deterministic."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextvars import copy_context
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send, interrupt

from bosun.errors import BosunError, RunFailure
from bosun.ledger import charged
from bosun.planner import gates
from bosun.planner.context import RunContext
from bosun.planner.events import TurnEvent, emit
from bosun.planner.rules import synthesis_refs
from bosun.planner.state import MainState
from bosun.planner.synthesis import synthesize
from bosun.workers.models import Clarification, Goal, SubGoal, WorkerInput, WorkerResult
from bosun.workers.registry import Worker
from bosun.workers.slots import CLARIFICATION_MESSAGE, ENTITY_OPTIONS

Update = dict[str, Any]

# Workers run on one shared pool, so that a turn does not start a thread per sub-goal (nor the
# embedded engine open a cursor for each: it keeps one per thread). A worker past its timeout keeps
# its thread until it returns, so the pool has room for many.
_WORKERS = ThreadPoolExecutor(max_workers=32, thread_name_prefix="worker")


def f01_reiterate_intention(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """Restate the turn as standalone goals, and start the turn afresh."""
    ctx = runtime.context
    with charged(ctx.ledger, "f01"):
        goals = ctx.goals_of(state.question, state.conversation_history)
    emit(TurnEvent(kind="goals", message="; ".join(g.text for g in goals)))
    return {
        "goals": goals,
        "sub_goals": [],
        "completed_outputs": {},
        "worker_results": [],
        "round": 1,
        "max_rounds": ctx.settings.max_rounds,
        "status": "planning",
        "proposal": None,
        "synthesis_inputs": None,
        "notes": [],
        "final_response": None,
        "deadline": time.time() + ctx.settings.turn_deadline_s,
    }


def g_reading_audit(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """The coverage audit (issue 34): every content word of the turn read by a goal's reading or
    said as not understood, whichever backend read it."""
    ctx = runtime.context
    if ctx.audit is None:
        return {"audits": []}
    goals, verdicts = gates.audit_goals(state.goals, state.question, ctx.audit, ctx.today())
    for verdict in verdicts:  # each verdict is in the trace; a rejection is streamed as it falls
        if not verdict.approved:
            said = "; ".join(verdict.reasons())
            emit(TurnEvent(kind="gate", message=f"reading of goal {verdict.goal_id}: {said}"))
    return {"goals": goals, "audits": verdicts}


def f02_planner(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """Propose this round: continue with sub-goals, done with synthesis inputs, or failed."""
    emit(TurnEvent(kind="round_started", round=state.round))
    ctx = runtime.context
    with charged(ctx.ledger, f"f02.round{state.round}"):
        proposal = ctx.planner.plan(state, ctx.registry)
    return {"proposal": proposal, "planner_reasoning": proposal.reasoning}


def g_plan_gate(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """Round cap, plan validation and partial-success acceptance decide what of F02's proposal
    runs."""
    proposal = state.proposal
    assert proposal is not None
    goals = gates.accept_partial(state.goals, proposal.blocked)
    notes = [f"goal {gid} failed: {why}" for gid, why in proposal.blocked.items()]
    if gates.round_cap_reached(state):
        return _stop(
            state, goals, [*notes, f"stopped: the round cap ({state.max_rounds}) was reached"]
        )
    if gates.deadline_passed(state, time.time()):
        return _stop(state, goals, [*notes, "stopped: the turn's deadline passed"])
    if proposal.action != "continue":
        status = "done" if proposal.action == "done" else "failed"
        return {
            "status": status,
            "synthesis_inputs": proposal.synthesis_inputs,
            **_changed(state, goals=goals, notes=notes),
        }
    problems = gates.validate_plan(proposal, state, runtime.context.registry)
    if problems:
        return _stop(state, goals, [*notes, *(f"plan refused: {p}" for p in problems)])
    for note in notes:
        emit(TurnEvent(kind="gate", round=state.round, message=note))
    update: Update = {"sub_goals": [*state.sub_goals, *proposal.sub_goals], "status": "executing"}
    return {**update, **_changed(state, goals=goals, notes=notes)}


def _changed(
    state: MainState,
    *,
    goals: list[Goal] | None = None,
    sub_goals: list[SubGoal] | None = None,
    notes: list[str] | None = None,
) -> Update:
    """Only what a gate changed: an unchanged channel is neither written nor checkpointed again."""
    update: Update = {}
    if goals is not None and goals != state.goals:
        update["goals"] = goals
    if sub_goals is not None and sub_goals != state.sub_goals:
        update["sub_goals"] = sub_goals
    if notes:
        update["notes"] = [*state.notes, *notes]
    return update


def _stop(state: MainState, goals: list[Goal], notes: list[str]) -> Update:
    for note in notes:
        emit(TurnEvent(kind="gate", round=state.round, message=note))
    refs = synthesis_refs(state)
    return {
        "goals": goals,
        "status": "failed",
        "synthesis_inputs": refs,
        "notes": [*state.notes, *notes],
    }


def route_after_planner(state: MainState) -> list[Send] | str:
    """Fan out every ready pending sub-goal, its inputs hydrated; or go to F14 when planning is
    over."""
    if state.status in ("done", "failed"):
        return "f14_synthesizer"
    sends = [
        Send("f03_worker_executor", _hydrate(s, state))
        for s in state.sub_goals
        if _is_ready(s, state)
    ]
    return sends or "f14_synthesizer"


def _is_ready(sub_goal: SubGoal, state: MainState) -> bool:
    return sub_goal.status == "pending" and all(
        ref.slot in state.completed_outputs.get(ref.from_sub_goal, {})
        for ref in sub_goal.inputs.values()
    )


def _hydrate(sub_goal: SubGoal, state: MainState) -> WorkerInput:
    resolved = {
        name: state.completed_outputs[ref.from_sub_goal][ref.slot]
        for name, ref in sub_goal.inputs.items()
    }
    return WorkerInput(
        sub_goal=sub_goal.model_copy(update={"round": state.round}),
        resolved_inputs=resolved,
        deadline=state.deadline,
    )


def f03_worker_executor(worker_input: WorkerInput, runtime: Runtime[RunContext]) -> Update:
    """Run one worker by name, within its timeout; any exception becomes a failed result."""
    sub_goal, ctx = worker_input.sub_goal, runtime.context
    registered = ctx.registry.get(sub_goal.worker)
    emit(
        TurnEvent(
            kind="dispatched",
            round=sub_goal.round or 0,
            sub_goal_id=sub_goal.id,
            worker=sub_goal.worker,
            title=registered.capability.title if registered else "",
            inputs={name: ref.from_sub_goal for name, ref in sub_goal.inputs.items()},
        )
    )
    started = time.perf_counter()
    result = _run_worker(worker_input, ctx)
    if ctx.settings.clarification_mode == "interrupt":
        result = _ask_inside(worker_input, result, ctx)
    result = result.model_copy(
        update={
            "sub_goal_id": sub_goal.id,
            "duration_ms": round((time.perf_counter() - started) * 1000, 3),
        }
    )
    emit(
        TurnEvent(
            kind="finished",
            round=sub_goal.round or 0,
            sub_goal_id=sub_goal.id,
            worker=sub_goal.worker,
            status=result.status,
            duration_ms=result.duration_ms,
            message=result.error or "",
        )
    )
    return {"worker_results": [result]}


def _ask_inside(worker_input: WorkerInput, result: WorkerResult, ctx: RunContext) -> WorkerResult:
    """Interrupt mode: pause the turn at this node for the user's pick, then run the worker again
    with it.

    LangGraph resumes a paused node from its start with `Command(resume=reply)`; each interrupt()
    call then returns its reply in order, so a reply that picks nothing is asked about once more.
    """
    reply = ""
    for attempt in range(2):
        found = result.get(ENTITY_OPTIONS)
        if result.needs != CLARIFICATION_MESSAGE.name or found is None:
            return result
        preface = f"I could not tell which one you meant by “{reply}”. " if attempt else ""
        reply = str(interrupt(Clarification.about(found.term, found.options, preface).model_dump()))
        params = worker_input.sub_goal.params.model_copy(update={"reply": reply})
        worker_input = worker_input.model_copy(
            update={"sub_goal": worker_input.sub_goal.model_copy(update={"params": params})}
        )
        result = _run_worker(worker_input, ctx)
    found = result.get(ENTITY_OPTIONS)
    if result.needs == CLARIFICATION_MESSAGE.name and found is not None:
        return WorkerResult(
            sub_goal_id=result.sub_goal_id,
            status="failed",
            error=f"“{reply}” matches none of {', '.join(found.options)}; "
            "ask again naming one of them",
        )
    return result


def _run_worker(worker_input: WorkerInput, ctx: RunContext) -> WorkerResult:
    sub_goal = worker_input.sub_goal
    registered = ctx.registry.get(sub_goal.worker)
    if registered is None:
        return WorkerResult(
            sub_goal_id=sub_goal.id, status="failed", error=f"unknown worker {sub_goal.worker!r}"
        )
    timeout = ctx.settings.worker_timeout_s
    if worker_input.deadline is not None:
        timeout = max(0.001, min(timeout, worker_input.deadline - time.time()))
    # in this thread's context, so that the worker queries with the request's credentials
    # (engines.caller)
    running = _WORKERS.submit(copy_context().run, _checked_run, registered, worker_input, ctx)
    try:
        return running.result(timeout=timeout)
    except FutureTimeout:
        # still queued: never starts; running: it finishes unseen and frees its thread
        running.cancel()
        return WorkerResult(
            sub_goal_id=sub_goal.id,
            status="failed",
            transient=True,
            error=f"{sub_goal.worker} took longer than {timeout:g} s",
        )
    except RunFailure as exc:
        return WorkerResult(
            sub_goal_id=sub_goal.id, status="failed", transient=True, error=str(exc)
        )
    except BosunError as exc:
        return WorkerResult(sub_goal_id=sub_goal.id, status="failed", error=str(exc))
    # F03's catch-all: a worker's bug is recorded as a failed result, never a crash
    except Exception as exc:
        return WorkerResult(
            sub_goal_id=sub_goal.id, status="failed", error=f"{type(exc).__name__}: {exc}"
        )


def _checked_run(registered: Worker, worker_input: WorkerInput, ctx: RunContext) -> WorkerResult:
    """The worker, in its own thread, with its model calls billed to its sub-goal; what it produced
    must fill the slots it declares, with their types, or it is a failed result naming the slot."""
    sub_goal = worker_input.sub_goal
    with charged(ctx.ledger, f"sg{sub_goal.id}"):
        result = registered.fn(worker_input, ctx)
    problems = registered.problems(result)
    if problems:
        return WorkerResult(sub_goal_id=sub_goal.id, status="failed", error="; ".join(problems))
    return result


def f13_join_reduce(state: MainState) -> Update:
    """Once per round, after every branch: store outputs, update statuses, clear results, next
    round."""
    results = {r.sub_goal_id: r for r in state.worker_results}
    emit(TurnEvent(kind="join", round=state.round, message=f"{len(results)} result(s)"))
    outputs = dict(state.completed_outputs)
    sub_goals = []
    for sub_goal in state.sub_goals:
        result = results.get(sub_goal.id)
        if result is None:
            sub_goals.append(sub_goal)
            continue
        if result.status != "failed":
            outputs[sub_goal.id] = result.outputs
        sub_goals.append(
            sub_goal.model_copy(
                update={
                    "status": result.status,
                    "round": state.round,
                    "attempts": sub_goal.attempts + 1,
                    "result": result.flags,
                    "duration_ms": result.duration_ms,
                    "error": result.error,
                    "message": result.message,
                }
            )
        )
    return {
        "sub_goals": sub_goals,
        "completed_outputs": outputs,
        "worker_results": [],
        "round": state.round + 1,
        "status": "planning",
    }


def g_review_gate(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """Retry cap, the review of empty results, and the ambiguity policy, before F02 plans again."""
    ctx = runtime.context
    finished = [s for s in state.sub_goals if s.round == state.round - 1 and s.result is not None]
    again = set(gates.retries(finished))
    sub_goals = [
        s.model_copy(update={"status": "pending"}) if s.id in again else s for s in state.sub_goals
    ]
    goals = {g.id: g for g in state.goals}
    for sub_goal in finished:
        goals[sub_goal.goal_id] = gates.review(
            goals[sub_goal.goal_id], sub_goal, ctx.registry, ctx.settings.ambiguity
        )
    closed = [
        g.model_copy(update={"status": "done"})
        if g.status == "open" and gates.delivered(g, sub_goals)
        else g
        for g in goals.values()
    ]
    notes = [f"retrying sg{i} once" for i in sorted(again)]
    for note in notes:
        emit(TurnEvent(kind="gate", round=state.round, message=note))
    return _changed(state, goals=closed, sub_goals=sub_goals, notes=notes)


def f14_synthesizer(state: MainState, runtime: Runtime[RunContext]) -> Update:
    """Resolve synthesis_inputs and write the whole answer (a template; no model)."""
    answer = synthesize(state, runtime.context)
    emit(TurnEvent(kind="done", round=state.round, status=answer.status))
    return {"final_response": answer}
