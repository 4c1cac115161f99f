"""How a turn relates to the last one, decided from the stored meanings and the grammar's follow-up
words.

- a clarification reply picks one of the options offered (by name, by position, or by something
  only that option has: "the one in Hong Kong"), possibly with a refinement ("MSC ANNA, in 2025");
- a refinement replaces or adds constraints of the last data question ("and in Charleston?");
- a follow-up builds on the last result: the next page, another sort, a breakdown of the top row;
- anything else is a new topic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from itertools import pairwise
from typing import Literal

from dateutil.relativedelta import relativedelta

from bosun.catalog import Catalog
from bosun.understanding import at_figure, listing, positions
from bosun.understanding.compose import Composer
from bosun.understanding.goals import Part, definition, fields_asked
from bosun.understanding.grammar import FollowUp, english
from bosun.understanding.meaning import (
    TOP_N_MOST,
    Ambiguity,
    Condition,
    Interval,
    Meaning,
    Measure,
    Referent,
    Refusal,
    TimeFilter,
)
from bosun.understanding.names import normalize
from bosun.understanding.periods import period_before
from bosun.understanding.phrases import (
    condition_words,
    dates_words,
    field_name,
    measure_words,
    value_names,
)
from bosun.understanding.picks import replace_term
from bosun.understanding.reading import Continuation as Kind
from bosun.understanding.reading import PastTurn, TaggingUnderstanding
from bosun.understanding.reaggregate import reaggregated
from bosun.understanding.referents import (
    Pointed,
    Ranking,
    earlier_said,
    earlier_window,
    kept_among,
    listed_among,
    never_said,
    pointing,
    ranked_among,
    referent,
    regrouped_among,
    rest_of,
    way_asked,
)
from bosun.understanding.setlogic import picks_rows, ranked_too
from bosun.understanding.share_of_last import (
    Rows,
    Split,
    named_in,
    rows_said,
    share_split,
    shareable,
    shared,
    shown_rows,
)
from bosun.understanding.tagger import Span

Value = str | int | float | bool  # a value of a record field, as a condition takes it
# how an answer says which of the last turn's constraints a follow-up kept
KEPT = "kept from the last question"
_STEP = {
    "day": relativedelta(days=1),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "quarter": relativedelta(months=3),
    "half-year": relativedelta(months=6),
    "year": relativedelta(years=1),
}


@dataclass(frozen=True)
class Continued:
    """What this turn is, and what to ask the planner: a question text, or a meaning ready made."""

    kind: Kind
    question: str
    meaning: Meaning | None = None
    note: str = ""


def said(text: str, phrases: list[str]) -> str | None:
    """The first of `phrases` that the text says as words ("show them" in "ok show them please")."""
    padded = f" {normalize(text)} "
    return next((p for p in phrases if f" {normalize(p)} " in padded), None)


# kinds of a
_CONTENT = ("measure", "record", "field", "value", "name", "entity_word", "object", "adjective")
# word of the question a relative "that" can follow


@dataclass
class Continuation:
    understanding: TaggingUnderstanding

    @property
    def words(self) -> FollowUp:
        return self.understanding.grammar.follow_up

    def read(self, reply: str, history: list[PastTurn], today: date) -> Continued:
        last = history[-1] if history else None
        if last is None:
            return self._pointless(reply, today)
        if last.status == "needs_clarification" and last.clarification and last.meaning:
            return self._list_picked(reply, history, today) or self._reply(reply, last, today)
        previous = last.meaning if last.status == "done" else None
        if previous is None:
            return self._pointless(reply, today)
        return self._follow(reply, previous, last, today) or Continued("new", reply)

    def _pointless(self, reply: str, today: date) -> Continued:
        """A turn with no answer before it to build on: its own question, unless it only points at
        rows ("who is quickest among them?"), which is said (no figures)."""
        pointed = pointing(reply, self.understanding.grammar.referents)
        if pointed is None or pointed.said in self.understanding.grammar.referents.pick:
            return Continued("new", reply)
        if self._asks_terms(reply, today):  # "SCAC and UN/LOCODE: what do they mean?"
            return Continued("new", reply)
        own = self.understanding.analyze(_without(reply, pointed.said), today)
        records = said(reply, self.understanding.catalog.record.synonyms) is not None
        partitive = said(reply, self.understanding.grammar.referents.partitive) is not None
        # "which of those are in transit?" points at rows, and says nothing of its own records
        own_rows = (own.group_by or own.conditions or own.lookup is not None) and not partitive
        if own_rows or records:
            return Continued("new", reply)
        refusal = Refusal(reason="no_referent", words=[pointed.said])
        alone = Meaning(text=reply, index=own.index, refusal=refusal)
        return Continued("new", reply, alone)

    # -- clarification replies ---------------------------------------------------------------------
    def _reply(self, reply: str, last: PastTurn, today: date) -> Continued:
        assert last.clarification is not None and last.meaning is not None
        asked = last.meaning
        term, options = last.clarification.term, list(last.clarification.options)
        picked, rest = self.understanding.pick(reply, options, today)
        if picked is None:
            own = self.understanding.analyze(reply, today)
            if self._stands_alone(own):
                return Continued("new", reply)
            if last.clarification.asked < 2:
                note = f"I could not tell which one you meant by “{reply.strip()}”. "
                return Continued("reask", asked.text, note=note)
            note = f"“{reply.strip()}” matches none of {', '.join(options)}. "
            return Continued("unmatched_reply", reply, note=note)
        question = replace_term(asked.text, term, picked)
        return Continued("clarification_reply", f"{question} {rest}".strip() if rest else question)

    def _list_picked(self, reply: str, history: list[PastTurn], today: date) -> Continued | None:
        """ "the carriers" in reply to which of two lists "them" meant: the turn asked back, read
        against the list picked (its question, as the list's title says it, and its rows)."""
        asked, lists = history[-1], history[-2] if len(history) > 1 else None
        assert asked.clarification is not None
        options = list(asked.clarification.options)
        if lists is None or options != lists.alternatives:
            return None
        picked, _ = self.understanding.pick(reply, options, today)
        if picked is None or len(lists.alternative_rows) != len(options):
            return None
        rows = lists.alternative_rows[options.index(picked)]
        meaning = self.understanding.analyze(picked, today)
        update = {"question": picked, "meaning": meaning, "rows": rows, "alternatives": []}
        past = lists.model_copy(update={**update, "first_column": rows.keys, "leaders": []})
        return self._follow(asked.question, meaning, past, today)

    # -- refinements and follow-ups ----------------------------------------------------------------
    def _follow(
        self, reply: str, previous: Meaning, last: PastTurn, today: date
    ) -> Continued | None:
        """The turn read against the last one; its meaning says again the last turn's unread words,
        and which of the last turn's constraints it kept."""
        continued = self._continued(reply, previous, last, today)
        if continued is None or continued.meaning is None:
            return continued
        meaning = built_on(
            continued.meaning,
            previous,
            reply,
            self.understanding.quiet_words,
            self.understanding.catalog,
        )
        return replace(continued, meaning=meaning)

    def _continued(
        self, reply: str, previous: Meaning, last: PastTurn, today: date
    ) -> Continued | None:
        title = f"{previous.text} → {reply.strip()}"
        listed = self._listed(reply, previous, last, today)
        # "what are their ETAs?" after a list of records: the same records, with their ETA
        if listed is not None:
            return Continued("follow_up", title, listed.model_copy(update={"text": title}))
        if self._asks_terms(reply, today):
            # "what is a reefer?": a definition, or a question about the fields, of its own
            return None
        share = self._share(reply, previous, last, today)
        # "what percentage of that was Maersk?": a part of the last figure over its whole
        if share is not None:
            return Continued("follow_up", title, share.model_copy(update={"text": title}))
        sorted_ = self._sort(reply, previous, last)
        # "sort by weight": the same records, or the same groups, in another order
        if sorted_ is not None:
            return Continued(
                "follow_up", title, sorted_.model_copy(update={"text": title, "not_understood": []})
            )
        again = self._reaggregated(reply, previous, today)
        # "and the 90th percentile?", "cumulative?": the last figure aggregated another way
        if again is not None:
            return Continued("follow_up", title, again.model_copy(update={"text": title}))
        among = self._among(reply, previous, last, today)
        # "which of them is quickest?": the last answer's rows, ranked on what the turn names
        if among is not None:
            return Continued("follow_up", title, among.model_copy(update={"text": title}))
        reranked = self._reranked(reply, previous, today)
        # "and the slowest one?" of carriers by TEU: the carrier slowest on transit
        if reranked is not None:
            return Continued(
                "follow_up",
                title,
                reranked.model_copy(update={"text": title, "not_understood": []}),
            )
        earlier = self._earlier(reply, previous, today)
        # "versus the same stretch a year before": the last dates moved back, or both side by side
        if earlier is not None:
            return Continued("follow_up", title, earlier.model_copy(update={"text": title}))
        compared = self._compared(reply, previous, today)
        # "how does Tacoma stack up?" after Seattle's TEU: both, side by side
        if compared is not None:
            return Continued("follow_up", title, compared.model_copy(update={"text": title}))
        periods = self._periods(reply, previous, today)
        # "how does that compare to last year?": the last period and the one before
        if periods is not None:
            return Continued("follow_up", title, periods.model_copy(update={"text": title}))
        paged = self._paged(reply, previous, title, today)
        if paged is not None:  # "page 2", "show all": more of the last list of records
            return paged
        picked = self._picked(reply, previous, last, today)
        if picked is not None:  # "compare the first and the third on average transit"
            return Continued("follow_up", title, picked.model_copy(update={"text": title}))
        row, phrase = self._pointed(reply, previous, last, today)
        if phrase is not None and len(last.alternatives) > 1:  # "the top one" of which list?
            asked = _which_rows(previous, Pointed(phrase, rest=False), last.alternatives, reply)
            return Continued("follow_up", title, asked.model_copy(update={"text": title}))
        # "the second one" points back; "instead" only says the grouping is replaced
        instead = said(reply, self.understanding.grammar.referents.instead)
        own = self.understanding.analyze(_without(_without(reply, phrase), instead), today)
        cued = self._cued(reply, today) or row is not None
        # "top 3", "weekly": of the last one
        alone = self._stands_alone(own) and not self._bare(own, previous)
        if (own.lookup is not None and (own.lookup.fields or not cued)) or (alone and not cued):
            # its own question: an attribute of one object, or records, measures, a ranking
            return None
        if own.index != previous.index:
            # a listing of other objects ("which vessels are flagged in Liberia"): its own question
            return None
        if row is not None:  # said, as the rows' order or a superlative picked it
            measures = self._measures_kept(reply, own, previous)
            assumption = f"“{phrase}” read as {row}"
            own = own.model_copy(
                update={"assumptions": [*own.assumptions, assumption], "measures": measures}
            )
        if row is not None and own.interval and not (own.group_by or own.measures):
            # "how did the first one trend by quarter?": the figure shown, of that row, by period
            own = own.model_copy(update={"measures": previous.measures})
        if row is not None and not ((own.group_by or own.interval) and not own.measures):
            dates = self.understanding.catalog.spec.time.default_field
            records = said(reply, self.understanding.catalog.record.synonyms) is not None
            pointed_at = _pointed_at(previous, own, row, title, dates, records)
            return Continued("follow_up", title, pointed_at)
        return self._built_on(reply, own, previous, last, title, row, self._cued(reply, today))

    def _held(
        self,
        reply: str,
        previous: Meaning,
        last: PastTurn,
        spans: list[Span],
        asked: listing.Asked | None,
    ) -> Meaning | None:
        """ "show me that shipment" after the earliest ETA among some: the records holding that
        figure (understanding/at_figure.py), with the fields `asked`; refused when the turn kept
        no figure, never all the records counted."""
        words = self.understanding.grammar.referents.one_record
        phrase = at_figure.points_at_one(reply, words)
        shown = at_figure.shown_of_one(spans, asked)
        if phrase is None or shown is None or not at_figure.extreme(previous):
            return None
        figure = last.first_column[0] if len(last.first_column) == 1 else None
        held = at_figure.records_at_figure(previous, figure, shown)
        if held is not None:
            return held
        return previous.model_copy(update={"refusal": Refusal(reason="not_held", words=[phrase])})

    def _listed(self, reply: str, previous: Meaning, last: PastTurn, today: date) -> Meaning | None:
        """ "who are the consignees?", "what are their ETAs?" after a list of records or a count:
        those records' fields (understanding/listing.py)."""
        if not listing.applies(previous):
            return None
        catalog, grammar = self.understanding.catalog, self.understanding.grammar
        questions = frozenset(normalize(w) for w in [*grammar.wh_words, *grammar.referents.pick])
        spans = self.understanding.spans(reply, today)
        dates = catalog.spec.time.default_field
        asked = listing.asked_of_records(spans, catalog.spec.asks, dates, questions)
        held = self._held(reply, previous, last, spans, asked)
        if held is not None:  # "show me that shipment" after the earliest ETA
            return held
        if asked is None:
            return None
        if not (asked.pointed or asked.records) and self._asks_terms(reply, today):
            return None  # "what is an ETA?": a definition
        return listing.listed_records(previous, asked, catalog)

    def _share(self, reply: str, previous: Meaning, last: PastTurn, today: date) -> Meaning | None:
        """ "what percentage of that was Maersk?", "the leader's share?", "what share of all
        Seattle arrivals is that?": the last figure's part over its whole (share_of_last.py). Not a
        share asked with dates of its own, a question of its own."""
        spans = self.understanding.spans(reply, today)
        if not any(s.has("share") for s in spans):
            return None
        if earlier_said(reply, self.understanding.grammar.referents):
            return None  # "the same part of last year": the last dates moved, not a share
        picked, phrase = self._pointed(reply, previous, last, today)
        own = self.understanding.analyze(_without(reply, phrase), today)
        asks_share = any(m.share is not None for m in own.measures)
        if (own.time and asks_share) or own.group_by or own.interval or own.index != previous.index:
            return None
        measure = self._share_measure(own, previous)
        # a share of the last figure, or of one the turn names over the last rows ("the share of
        # Miami's TEU they carried together" after their transit times)
        if not shareable(previous.model_copy(update={"measures": [measure]})):
            return None
        shown = (previous.measures or [measure])[0]
        back = phrase is not None or self._points_back(reply, today) or self._among_said(reply)
        if (measure.agg, measure.field) != (shown.agg, shown.field) and not back:
            return None  # "what share of shipments in Houston were hazardous": its own question
        rows = self._share_rows(previous, last, picked)
        split = share_split(previous, named_in(own), rows)
        if split is None:
            return None
        label = self.understanding.grammar.measure_kinds.share_label.format(measure=measure.label)
        said_rows = [f"“{phrase}” read as {picked}"] if phrase else self._rows_said(split, rows)
        return shared(
            previous,
            split,
            measure,
            label,
            time=own.time or previous.time,
            assumptions=list(dict.fromkeys([*previous.assumptions, *said_rows])),
            not_understood=self._unread_share(own, previous, reply),
        )

    def _share_measure(self, own: Meaning, previous: Meaning) -> Measure:
        """The figure a share of the last answer is of: the one the turn names ("what share of all
        Savannah TEU"), else the one shown, else the count of the records listed."""
        composer = Composer(self.understanding.catalog, self.understanding.grammar)
        records = said(own.text, self.understanding.catalog.record.synonyms) is not None
        # a count the turn does not name the records of is the reading's default, not asked
        asked = [m for m in own.measures if m.agg == "sum" or (m.agg == "count" and records)]
        if not asked:
            return (previous.measures or [composer.default_measure()])[0]
        if asked[0].field is None:
            return composer.default_measure()
        return composer.field_measure(asked[0].field, asked[0].agg)

    def _among_said(self, reply: str) -> bool:
        """The turn points at the last answer's rows ("do they make up"), not only asks ("what")."""
        pointed = pointing(reply, self.understanding.grammar.referents)
        return pointed is not None and pointed.said not in self.understanding.grammar.referents.pick

    def _share_rows(self, previous: Meaning, last: PastTurn, picked: Value | None) -> Rows:
        """The row the turn picks, and the rows the last answer showed, as filters on its field."""
        field = previous.group_by[0] if previous.group_by else None
        if field is None:
            return Rows()
        one = Condition(field=field, values=[picked]) if picked is not None else None
        return Rows(picked=one, shown=shown_rows(last.rows, field))

    def _rows_said(self, split: Split, rows: Rows) -> list[str]:
        """ "the 5 carriers of the last answer: MSC, …", when the part is the rows shown."""
        if rows.shown is None or split.part != [rows.shown]:
            return []
        things = field_name(rows.shown.field, self.understanding.catalog)
        return [rows_said(rows.shown, things, self.understanding.grammar)]

    def _unread_share(self, own: Meaning, previous: Meaning, reply: str) -> list[str]:
        """The turn's unread words but those that ask the share ("share of", "in percent"), point
        at the last answer, add its rows up ("together"), name the whole ("the total", "the port's":
        a field the last question filtered) or its dates ("that year")."""
        grammar = self.understanding.grammar
        words = grammar.referents
        phrases = [*grammar.measure_kinds.share, *words.among, *words.whole, *grammar.sets.union]
        explained = {w for p in phrases for w in normalize(p).split()}
        catalog = self.understanding.catalog
        explained |= {w for c in previous.conditions for w in field_name(c.field, catalog).split()}
        if own.time is None:
            explained |= set(grammar.interval_units)
        return [p for p in own.not_understood if not set(normalize(p).split()) <= explained]

    def _paged(self, reply: str, previous: Meaning, title: str, today: date) -> Continued | None:
        """ "page 3" or "show all" after a list of records: the same records, that page or all of
        them (up to the most one answer shows); after an aggregation, whose rows were all shown,
        said so."""
        own = self.understanding.analyze(reply, today)
        if own.conditions or own.time or own.measures or own.group_by or own.lookup is not None:
            return None
        every = said(reply, self.words.all) is not None
        if not every and own.page == 1:
            return None
        if previous.intent_type != "search":
            return Continued(
                "new", reply, note="The last answer showed all its rows; it has no other page. "
            )
        update = {"page": 1, "top_n": TOP_N_MOST} if every else {"page": own.page}
        return Continued(
            "follow_up",
            title,
            previous.model_copy(update={**update, "text": title, "not_understood": []}),
        )

    def _asks_terms(self, reply: str, today: date) -> bool:
        """The reply asks what glossary terms mean, or which fields the data has: not about the last
        answer."""
        part = Part(self.understanding.spans(reply, today), reply)
        grammar = self.understanding.grammar
        if fields_asked(part, grammar, self.understanding.catalog) is not None:
            return True
        return bool(definition(part, grammar, self.understanding.quiet_words))

    def _compared(self, reply: str, previous: Meaning, today: date) -> Meaning | None:
        """ "and how does Tacoma stack up?" after TEU into Seattle by quarter: Seattle's and
        Tacoma's series side by side (grouped by the field, filtered on both values); the measures,
        dates and other filters kept."""
        cue = _longest_said(reply, self.words.compare)
        if cue is None or previous.lookup is not None:
            return None
        own = self.understanding.analyze(_cut(reply, cue), today)
        named = [c for c in own.conditions if c.values and not c.negate]
        if len(named) != 1 or own.measures or own.group_by or own.interval:
            return None
        field = named[0].field
        before = next(
            (c for c in previous.conditions if c.field == field and c.values and not c.negate), None
        )
        if before is None:
            return None  # nothing of the last question to set beside it
        both = before.model_copy(
            update={"values": list(dict.fromkeys([*before.values, *named[0].values]))}
        )
        conditions = [both if c is before else c for c in previous.conditions]
        measures = previous.measures or [
            Composer(self.understanding.catalog, self.understanding.grammar).default_measure()
        ]
        return previous.model_copy(
            update={
                "conditions": conditions,
                "compare": [field],
                "measures": measures,
                "intent_type": "aggregation",
                "group_by": [field, *(f for f in previous.group_by if f != field)],
                "time": own.time or previous.time,
                "entities": [*previous.entities, *own.entities],
                "sort": [],
                "page": 1,
                "lookup": None,
                "not_understood": own.not_understood,
                "assumptions": list(dict.fromkeys([*previous.assumptions, *own.assumptions])),
            }
        )

    def _earlier(self, reply: str, previous: Meaning, today: date) -> Meaning | None:
        """ "versus the same stretch a year before", "and the 30 days before that?": the last
        question over its dates moved back (a year, or their own length), set beside them when the
        turn compares; None when it also names filters, measures or groupings of its own."""
        words = self.understanding.grammar.referents
        found = earlier_said(reply, words)
        if found is None or previous.time is None or previous.periods:
            return None
        cue = _longest_said(reply, [*self.words.compare, *self.understanding.grammar.compare])
        rest = _without(_without(reply, found[1]), cue)
        own = self.understanding.analyze(rest, today)
        if own.conditions or own.group_by or own.interval or own.lookup is not None:
            return None
        year = int(found[1]) if found[1].isdigit() else None
        moved = earlier_window(previous.time, found[0], year)
        if moved is None:
            return None
        unread = [w for w in own.not_understood if not _names_stretch(w, words.stretch)]
        time_update: dict[str, object] = {"time": moved}
        if cue is not None:
            measures = previous.measures or [
                Composer(self.understanding.catalog, self.understanding.grammar).default_measure()
            ]
            time_update = {
                "time": None,
                "periods": [moved, previous.time],
                "interval": None,
                "measures": measures,
            }
        return previous.model_copy(
            update={
                **time_update,
                "intent_type": "aggregation" if cue else previous.intent_type,
                "sort": [],
                "page": 1,
                "lookup": None,
                "not_understood": unread,
            }
        )

    def _periods(self, reply: str, previous: Meaning, today: date) -> Meaning | None:
        """ "how does that compare to last year?", "and year over year?" after a question with one
        period: that period beside the one the reply names, everything else kept."""
        spans = self.understanding.spans(reply, today)
        shift = next((s for s in spans if s.has("period_shift")), None)
        compared = _longest_said(reply, self.words.compare) is not None
        if previous.time is None or not (shift or compared):
            return None
        if not compared and said(reply, list(self.words.shift)):
            # "and the month before?": the last question moved to another period, not compared
            return None
        own = self.understanding.analyze(reply, today)
        if own.conditions or own.measures or own.group_by or own.periods or not (own.time or shift):
            return None
        other = period_before(previous.time, own.time, shift)
        if other is None:
            return None
        measures = previous.measures or [
            Composer(self.understanding.catalog, self.understanding.grammar).default_measure()
        ]
        shifted = set(normalize(shift.text).split()) if shift else set()
        unread = [w for w in own.not_understood if not set(normalize(w).split()) <= shifted]
        return previous.model_copy(
            update={
                "periods": sorted([previous.time, other], key=lambda p: p.start or date.min),
                "time": None,
                "measures": measures,
                "intent_type": "aggregation",
                "interval": None,
                "sort": [],
                "page": 1,
                "lookup": None,
                "not_understood": unread,
            }
        )

    def _pointed(
        self, reply: str, previous: Meaning, last: PastTurn, today: date
    ) -> tuple[Value | None, str | None]:
        """ "the top one", "the second one", "the busiest one": the row of the last grouped answer
        pointed at (its leading value), and the phrase."""
        if not ((previous.group_by or previous.interval) and last.first_column):
            return None, None
        phrase = said(reply, self.words.top_one)
        if phrase is not None:
            return last.first_column[0], phrase
        ordinals = {w: n for w, n in self.understanding.grammar.ordinals.items() if n != 0}
        for word, n in ordinals.items():
            phrase = said(reply, [f"{word} one"])
            index = n - 1 if n > 0 else len(last.first_column) + n
            if phrase is not None and 0 <= index < len(last.first_column):
                return last.first_column[index], phrase
        return self._placed(reply, previous, last, today)

    def _placed(
        self, reply: str, previous: Meaning, last: PastTurn, today: date
    ) -> tuple[Value | None, str | None]:
        """ "the second", "the third carrier" (understanding/positions.py), "it" after an answer of
        one row; else the row a rank word picks ("the peak month")."""
        spans = self.understanding.spans(reply, today)
        placed = positions.ordinals_said(spans, self._row_nouns(previous))
        index = positions.index_of(placed[0][1], len(last.first_column)) if placed else None
        if len(placed) == 1 and index is not None:
            return last.first_column[index], placed[0][0]
        one = said(
            reply, [*self.understanding.grammar.referents.one_row, *self._that_row(previous)]
        )
        if one is not None and len(last.first_column) == 1:
            return last.first_column[0], one
        return self._leader(reply, previous, last, today)

    def _picked(self, reply: str, previous: Meaning, last: PastTurn, today: date) -> Meaning | None:
        """ "compare the first and the third on average transit": two or more rows of the last
        answer's groups by their place, each with the turn's measure (else the one shown)."""
        if not (previous.group_by and last.first_column):
            return None
        placed = positions.ordinals_listed(self.understanding.spans(reply, today))
        rows = len(last.first_column)
        indexes = [positions.index_of(place, rows) for _, place in placed]
        if len(placed) < 2 or None in indexes:
            return None
        keys = [last.first_column[i] for i in indexes if i is not None]
        words = ", ".join(phrase for phrase, _ in placed)
        pointed_at = Referent(field=previous.group_by[0], keys=keys, words=words)
        text = reply
        for phrase, _ in placed:
            text = _without(text, phrase)
        own = self.understanding.analyze(text, today)
        return regrouped_among(previous, own, self._asked(reply, own, previous), pointed_at)

    def _that_row(self, previous: Meaning) -> list[str]:
        """ "that week", "that carrier": a pointing word before a noun of the last answer's rows."""
        pointers = self.understanding.grammar.referents.one_row_pointers
        return [f"{p} {noun}" for p in pointers for noun in self._row_nouns(previous) - {"one"}]

    def _row_nouns(self, previous: Meaning) -> set[str]:
        """The words that name one of the last answer's rows ("one", "carrier", "month")."""
        catalog, grammar = self.understanding.catalog, self.understanding.grammar
        named = field_name(previous.group_by[0], catalog).split() if previous.group_by else []
        units = [w for w, unit in grammar.interval_units.items() if unit == previous.interval]
        return positions.row_nouns([normalize(w) for w in named], units)

    def _measures_kept(self, reply: str, own: Meaning, previous: Meaning) -> list[Measure]:
        """A turn about one row that ranks with no measure of its own ("who shipped the most of
        the top one?") ranks on the last answer's."""
        if not own.measures:
            return own.measures
        catalog = self.understanding.catalog
        default = catalog.spec.defaults.measure
        counted = said(reply, catalog.spec.measures[default].words) is not None
        return positions.measures_kept(own, previous, default, counted)

    def _leader(
        self, reply: str, previous: Meaning, last: PastTurn, today: date
    ) -> tuple[Value | None, str | None]:
        """ "the busiest one", "the smallest one": the row highest or lowest on the last answer's
        first figure, when the word ranks by that figure (not "the slowest one" after a table of
        TEU)."""
        words = normalize(reply).split()
        nouns = self._row_nouns(previous)  # "the busiest one", "the peak month"
        referents = self.understanding.grammar.referents
        for at, (word, after) in enumerate(pairwise(words)):
            asked = after != "one" and positions.only_asks(words[:at], referents)
            # "what was the busiest month?" asks which one, and is ranked
            direction = (
                self._ranks(word, previous, today)
                if after in nouns and last.leaders and not asked
                else None
            )
            if direction is not None:
                return last.leaders[0 if direction > 0 else 1], f"{word} {after}"
        return None, None

    def _among(self, reply: str, previous: Meaning, last: PastTurn, today: date) -> Meaning | None:
        """ "who is quickest?", "which of them declared the most value?", "which month was the
        peak?" after groups or periods: those rows ranked on the measure the turn names (else the
        one shown), the first one (or as many as it says)."""
        pointed = pointing(reply, self.understanding.grammar.referents)
        grouped = previous.group_by or previous.interval
        if pointed is None or not grouped:
            return None
        if self._pointed(reply, previous, last, today)[0] is not None:
            return None  # "the biggest one", "the second one": one row, picked by position
        if len(last.alternatives) > 1:
            return _which_rows(previous, pointed, last.alternatives, reply)
        if pointed.rest:
            return self._rest(reply, previous, last, pointed, today)
        own = self.understanding.analyze(_without(reply, pointed.said), today)
        regrouped = self._regrouped_among(reply, own, previous, last, pointed, today)
        if regrouped is not None:  # "break each of those down by container type"
            return regrouped
        listed = self._listed_among(reply, own, previous, last, pointed, today)
        if listed is not None:
            return listed
        if not self._among_own(own, previous, pointed):
            return None
        ranking = self._ranking(reply, own, previous, today)
        pointed_at = self._referent(last, previous, pointed)
        unread = self._unread_among(own, previous, reply, today)
        own = own.model_copy(update={"not_understood": unread})
        grammar = self.understanding.grammar
        left_out = ranked_too(reply, grammar.referents, grammar.ranking)
        if ranking is not None and left_out:
            # "also among Oakland's top 5": kept by Oakland's records, the ranking said left out
            own = own.model_copy(update={"top_n": None, "not_understood": [*unread, *left_out]})
            return self._kept_among(reply, own, previous, pointed, pointed_at)
        if ranking is not None:
            return ranked_among(previous, own, ranking, pointed_at, reply)
        if _measured_only(own) and previous.group_by:
            # "what was their average transit time?": the turn's figure of each row shown
            return regrouped_among(previous, own, own.measures, pointed_at)
        return self._kept_among(reply, own, previous, pointed, pointed_at)

    def _reaggregated(self, reply: str, previous: Meaning, today: date) -> Meaning | None:
        """The last figure aggregated as the turn says (reaggregate.py). After groups, a turn that
        picks among them ("what was the longest?") is not one, unless it says `each` ("what were
        the shortest and the longest for each?")."""
        words = self.understanding.grammar.referents
        grouped = previous.group_by or previous.interval
        picks = pointing(reply, words) is not None and said(reply, words.each) is None
        if grouped and picks:
            return None
        composer = Composer(self.understanding.catalog, self.understanding.grammar)
        return reaggregated(self.understanding.spans(reply, today), previous, composer)

    def _listed_among(
        self,
        reply: str,
        own: Meaning,
        previous: Meaning,
        last: PastTurn,
        pointed: Pointed,
        today: date,
    ) -> Meaning | None:
        """ "list their shipments": the records of the last answer's groups; "which vessels did
        they use there?": the values of another field among those records. Not a turn that
        measures, ranks or looks up something of its own."""
        words = self.understanding.grammar.referents
        if pointed.said in words.pick or not previous.group_by:
            return None
        if said(reply, [*words.also, *words.never]) is not None or picks_rows(reply, words):
            return None  # "do any of them also get shipments from Valencia?": set logic
        default = self.understanding.catalog.spec.defaults.measure
        measured = any(m.name != default for m in own.measures)
        looks_up = own.lookup is not None and bool(own.lookup.fields)
        if measured or own.top_n or own.interval or looks_up or own.steps:
            return None
        others = [f for f in own.group_by if not self._same_rows(f, previous)]
        records = said(reply, self.understanding.catalog.record.synonyms) is not None
        if not others and not (records and not own.group_by):
            return None
        pointed_at = self._referent(last, previous, pointed)
        unread = self._unread_among(own, previous, reply, today)
        own = own.model_copy(update={"not_understood": unread})
        composer = Composer(self.understanding.catalog, self.understanding.grammar)
        return listed_among(previous, own, pointed_at, others, composer.measure(default))

    def _regrouped_among(
        self,
        reply: str,
        own: Meaning,
        previous: Meaning,
        last: PastTurn,
        pointed: Pointed,
        today: date,
    ) -> Meaning | None:
        """ "monthly TEU for each one", "break each of those down by container type": the last
        answer's groups, each split by the turn's period or by one other field. Only with an
        `each` word."""
        words = self.understanding.grammar.referents
        if said(reply, words.each) is None or not previous.group_by:
            return None
        others = [f for f in own.group_by if not self._same_rows(f, previous)]
        split = own.interval is not None or len(others) == 1
        if not split or (others and own.interval) or len(others) > 1 or own.top_n or own.steps:
            return None
        pointed_at = self._referent(last, previous, pointed)
        unread = self._unread_among(own, previous, reply, today)
        own = own.model_copy(update={"not_understood": unread})
        regrouped = regrouped_among(previous, own, self._asked(reply, own, previous), pointed_at)
        return regrouped.model_copy(update={"group_by": [*regrouped.group_by, *others]})

    def _asked(self, reply: str, own: Meaning, previous: Meaning) -> list[Measure]:
        """The measures a turn about the last rows asks: those it names, the count when it names
        the records ("weekly shipments for each one"), else the ones shown."""
        default = self.understanding.catalog.spec.defaults.measure
        asked = [m for m in own.measures if m.name != default]
        records = said(reply, self.understanding.catalog.record.synonyms) is not None
        if not asked and records:
            asked = [m for m in own.measures if m.name == default]
        return asked or previous.measures

    def _rest(
        self, reply: str, previous: Meaning, last: PastTurn, pointed: Pointed, today: date
    ) -> Meaning | None:
        """ "and the rest combined?", "show the rest": the groups the last answer left out, one
        figure when the turn adds them up (or asks a measure of them), else ranked."""
        pointed_at = self._referent(last, previous, pointed)
        if pointed_at is None:
            return None
        own = self.understanding.analyze(_without(reply, pointed.said), today)
        # "all other carriers": the rows' own field names them, it groups nothing new
        others = [f for f in own.group_by if not self._same_rows(f, previous)]
        if others or own.interval or (own.lookup is not None and own.lookup.fields):
            return None
        union = said(reply, self.understanding.grammar.sets.union) is not None
        composer = Composer(self.understanding.catalog, self.understanding.grammar)
        # "combined" reads as a count of its own: the figure shown is what is added up
        default = self.understanding.catalog.spec.defaults.measure
        asked = [m for m in own.measures if m.name != default]
        shown = previous.measures or [composer.default_measure()]
        measure = asked[0] if asked else shown[0]
        together = union or bool(asked)
        unread = self._unread_among(own, previous, reply, today)
        own = own.model_copy(update={"not_understood": unread})
        return rest_of(previous, own, measure, pointed_at, together)

    def _referent(self, last: PastTurn, previous: Meaning, pointed: Pointed) -> Referent | None:
        """The last answer's rows the turn points at, named by the field they are values of."""
        if not previous.group_by:
            return None
        things = field_name(previous.group_by[0], self.understanding.catalog)
        return referent(last.rows, pointed, things, self.understanding.grammar.referents)

    def _kept_among(
        self,
        reply: str,
        own: Meaning,
        previous: Meaning,
        pointed: Pointed,
        pointed_at: Referent | None,
    ) -> Meaning | None:
        """ "which of those also called at Charleston?", "who of them had none in Baltimore?":
        the last answer's groups that have records of the turn's filters, or none of them."""
        words = self.understanding.grammar.referents
        asked_only = pointed.said in words.pick
        if asked_only or not previous.group_by or not (own.conditions or own.steps):
            return None
        count = Composer(self.understanding.catalog, self.understanding.grammar).measure(
            self.understanding.catalog.spec.defaults.measure
        )
        never = never_said(reply, words)
        return kept_among(previous, own, count, pointed_at, never)

    def _among_own(self, own: Meaning, previous: Meaning, pointed: Pointed) -> bool:
        """The turn groups nothing but the last answer's rows, looks up no object, and, when only a
        question word points back ("who is …"), names no filter or dates of its own."""
        other_groups = [f for f in own.group_by if not self._same_rows(f, previous)]
        other_interval = own.interval is not None and own.interval != previous.interval
        # a name alone reads as a lookup of its object ("called at Charleston"): only one that asks
        # the object's fields is a question of its own
        looks_up = own.lookup is not None and bool(own.lookup.fields)
        if other_groups or other_interval or looks_up or own.index != previous.index:
            return False
        only_asked = pointed.said in self.understanding.grammar.referents.pick
        # "who moved the most reefer TEU?" after reefer carriers: a filter said again is no new one
        kept = {(c.field, tuple(c.values), c.negate) for c in previous.conditions}
        new = [c for c in own.conditions if (c.field, tuple(c.values), c.negate) not in kept]
        return not (only_asked and (new or own.time))

    def _same_rows(self, field: str, previous: Meaning) -> bool:
        """A grouping the turn names is the last answer's rows: their field, or one whose name
        shares a word with it ("which of those ports" after ports of lading)."""
        if not previous.group_by:
            return False
        catalog = self.understanding.catalog
        shown = set(field_name(previous.group_by[0], catalog).split())
        return field == previous.group_by[0] or bool(
            shown & set(field_name(field, catalog).split())
        )

    def _ranking(self, reply: str, own: Meaning, previous: Meaning, today: date) -> Ranking | None:
        """The measure and order a turn ranks the rows on: a superlative's measure ("quickest"),
        the field it sorts on ("the longest average transit"), else its own measure or the one shown
        ranked by a word of rank ("the most", "the peak")."""
        composer = Composer(self.understanding.catalog, self.understanding.grammar)
        n = _count(reply, own, self.understanding.grammar.numbers)
        for span in self.understanding.spans(reply, today):
            for adjective in span.values("adjective"):
                if adjective[3] == "superlative":
                    order: Literal["asc", "desc"] = "desc" if adjective[2] > 0 else "asc"
                    return Ranking(composer.adjective_measure(adjective), order, n)
        if own.sort:
            field, way = own.sort[0]
            return Ranking(composer.field_measure(field), way, n)
        way_said = self._way(reply, previous, today)
        if way_said is None:
            return None
        records = said(reply, self.understanding.catalog.record.synonyms) is not None
        measure = _ranked_measure(own, previous, composer, records)
        return Ranking(measure, "desc" if way_said > 0 else "asc", n)

    def _way(self, reply: str, previous: Meaning, today: date) -> int | None:
        """+1 or -1 when a word of the turn ranks highest or lowest first, else None."""
        found = way_asked(reply, self.understanding.grammar.referents)
        for word in normalize(reply).split():
            found = found or self._ranks(word, previous, today)
        return found

    def _unread_among(self, own: Meaning, previous: Meaning, reply: str, today: date) -> list[str]:
        """The turn's unread words but those that name the rows pointed at ("which week", "which
        type") or rank them ("the peak", "the most")."""
        words = self.understanding.grammar.referents
        names = (
            set(normalize(field_name(previous.group_by[0], self.understanding.catalog)).split())
            if previous.group_by
            else set()
        )
        names |= {
            w
            for w, unit in self.understanding.grammar.interval_units.items()
            if unit == previous.interval
        }
        ranking = {w for p in [*words.highest, *words.lowest] for w in normalize(p).split()}
        ranked = {
            w for w in normalize(reply).split() if self._ranks(w, previous, today) is not None
        }
        ranked |= {  # "quietest": a superlative the ranking read
            w
            for span in self.understanding.spans(reply, today)
            if any(a[3] == "superlative" for a in span.values("adjective"))
            for w in normalize(span.text).split()
        }
        union = self.understanding.grammar.sets.union
        pointing_words = [*words.pick, *words.among, *words.also, *words.never, *words.rest, *union]
        pointers = {w for p in pointing_words for w in normalize(p).split()}
        if own.time is None:  # "that week": the last question's dates
            pointers |= set(self.understanding.grammar.interval_units)
        counted = {
            w
            for w in normalize(reply).split()
            if w.isdigit() or w in self.understanding.grammar.numbers
        }
        explained = names | ranking | ranked | pointers | counted
        return [
            p for p in own.not_understood if not set(normalize(p).split()) <= explained | {"the"}
        ]

    def _reranked(self, reply: str, previous: Meaning, today: date) -> Meaning | None:
        """ "the slowest one" after groups ranked on another measure: the same groups, the one first
        on the measure the word names."""
        if not previous.group_by or not previous.measures:
            return None
        words = normalize(reply).split()
        for word, after in pairwise(words):
            spans = self.understanding.spans(word, today) if after == "one" else []
            for adjective in spans[0].values("adjective") if len(spans) == 1 else []:
                measure = Composer(
                    self.understanding.catalog, self.understanding.grammar
                ).adjective_measure(adjective)
                if adjective[3] == "superlative" and measure.name != previous.measures[0].name:
                    order: Literal["asc", "desc"] = "desc" if adjective[2] > 0 else "asc"
                    return previous.model_copy(
                        update={
                            "measures": [measure],
                            "top_n": 1,
                            "order": order,
                            "sort": [],
                            "compare": [],
                            "page": 1,
                        }
                    )
        return None

    def _ranks(self, word: str, previous: Meaning, today: date) -> int | None:
        """+1 or -1 when `word` ranks highest or lowest first on the last answer's first measure,
        else None."""
        spans = self.understanding.spans(word, today)
        if len(spans) != 1 or not previous.measures:
            return None
        span, measure = spans[0], previous.measures[0]
        for kind, name, direction, form in span.values("adjective"):
            if form == "superlative" and name == (
                measure.field if kind == "field" else measure.name
            ):
                return int(direction)
        if span.has("rank"):
            return 1 if span.value("rank") == "desc" else -1
        aggs = [a[0] for a in span.values("agg")]
        if "max" in aggs:
            return 1
        if "min" in aggs:
            return -1
        return None

    def _built_on(
        self,
        reply: str,
        own: Meaning,
        previous: Meaning,
        last: PastTurn,
        title: str,
        row: Value | None,
        cued: bool,
    ) -> Continued | None:
        if own.top_n and not (own.group_by or own.conditions or own.time) and previous.group_by:
            ranked = previous.model_copy(
                update={
                    "top_n": own.top_n,
                    "order": own.order,
                    "text": title,
                    "not_understood": own.not_understood,
                }
            )
            return Continued("follow_up", title, ranked)  # "just the top 3"
        if own.measures and not (own.conditions or own.time or own.group_by):
            # "what about by weight?"
            anew = said(reply, self.understanding.grammar.group_cues) is not None
            # "and the average transit time?" of one number: that instead
            anew = anew or not previous.group_by
            return Continued("follow_up", title, _measured(previous, own, anew, title))
        if (
            said(reply, self.words.show)
            and previous.intent_type == "aggregation"
            and not (previous.group_by or own.conditions)
        ):
            listed = previous.model_copy(
                update={
                    "measures": [],
                    "intent_type": "search",
                    "interval": None,
                    "top_n": None,
                    "sort": [],
                    "page": 1,
                    "text": title,
                    "not_understood": [],
                }
            )
            # "show them": the records behind the count
            return Continued("follow_up", title, listed)
        if (own.group_by or own.interval) and not own.measures:
            dates = self.understanding.catalog.spec.time.default_field
            parts = {
                n
                for n, f in self.understanding.catalog.record.fields.items()
                if f.derived is not None
            }
            instead = said(reply, self.understanding.grammar.referents.instead) is not None
            regrouping = Regrouping(dates, parts, instead)
            return Continued(
                "follow_up", title, _breakdown(previous, own, title, last, row, regrouping)
            )
        if said(reply, self.words.more) and not (own.conditions or own.time):
            if previous.intent_type != "search":
                return Continued(
                    "new", reply, note="The last answer showed all its rows; it has no next page. "
                )
            return Continued(
                "follow_up",
                title,
                previous.model_copy(
                    update={"page": previous.page + 1, "text": title, "not_understood": []}
                ),
            )
        shifted = self._shift(previous.time, reply)
        if own.conditions or own.time or shifted:
            return Continued("refinement", title, _refine(previous, own, shifted, title))
        if own.not_understood and cued:  # "break that down by colour": the last question again,
            again = previous.model_copy(
                update={"text": title, "page": 1, "not_understood": own.not_understood}
            )
            return Continued("follow_up", title, again)  # saying the words it could not read
        return None

    def _cued(self, reply: str, today: date) -> bool:
        """A reply that starts like a refinement ("and in …", "what about …") or points back
        ("them")."""
        words = f"{normalize(reply)} "
        starts = any(words.startswith(f"{normalize(p)} ") for p in self.words.refine)
        return starts or self._points_back(reply, today)

    def _points_back(self, reply: str, today: date) -> bool:
        """ "break that down", "show me those": a pointing word, but not one that only joins a
        clause to the word of the question just before it ("the TEU that was reefer", "shipments
        that arrived late")."""
        pointing = {normalize(p) for p in self.understanding.grammar.pointing}
        spans = self.understanding.spans(reply, today)
        for i, span in enumerate(spans):
            if span.key in pointing and not (i > 0 and any(spans[i - 1].has(k) for k in _CONTENT)):
                return True
        return False

    def _bare(self, own: Meaning, previous: Meaning) -> bool:
        """A reply that names only a ranking ("top 3", after groups) or only a grouping ("weekly"),
        nothing to rank or group of its own: not the records, a filter, dates or a measure other
        than the count."""
        default = self.understanding.catalog.spec.defaults.measure
        measured = any(m.name != default for m in own.measures)
        records = said(own.text, self.understanding.catalog.record.synonyms) is not None
        named = bool(own.conditions or own.time or own.lookup) or measured or records
        ranks = own.top_n and previous.group_by and not (own.group_by or own.interval)
        regroups = (own.group_by or own.interval) and not own.top_n
        return not named and bool(ranks or regroups)

    def _stands_alone(self, meaning: Meaning) -> bool:
        """A question of its own: it names the records or asks a measure, a grouping or a
        ranking."""
        nouns = self.understanding.catalog.record.synonyms
        named = said(meaning.text, nouns) is not None
        # "which carriers serve Honolulu?"
        grouped = meaning.group_by and (meaning.conditions or meaning.time)
        return bool(named or meaning.measures or meaning.top_n or meaning.interval or grouped)

    def _sort(self, reply: str, previous: Meaning, last: PastTurn) -> Meaning | None:
        """ "sort by weight", "order them by TEU, lowest first": the same rows in another order."""
        cue = said(reply, self.words.sort)
        if cue is None:
            return None
        words = normalize(reply)
        rest = words[words.index(normalize(cue)) + len(normalize(cue)) :]
        field, measure = self._sort_field(rest)
        if field is None:
            return None
        direction: Literal["asc", "desc"] = "asc" if said(reply, self.words.ascending) else "desc"
        return self._sorted(previous, last, field, measure, direction)

    def _sorted(
        self,
        previous: Meaning,
        last: PastTurn,
        field: str,
        measure: str | None,
        direction: Literal["asc", "desc"],
    ) -> Meaning | None:
        """Records sorted by a field; the same groups ordered by the measure over it (added when not
        shown)."""
        if previous.intent_type == "search":
            return previous.model_copy(update={"sort": [(field, direction)], "page": 1})
        if not previous.group_by:
            return None
        shown = [m for m in previous.measures if m.field == field]
        spec = self.understanding.catalog.spec.measures.get(measure or "")
        if shown:
            first = shown[0]
        elif spec is not None:
            first = Measure(
                name=measure or "", agg=spec.agg, field=field, label=spec.label, unit=spec.unit
            )
        else:
            return None
        conditions = list(previous.conditions)
        if previous.top_n and last.first_column and len(last.first_column) == previous.top_n:
            # same groups
            conditions.append(Condition(field=previous.group_by[0], values=list(last.first_column)))
        return previous.model_copy(
            update={
                "measures": [first, *(m for m in previous.measures if m is not first)],
                "sort": [(field, direction)],
                "order": direction,
                "conditions": conditions,
            }
        )

    def _sort_field(self, phrase: str) -> tuple[str | None, str | None]:
        """(the field to sort by, the measure whose words name it, if any)."""
        catalog = self.understanding.catalog
        for name, measure in catalog.spec.measures.items():
            if measure.field and said(phrase, measure.words):
                return measure.field, name
        for name, spec in catalog.record.fields.items():
            if said(phrase, [*spec.synonyms, name.replace("_", " ")]):
                measure_name = next(
                    (n for n, m in catalog.spec.measures.items() if m.field == name), None
                )
                return name, measure_name
        return None, None

    def _shift(self, time: TimeFilter | None, reply: str) -> TimeFilter | None:
        """ "and the month before?", "the previous quarter": the last range moved by one unit."""
        if time is None or time.start is None or time.end is None:
            return None
        words = normalize(reply).split()
        units = self.understanding.grammar.interval_units
        for i, word in enumerate(words):
            near = [w for w in words[max(0, i - 1) : i + 2] if w in self.words.shift]
            if word in units and near:
                step = _STEP[units[word]] * self.words.shift[near[0]]
                # month ends stay month ends
                end = time.end + relativedelta(days=1) + step - relativedelta(days=1)
                return TimeFilter(
                    field=time.field, start=time.start + step, end=end, text=f"{near[0]} {word}"
                )
        return None


def _which_rows(previous: Meaning, pointed: Pointed, tables: list[str], reply: str) -> Meaning:
    """ "which of them also use Charleston?" after two lists of groups: asked back, which one."""
    doubt = Ambiguity(term=pointed.said, kind="entity", options=tables)
    return previous.model_copy(update={"text": reply, "ambiguities": [doubt], "not_understood": []})


def _numbered(text: str, numbers: dict[str, float]) -> set[float]:
    """The counts the text says ("which 3 of them", "which three"), in digits or in words."""
    words = normalize(text).split()
    return {float(w) for w in words if w.isdigit()} | {numbers[w] for w in words if w in numbers}


def _count(reply: str, own: Meaning, numbers: dict[str, float]) -> int:
    """How many of the rows a turn ranks: the number it says ("which 3 of them"), else one."""
    counts = _numbered(reply, numbers)
    if own.top_n is not None and own.top_n in counts:
        return own.top_n
    unread = {w for p in own.not_understood for w in normalize(p).split()}
    said_alone = [n for n in counts if n >= 1 and n == int(n) and _spelt(n, numbers) & unread]
    return int(said_alone[0]) if len(said_alone) == 1 else 1


def _spelt(n: float, numbers: dict[str, float]) -> set[str]:
    """The ways a count is written: "3", "three"."""
    return {str(int(n))} | {w for w, value in numbers.items() if value == n}


def _ranked_measure(own: Meaning, previous: Meaning, composer: Composer, records: bool) -> Measure:
    """What a word of rank ranks on: the turn's own measure, as the catalog sums it ("the most
    containers" is the most in total, not the largest one), the count when it names the records
    ("the most shipments"), else the last answer's figure."""
    if not own.measures and records:
        return composer.measure(composer.catalog.spec.defaults.measure)
    if not own.measures and previous.measures:
        return previous.measures[0]
    if not own.measures:
        return composer.default_measure()
    measure = own.measures[0]
    if measure.agg in ("max", "min") and measure.name in composer.catalog.spec.measures:
        return composer.measure(measure.name)
    return measure


def _longest_said(text: str, phrases: list[str]) -> str | None:
    """The longest of `phrases` the text says as words ("compared with", not "compared")."""
    padded = f" {normalize(text)} "
    return max((p for p in phrases if f" {normalize(p)} " in padded), key=len, default=None)


def _cut(text: str, phrase: str) -> str:
    """The text without the words of `phrase`, the others as written (names keep their capitals)."""
    words, cut = text.split(), normalize(phrase).split()
    for i in range(len(words)):
        window = normalize(" ".join(words[i : i + len(cut)])).split()
        if window == cut:
            return " ".join([*words[:i], *words[i + len(cut) :]])
    return text


def built_on(
    meaning: Meaning, previous: Meaning, reply: str, quiet: set[str], catalog: Catalog
) -> Meaning:
    """A follow-up's meaning, as every backend gives it: the last turn's unread words said again,
    and what of the last question it kept said in the catalog's words (`quiet`: the words that carry
    no content)."""
    doubted = _said_before(_doubted(meaning, previous, reply, quiet), previous)
    return _kept_said(doubted, previous, catalog)


def _doubted(meaning: Meaning, previous: Meaning, reply: str, quiet: set[str]) -> Meaning:
    """The last turn's unread words said again (the reply builds on a reading that did not use
    them), unless the reply says one of their content words and reads it ("top 3" after "top 0");
    then the reply's own."""
    said_now = set(normalize(reply).split())
    unread_now = {w for p in meaning.not_understood for w in normalize(p).split()}
    kept = [p for p in previous.not_understood if not _read_now(p, said_now - quiet, unread_now)]
    return meaning.model_copy(
        update={"not_understood": list(dict.fromkeys([*kept, *meaning.not_understood]))}
    )


def _said_before(meaning: Meaning, previous: Meaning) -> Meaning:
    """The doubts the last turn's answer said already (the same word kinds, options and default,
    whatever dates they are about now) marked so: the answer offers them again as choices, and does
    not say them again."""
    before = {(a.kind, tuple(a.options), a.default) for a in previous.ambiguities}
    doubts = [
        a.model_copy(update={"said_before": (a.kind, tuple(a.options), a.default) in before})
        for a in meaning.ambiguities
    ]
    return meaning.model_copy(update={"ambiguities": doubts})


def _read_now(phrase: str, said_now: set[str], unread_now: set[str]) -> bool:
    words = set(normalize(phrase).split())
    return bool(words & said_now) and not words & unread_now


def _kept_said(meaning: Meaning, previous: Meaning, catalog: Catalog) -> Meaning:
    """The assumption that says which of the last question's filters and dates the follow-up kept
    (read from the meaning, in the words its reading is said in, so a person can check it); the one
    a chain of follow-ups said before is replaced."""
    same_measures = meaning.measures == previous.measures
    kept = [measure_words(m) for m in meaning.measures] if same_measures else []
    same_interval = meaning.interval is not None and meaning.interval == previous.interval
    kept += [english().phrases.interval.format(interval=meaning.interval)] if same_interval else []
    before = [_bare(c) for c in previous.conditions]
    kept += [
        condition_words(c, catalog, value_names(meaning))
        for c in meaning.conditions
        if _bare(c) in before
    ]
    if (
        meaning.time is not None
        and previous.time is not None
        and _dates(meaning.time) == _dates(previous.time)
    ):
        kept.append(dates_words(meaning.time, catalog, english().phrases.dated))
    assumptions = [a for a in meaning.assumptions if not a.startswith(KEPT)]
    if kept:
        assumptions.append(f"{KEPT}: {'; '.join(kept)}")
    return meaning.model_copy(update={"assumptions": assumptions})


def _bare(condition: Condition) -> Condition:
    """The condition without the words it was read from: the same filter, whichever turn wrote
    it."""
    return condition.model_copy(update={"source": ""})


def _dates(time: TimeFilter) -> tuple[str, date | None, date | None]:
    return time.field, time.start, time.end


def _measured_only(own: Meaning) -> bool:
    """The turn names a figure of a field and no filter or step of its own."""
    return any(m.field for m in own.measures) and not (own.conditions or own.steps)


def _without(reply: str, phrase: str | None) -> str:
    if phrase is None:
        return reply
    words = normalize(reply)
    return words.replace(normalize(phrase), " ")


def _measured(previous: Meaning, own: Meaning, anew: bool, title: str) -> Meaning:
    """ "what about by weight?" ranks the groups anew; "and the average transit time?" adds a
    column."""
    added = [m for m in own.measures if m.label not in {p.label for p in previous.measures}]
    measures = own.measures if anew else [*previous.measures, *added]
    return previous.model_copy(
        update={
            "measures": measures,
            "sort": [],
            "text": title,
            "intent_type": "aggregation",
            "page": 1,
            "not_understood": own.not_understood,
            "assumptions": [*previous.assumptions, *own.assumptions],
        }
    )


def _refine(previous: Meaning, own: Meaning, shifted: TimeFilter | None, title: str) -> Meaning:
    """The previous meaning with the reply's constraints replacing those on the same fields."""
    fields = {c.field for c in own.conditions}
    conditions = [c for c in previous.conditions if c.field not in fields] + [
        Condition.model_validate(c.model_dump()) for c in own.conditions
    ]
    time = shifted or previous.time
    ambiguities = previous.ambiguities
    if own.time is not None:
        named_field = not any(
            a.kind == "field" and a.term == own.time.text for a in own.ambiguities
        )
        time = (
            own.time
            if named_field or previous.time is None
            else own.time.model_copy(update={"field": previous.time.field})
        )
        ambiguities = _redated(previous, own.time, named_field)
    entities = [e for e in previous.entities if e.field not in fields] + own.entities
    compare = [f for f in previous.compare if f not in fields]
    group_by = [f for f in previous.group_by if f not in fields or f not in previous.compare]
    assumptions = list(dict.fromkeys([*previous.assumptions, *own.assumptions]))
    shift_words = set(normalize(shifted.text).split()) if shifted else set()
    # "the month before"
    unread = [p for p in own.not_understood if not set(normalize(p).split()) <= shift_words]
    return previous.model_copy(
        update={
            "conditions": conditions,
            "time": time,
            "entities": entities,
            "compare": compare,
            "group_by": group_by,
            "assumptions": assumptions,
            "not_understood": unread,
            "page": 1,
            "text": title,
            "ambiguities": ambiguities,
        }
    )


def _redated(previous: Meaning, time: TimeFilter, named_field: bool) -> list[Ambiguity]:
    """The last question's doubts, its doubt about which date its dates meant now about the reply's
    ("and in 2024?" keeps the field "in 2025" was read as, and says so of "in 2024"); gone when the
    reply names its field."""
    kept = []
    for doubt in previous.ambiguities:
        if previous.time is not None and doubt.kind == "field" and doubt.term == previous.time.text:
            if named_field:
                continue
            doubt = doubt.model_copy(update={"term": time.text})
        kept.append(doubt)
    return kept


def _pointed_at(
    previous: Meaning, own: Meaning, value: Value, title: str, dates: str, listed: bool = False
) -> Meaning:
    """ "the busiest month for the second one", "what about the top one?": the reply's own question
    (or the last one's measures) for the one group, or the one period, pointed at, within the last
    question's constraints; `listed`: the reply names the records ("list its shipments")."""
    field = previous.group_by[0] if previous.group_by else None
    asks = bool(own.measures or own.interval or own.group_by or listed)
    base = (
        own
        if asks
        else previous.model_copy(
            update={
                "group_by": previous.group_by[1:],
                "top_n": None,
                "interval": None,
                "compare": [],
                "sort": [],
            }
        )
    )
    named = {c.field for c in own.conditions} | {field}
    conditions = [c for c in previous.conditions if c.field not in named] + list(own.conditions)
    time = own.time or previous.time
    if field is not None:
        conditions.append(Condition(field=field, values=[value], source=title))
    else:  # a period: its own dates
        time = _period(previous, str(value), dates)
    entities = [e for e in previous.entities if e.field not in named] + own.entities
    return base.model_copy(
        update={
            "conditions": conditions,
            "time": time,
            "text": title,
            "entities": entities,
            "page": 1,
            "not_understood": own.not_understood,
            "assumptions": list(dict.fromkeys([*previous.assumptions, *own.assumptions])),
        }
    )


def _period(previous: Meaning, start: str, dates: str) -> TimeFilter:
    """The dates of one period of the last answer's periods ("2025-11-01" of months: November 2025),
    on the last question's date field (else `dates`, the catalog's default)."""
    assert previous.interval is not None
    first = date.fromisoformat(start[:10])
    end = first + _STEP[previous.interval] - relativedelta(days=1)
    field = previous.time.field if previous.time else dates
    return TimeFilter(
        field=field, start=first, end=end, text=f"the {previous.interval} of {start[:10]}"
    )


@dataclass(frozen=True)
class Regrouping:
    """What a breakdown needs besides the meanings: the catalog's default date field, its fields
    that are parts of a date, and whether the turn said its grouping replaces the last one
    ("by month instead")."""

    dates: str
    parts: set[str]
    instead: bool


def _breakdown(
    previous: Meaning,
    own: Meaning,
    title: str,
    last: PastTurn,
    row: Value | None,
    regrouping: Regrouping,
) -> Meaning:
    """ "break that down by carrier (for the top one)": the same question grouped anew; a period
    ("weekly") replaces a grouping by a date part, which it would only split; "by month instead"
    replaces the last grouping whatever it was."""
    conditions, time = list(previous.conditions), previous.time
    if row is not None and previous.group_by:
        field = previous.group_by[0]
        conditions = [c for c in conditions if c.field != field]
        conditions.append(Condition(field=field, values=[row], source=title))
    elif row is not None:  # one of the periods: its dates, and no longer by period
        time = _period(previous, str(row), regrouping.dates)
    measures = previous.measures or own.measures
    group_by, interval = _groups(previous, own, regrouping)
    assumptions = list(dict.fromkeys([*previous.assumptions, *own.assumptions]))
    # a series stays in time order
    ranked_on = measures[0].field if measures and group_by and not interval else None
    return previous.model_copy(
        update={
            "group_by": group_by,
            "conditions": conditions,
            "compare": [],
            "time": time,
            "assumptions": assumptions,
            "not_understood": own.not_understood,
            "interval": interval,
            "top_n": None,
            "measures": measures,
            "intent_type": "aggregation",
            "sort": [(ranked_on, "desc")] if ranked_on else [],
            "order": "desc",
            "text": title,
        }
    )


def _groups(
    previous: Meaning, own: Meaning, regrouping: Regrouping
) -> tuple[list[str], Interval | None]:
    """The fields and the period a breakdown groups by: the turn's alone when it says "instead";
    else its fields replace the last ones, and its period keeps them ("… by month": the same
    groups, each by month) but for a grouping by a date part ("weekly" after "by weekday")."""
    if regrouping.instead:
        return list(own.group_by), own.interval
    kept = [g for g in previous.group_by if not (own.interval and g in regrouping.parts)]
    group_by = own.group_by or ([] if previous.interval else kept)
    return group_by, own.interval or (None if own.group_by else previous.interval)


def _names_stretch(phrase: str, stretch: list[str]) -> bool:
    """ "the same 90 days": words that only name the dates a turn moves, numbers among them."""
    return all(w in stretch or w.isdigit() for w in normalize(phrase).split())
