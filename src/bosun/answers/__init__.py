"""The answer writer (DESIGN §1): a Table and its Meaning → text, headings and notes.

Below workers and above the query compiler: it reads tables, the Meaning, the catalog and the
grammar, never the planner or a conversation. Workers do the work and put what this package writes
in their slots:

    describe(meaning, table, catalog)     the text of a table of results (F11)
    analysis(meaning, table, catalog)     rankings, trends, leads and ties (F12)
    assumptions(meaning, unsure, …)       what the results say they assumed
    choices(meaning, unsure, catalog)     the readings it chose, with the others it could take
    read_back(meaning, catalog)           the reading shown with each result
    suggestions(meaning, key, catalog)    what to ask next: broken down, the period before, records
    refused(…), nothing_asked(…), …       why the data cannot answer, and what it can tell instead
    diagnosis(culprits, catalog)          which filters emptied a result

Its English is data: answers/en.yaml, loaded by one typed model (`grammar.writing()`), holds
the reading's templates (`read_back`) and the fixed sentences; the words of a meaning's parts it
builds on (a filter, a measure, dates) are understanding's (`understanding.phrases`), and the days
and spans the layers above write with are re-exported here. Charts (`charts`) are Vega-Lite specs
chosen from a table's shape; `notes` words what an answer says about taught words and a chat
model's text not used.
"""

from bosun.answers.analysis import analysis
from bosun.answers.assumed import assumptions, linked
from bosun.answers.choices import Alternative, Choice, choices
from bosun.answers.diagnosis import diagnosis
from bosun.answers.fields import definitions, field_columns, field_list, fields_title
from bosun.answers.listings import page_line
from bosun.answers.names import held_keys, key_names, part_names
from bosun.answers.notes import model_clause_read, model_clause_unused, model_text_unused
from bosun.answers.objects import (
    attribute_label,
    object_attributes,
    object_columns,
    object_described,
    object_reading,
)
from bosun.answers.periods import period_names
from bosun.answers.questions import ambiguous, did_you_mean, which_one
from bosun.answers.readback import read_back
from bosun.answers.refusals import (
    mostly_unread,
    no_linked,
    not_in_glossary,
    nothing_asked,
    past_the_pages,
    refused,
    unknown_object,
    unknown_term,
)
from bosun.answers.suggestions import suggested, suggestions
from bosun.answers.summary import describe
from bosun.understanding.periodnames import day_name
from bosun.understanding.phrases import date_span, days_span

__all__ = [
    "Alternative",
    "Choice",
    "ambiguous",
    "analysis",
    "assumptions",
    "attribute_label",
    "choices",
    "date_span",
    "day_name",
    "days_span",
    "definitions",
    "describe",
    "diagnosis",
    "did_you_mean",
    "field_columns",
    "field_list",
    "fields_title",
    "held_keys",
    "key_names",
    "linked",
    "model_clause_read",
    "model_clause_unused",
    "model_text_unused",
    "mostly_unread",
    "no_linked",
    "not_in_glossary",
    "nothing_asked",
    "object_attributes",
    "object_columns",
    "object_described",
    "object_reading",
    "page_line",
    "part_names",
    "past_the_pages",
    "period_names",
    "read_back",
    "refused",
    "suggested",
    "suggestions",
    "unknown_object",
    "unknown_term",
    "which_one",
]
