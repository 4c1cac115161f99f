// Bosun's page: threads, turns streamed as Server-Sent Events, answers with tables and charts, the live plan.
// Plain browser JavaScript, no build step; charts are the server's Vega-Lite specs drawn by vega-embed.
"use strict";

const PAGE_ROWS = 20;
// origin: which conversations the sidebar lists, those of the page ("api") or of the command line and MCP ("ask")
const state = { thread: null, busy: false, deleting: null, origin: "api" };
const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

// ---- the API, with the bearer token a server off loopback asks for --------------------------------------

async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", ...(options.headers || {}) };
  const token = sessionStorage.getItem("bosun-token");
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { ...options, headers });
  if (response.status === 401) {
    const given = prompt("This Bosun server needs its API token:");
    if (given) { sessionStorage.setItem("bosun-token", given); return api(path, options); }
  }
  if (!response.ok && !(options.headers || {}).Accept) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(body.detail || `${response.status} ${response.statusText}`),
                        { status: response.status });
  }
  return response;
}

// ---- threads ---------------------------------------------------------------------------------------------

// The sidebar lists the conversations of one origin: the page's own, or those the command line and MCP started.
// Refreshing it leaves the banner alone: a list that loads says nothing of what failed before.
async function listThreads() {
  const threads = await (await api(`/threads?origin=${state.origin}`)).json();
  const list = $("#threads");
  const shown = threads.filter((t) => (t.title || t.thread_id === state.thread) && t.thread_id !== state.deleting);
  list.replaceChildren(...shown.map(threadItem));
  $("#no-threads").textContent = NO_THREADS[state.origin];
  $("#no-threads").hidden = shown.length > 0;
}

const NO_THREADS = {
  api: "No conversations on this page yet.",
  ask: "No conversations from the command line or MCP.",
};

function threadItem(thread) {
  return el("li", { "data-thread": thread.thread_id, class: thread.thread_id === state.thread ? "current" : null },
    el("button", { type: "button", class: "open", title: thread.title || thread.thread_id,
                   onclick: () => openThread(thread.thread_id) },
       thread.title || "(new conversation)", el("small", {}, whenCreated(thread.created))),
    el("span", { class: "thread-actions" },
       el("button", { type: "button", class: "rename", "aria-label": `Rename “${thread.title}”`,
                      onclick: (event) => renameThread(thread, event.target.closest("li")) }, "rename"),
       el("button", { type: "button", class: "delete", "aria-label": `Delete “${thread.title}”`,
                      onclick: () => deleteThread(thread) }, "delete")));
}

function showOrigin(origin) {
  state.origin = origin;
  for (const button of document.querySelectorAll("#origins button")) {
    button.setAttribute("aria-pressed", String(button.dataset.origin === origin));
  }
  listThreads().catch(unreachable);
}

// Renamed in place: the name becomes a field; Enter or Save keeps the new name, Escape the old one.
function renameThread(thread, item) {
  const field = el("input", { type: "text", value: thread.title, maxlength: "200",
                              "aria-label": `New name for “${thread.title}”` });
  const form = el("form", { class: "rename-form" }, field, el("button", { type: "submit" }, "Save"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const title = field.value.trim();
    if (title && title !== thread.title) {
      const change = { method: "PATCH", body: JSON.stringify({ title }) };
      await api(`/threads/${thread.thread_id}`, change).catch(unreachable);
    }
    await relistFocused(thread.thread_id);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();  // the drawer stays open
    relistFocused(thread.thread_id);
  });
  item.querySelector("button.open").replaceWith(form);
  field.focus();
  field.select();
}

// The list drawn again, with the keyboard's focus back on the thread it was on.
async function relistFocused(threadId) {
  await listThreads().catch(unreachable);
  $(`#threads li[data-thread="${threadId}"] button.open`)?.focus();
}

// A deleted thread leaves the list at once and is deleted on the server after a few seconds, unless undone.
const UNDO_MS = 6000;

function deleteThread(thread) {
  state.deleting = thread.thread_id;
  if (state.thread === thread.thread_id) startFresh();
  listThreads().catch(unreachable);
  const undo = el("button", { type: "button", id: "undo" }, "Undo");
  const notice = el("div", { id: "deleted", role: "status" }, `Deleted “${thread.title}”. `, undo);
  $("#deleted")?.remove();
  $("main").prepend(notice);
  const timer = setTimeout(async () => {
    notice.remove();
    state.deleting = null;
    await api(`/threads/${thread.thread_id}`, { method: "DELETE" }).catch(unreachable);
  }, UNDO_MS);
  undo.addEventListener("click", () => {
    clearTimeout(timer);
    notice.remove();
    state.deleting = null;
    listThreads().catch(unreachable);
  });
}

function whenCreated(iso) {
  const created = new Date(iso);
  if (Number.isNaN(created.getTime())) return "";
  const today = new Date().toDateString() === created.toDateString();
  return today ? created.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : created.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
}

// A new conversation is created with its first question, so that no empty thread is left behind.
async function newThread() {
  const created = await (await api("/threads", { method: "POST" })).json();
  state.thread = created.thread_id;
  history.pushState(null, "", `#thread=${created.thread_id}`);
}

function startFresh(push = true) {
  state.thread = null;
  if (push) history.pushState(null, "", location.pathname);
  $("#conversation").replaceChildren();
  closeDrawer();
  hidePlan();
  showStart();
  listThreads().catch(unreachable);
}

async function openThread(threadId, push = true) {
  state.thread = threadId;
  if (push) history.pushState(null, "", `#thread=${threadId}`);
  closeDrawer();
  hidePlan();  // the plan shown is the last question's asked here, not one of this thread
  try {
    const response = await api(`/threads/${threadId}`);
    $("#conversation").replaceChildren();
    for (const turn of (await response.json()).turns) showTurn(turn.question).done(turn.answer);
    await showMarks(threadId).catch(() => {});  // marks.js: how each answer was marked
    showStart();
    hideBanner();
    await listThreads();
  } catch (error) {
    if (error.status === 404) {
      state.thread = null;  // the next question starts a new conversation
      $("#conversation").replaceChildren();
      showStart();
      unreachable(new Error("this conversation does not exist (it may have been deleted)"));
    } else {
      unreachable(error, () => openThread(threadId, false));
    }
  }
}

function threadFromUrl() {
  return (location.hash.match(/thread=([\w-]+)/) || [])[1] || null;
}

// ---- the start screen and what is in view when something fails ---------------------------------------------

let started = null;

async function showStart() {
  const empty = $("#conversation").children.length === 0;
  $("#start").hidden = !empty;
  if (!empty || started) return;
  started = (await api("/start")).json().then((start) => {
    const holds = start.holds;
    const dates = holds.dates ? ` from ${holds.dates}` : "";
    const count = holds.count === null ? "" : `${holds.count.toLocaleString()} `;
    $("#holds").textContent = `${count}${holds.records}${dates}. ${holds.description} ` +
      `Measures: ${holds.measures.join(", ")}.`;
    $("#suggestions").replaceChildren(...start.questions.map((q) =>
      el("button", { type: "button", onclick: () => ask(q) }, q)));
  }).catch((error) => { started = null; throw error; });
  await started;
}

function unreachable(error, retry) {
  const offline = error instanceof TypeError;  // fetch itself failed: no server answered
  $("#banner-text").textContent = offline
    ? "The Bosun server cannot be reached. Nothing is lost: your conversations are kept on the server."
    : `The server answered with an error: ${error.message}`;
  $("#retry").hidden = !retry;
  $("#retry").onclick = () => { hideBanner(); retry(); };
  $("#banner").hidden = false;
}

function hideBanner() { $("#banner").hidden = true; }

// The end of the conversation stays in view when its area shrinks (the plan opened, a phone's keyboard up), so
// that nothing at its end, such as a question back's buttons, is left under the plan.
function keepEndInView() {
  const conversation = $("#conversation");
  let atEnd = true;
  conversation.addEventListener("scroll", () => {
    atEnd = conversation.scrollTop + conversation.clientHeight >= conversation.scrollHeight - 8;
  }, { passive: true });
  new ResizeObserver(() => {
    if (atEnd) conversation.scrollTop = conversation.scrollHeight;
  }).observe(conversation);
}

function toggleDrawer() {
  const open = !$("#sidebar").classList.contains("open");
  $("#sidebar").classList.toggle("open", open);
  $("#drawer").setAttribute("aria-expanded", String(open));
}

function closeDrawer() {
  $("#sidebar").classList.remove("open");
  $("#drawer").setAttribute("aria-expanded", "false");
}

// ---- a turn: stream its events, draw the plan, then show the answer; a failure stays where it happened -----

function ask(question) {
  if (state.busy || !question.trim()) return;
  $("#start").hidden = true;
  send(question, showTurn(question));
}

// One try at a turn. An answer, even a failed one, is the thread's: the server has stored it. A question that got
// no answer (no server, or an error before the turn ran) stays in its place with why, and a Retry that asks it
// again there, in the same thread.
async function send(question, view) {
  state.busy = true;
  const plan = startPlan();
  try {
    if (!state.thread) await newThread();
    const { answer, failure } = await streamTurn(question, plan);
    view.done(answer);
    plan.answered(answer, failure);
    hideBanner();  // whatever the banner said, the server answers now
  } catch (error) {
    const reason = reasonOf(error);
    view.unsent(reason, () => send(question, view));
    plan.failed(reason);
  } finally {
    state.busy = false;
    listThreads().catch(() => {});
  }
}

// The turn's events drawn into the plan as they come; its answer, and the error the server said with it, if any.
async function streamTurn(question, plan) {
  const response = await api(`/threads/${state.thread}/turns`, {
    method: "POST", headers: { Accept: "text/event-stream" }, body: JSON.stringify({ question }),
  });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw Object.assign(new Error(body.detail || response.statusText), { code: body.error });
  }
  let answer = null;
  let failure = null;
  await readEvents(response, (kind, data) => {
    if (kind === "answer") answer = data;
    else if (kind === "error") failure = data;
    else plan.event(kind, data);
  });
  if (!answer) {
    const said = failure || { detail: "the answer never came" };
    throw Object.assign(new Error(said.detail), { code: said.error });
  }
  return { answer, failure };
}

// Why a question got no answer, in a few words: the server's error kind where it has words, else its detail.
const ERROR_WORDS = {
  engine_unavailable: "the search engine is down",
  unauthorized: "the search engine refused your credentials",
  forbidden: "you may not read what was asked",
};

function reasonOf(error) {
  if (error instanceof TypeError) return "the Bosun server cannot be reached";  // fetch itself failed
  return reasonWords(error.code, error.message);
}

function reasonWords(code, detail) {
  return (ERROR_WORDS[code] || detail || "").replace(/\.$/, "");
}

async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const kind = (frame.match(/^event: (.*)$/m) || [])[1];
      const data = (frame.match(/^data: (.*)$/m) || [])[1];
      if (kind && data) onEvent(kind, JSON.parse(data));
    }
  }
}

// A question in the conversation and, below it, what became of it: waiting, its answer, or why it got none.
function showTurn(question) {
  const box = el("div", { class: "turn" }, el("div", { class: "question" }, question));
  let shown = el("div", { class: "answer pending" }, "…");
  box.append(shown);
  $("#conversation").append(box);
  scrollToEnd();
  const show = (node) => {
    shown.replaceWith(node);
    shown = node;
    scrollToEnd();
  };
  return {
    done(answer) {
      box.dataset.stored = "";  // one of the thread's turns on the server, as marks.js counts them
      if (showsFigures(answer)) box.append(markControls(box));  // marks.js
      show(renderAnswer(answer));
    },
    unsent(reason, retry) {
      const again = el("button", { type: "button", class: "retry", onclick: () => {
        if (state.busy) return;
        $("#conversation").append(box);  // asked now: the thread's newest turn, as the server will number it
        show(el("div", { class: "answer pending" }, "…"));
        retry();
      } }, "Retry");
      show(el("div", { class: "answer unsent", role: "alert" },
              el("p", { class: "failure" }, `Not answered: ${reason}.`, again)));
    },
  };
}

function scrollToEnd() {
  const conversation = $("#conversation");
  conversation.scrollTop = conversation.scrollHeight;
}

// Marking an answer right or wrong is for the figures it gives: not for a question back, a failure or words alone.
function showsFigures(answer) {
  return answer.status === "done" && answer.results.some((result) => result.rows.length > 0);
}

// ---- an answer: text, what was not understood, assumptions, options, tables and charts --------------------

function renderAnswer(answer) {
  const box = el("div", { class: "answer", "data-status": answer.status });
  const notUnderstood = answer.not_understood || [];
  if (notUnderstood.length) {
    box.append(renderNotUnderstood(notUnderstood));  // teach.js
  }
  box.append(renderText(answer.status === "needs_clarification" ? answer.clarification.question : answer.answer));
  if (answer.assumptions.length) {
    box.append(el("ul", { class: "assumptions" }, ...answer.assumptions.map((a) => el("li", {}, `Assumed: ${a}`))));
  }
  if (answer.clarification) {
    const options = answer.clarification.options.map((option) =>
      el("button", { type: "button", onclick: () => ask(option) }, option));
    box.append(el("div", { class: "options" }, ...options));
  }
  if ((answer.remember || []).length) box.append(renderRemember(answer.remember));  // teach.js
  for (const result of answer.results) box.append(renderResult(result));
  if ((answer.choices || []).length) box.append(renderChoices(answer.choices));
  if ((answer.suggestions || []).length) box.append(renderSuggestions(answer.suggestions));
  if (answer.status === "failed") box.append(retryLine(answer.question));
  return box;
}

// Each reading the answer chose where the question allowed several, under the results: what it was read as, and a
// button for each other reading that asks for it in this thread.
function renderChoices(choices) {
  const lines = choices.map((choice) => el("li", {},
    `“${choice.said}” read as ${choice.chosen}. Read it as: `,
    ...choice.others.map((other) => el("button", {
      type: "button", title: other.question, onclick: () => ask(other.question),
    }, other.label))));
  return el("ul", { class: "choices options", "aria-label": "Other readings" }, ...lines);
}

// Questions to ask next, made from the answer's reading: each a button that asks it in this thread.
function renderSuggestions(questions) {
  return el("div", { class: "next options", role: "group", "aria-label": "Ask next" },
    el("span", { class: "next-label" }, "Ask next:"),
    ...questions.map((question) => el("button", { type: "button", onclick: () => ask(question) }, question)));
}

// A failed answer stays in the thread with its reason (the answer's text); Retry asks its question again, as the
// thread's next turn.
function retryLine(question) {
  return el("p", { class: "failure" },
            el("button", { type: "button", class: "retry", onclick: () => ask(question) }, "Retry"));
}

function renderText(markdown) {
  // A little Markdown (paragraphs, line breaks, **bold**), built as text nodes: nothing is parsed as HTML.
  const box = el("div", { class: "text" });
  for (const paragraph of markdown.split(/\n{2,}/)) {
    const p = el("p");
    paragraph.split("\n").forEach((line, i) => {
      if (i) p.append(el("br"));
      line.split(/\*\*(.+?)\*\*/).forEach((part, j) => {
        const kept = datesKept(part);
        if (j % 2) p.append(el("strong", {}, ...kept));
        else p.append(...kept);
      });
    });
    box.append(p);
  }
  return box;
}

// A date written ISO-style ("2026-06-13") is kept on one line: a browser would break it after a hyphen.
const ISO_DAY = /(\d{4}-\d{2}-\d{2})/;

function datesKept(text) {
  return text.split(ISO_DAY).map((part, i) => (i % 2 ? el("span", { class: "keep" }, part) : part));
}

const darkScheme = window.matchMedia("(prefers-color-scheme: dark)");

function renderResult(result) {
  // Titled by what was computed (its reading), not by the question, which stands once, just above.
  const box = el("div", { class: "result" }, el("h3", { class: "reading", title: `Read as: ${result.reading || ""}` },
    ...datesKept(`${titleOf(result)} (${result.total.toLocaleString()} total)`)));
  if (result.chart) {
    const chart = el("div", { class: "chart", "data-mark": markOf(result.chart) });
    box.append(chart);
    const spec = { ...result.chart, title: undefined };  // the heading above says what it shows
    const drawing = { actions: false, renderer: "svg", theme: darkScheme.matches ? "dark" : undefined };
    vegaEmbed(chart, spec, drawing).catch((e) => chart.append(e.message));
  }
  box.append(new ResultTable(result).node);
  if (result.query) box.append(queryBox(result));
  return box;
}

// What a chart draws ("bar", "line"): a spec of one view per measure (vconcat) draws what its first view does.
function markOf(spec) {
  const view = (spec.vconcat || [spec])[0];
  return view.mark.type || view.mark;
}

// The search a result ran, as Kibana's Dev Tools console takes it (GET index/_search, then the body), to copy.
function queryBox(result) {
  const text = `GET ${catalogWords.index}/_search\n${JSON.stringify(result.query, null, 2)}`;
  const code = el("pre", { tabindex: "0", "aria-label": "the query" }, el("code", {}, text));
  const said = el("span", { class: "copied", role: "status" });
  const copy = el("button", { type: "button", class: "copy", onclick: () => copyText(text, code, said) }, "Copy");
  return el("details", { class: "query" }, el("summary", {}, `Query · ${rowsCount(result)}`), code, copy, said);
}

function rowsCount(result) {
  const rows = result.rows.length;
  const counted = `${rows.toLocaleString()} ${rows === 1 ? "row" : "rows"}`;
  return result.total > rows ? `${counted} of ${result.total.toLocaleString()} records` : counted;
}

// The clipboard needs a secure page (https or loopback); elsewhere the text is selected for Ctrl+C.
async function copyText(text, code, said) {
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = "Copied";
  } catch {
    window.getSelection().selectAllChildren(code);
    said.textContent = "Selected: press Ctrl+C (⌘C on a Mac) to copy";
  }
}

// A result's title: its reading, with a capital ("Total volume (TEU) · by carrier · …"); without one, its question
// cut to a line.
function titleOf(result) {
  if (result.reading) return result.reading[0].toUpperCase() + result.reading.slice(1);
  const title = result.title || "";
  return title.length > 90 ? `${title.slice(0, 88).trimEnd()}…` : title;
}

// Where the records are (`index`), for the query shown under a result.
const catalogWords = { index: "<index>" };

async function loadCatalogWords() {
  const catalog = await (await api("/catalog")).json();
  catalogWords.index = catalog.objects[catalog.record].index;
}

// A column's heading as the server words it ("carrier", "month"); an answer stored before headings were words is
// headed by its columns' names.
function heading(result, column) {
  return (result.labels || [])[column] || result.columns[column];
}

// The export formats the server writes (GET /exports): no XLSX button on an install without its writer.
const exportFormats = new Set(["csv"]);

async function loadExportFormats() {
  for (const format of (await (await api("/exports")).json()).formats) exportFormats.add(format);
}

// A table that sorts by a clicked column, pages long record lists and downloads as CSV. A record list with more
// records than its answer shows pages through the server (POST /records) and downloads all of them: the first page
// past the answer's rows by offset, each later one from the cursor the page before gave (kept per page, for going
// back), so a deep page costs the server what the first does.
class ResultTable {
  constructor(result) {
    this.result = result;
    this.rows = result.rows.slice();
    this.remote = isListing(result) && result.total > result.rows.length;
    this.pageRows = null;  // the rows of the page read from the server, when remote and past the first
    this.cursors = {};  // page number → the cursor that reads it from the server
    this.page = 0;
    this.sort = { column: -1, ascending: true };
    this.node = el("div", { class: "table" });
    this.draw();
  }

  draw() {
    const count = this.remote ? this.result.total : this.rows.length;
    const pages = Math.max(1, Math.ceil(count / PAGE_ROWS));
    const shown = this.pageRows || this.rows.slice(this.page * PAGE_ROWS, (this.page + 1) * PAGE_ROWS);
    const head = el("tr", {}, ...this.result.columns.map((_, i) => el("th", {
      "aria-sort": i === this.sort.column ? (this.sort.ascending ? "ascending" : "descending") : null,
      tabindex: 0, scope: "col", onclick: () => this.sortBy(i),
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.sortBy(i); } },
    }, heading(this.result, i))));
    const body = shown.map((row) => el("tr", {}, ...row.map((cell) =>
      el("td", { class: cellClass(cell) }, this.cell(cell)))));
    const pager = el("div", { class: "pager" });
    if (pages > 1) {
      pager.append(el("button", { type: "button", onclick: () => this.go(-1) }, "‹ previous"),
                   el("span", {}, `page ${this.page + 1} of ${pages} `),
                   el("button", { type: "button", onclick: () => this.go(1) }, "next ›"));
    }
    pager.append(el("button", { type: "button", class: "csv", onclick: () => this.download() },
      this.remote ? `download all ${this.result.total.toLocaleString()} as CSV` : "download CSV"));
    if (exportFormats.has("xlsx")) {
      const book = el("button", { type: "button", class: "xlsx", onclick: () => this.downloadBook() }, "download XLSX");
      pager.append(book);
    }
    const table = el("table", {}, el("thead", {}, head), el("tbody", {}, ...body));
    this.node.replaceChildren(scrollBox(table), pager);
  }

  async download() {
    const name = `${slug(this.result.title)}.csv`;
    if (!this.remote) return save(new Blob([this.csvText()], { type: "text/csv" }), name);
    const response = await api("/records.csv", { method: "POST", body: JSON.stringify({ query: this.result.query }) });
    const capped = response.headers.get("X-Bosun-Capped");
    if (capped) this.node.append(el("p", { class: "pager" }, `The CSV holds the first ${capped} records (the export cap).`));
    save(await response.blob(), name);
  }

  // A period in words as the server names it ("January 2025"); the row keeps its ISO day for sorting and the CSV.
  // The same rows as the CSV in one XLSX sheet, written by the server: every record of a long listing (capped as
  // the CSV is), else the table's own rows. A server without the writer says how to add it, under the table.
  async downloadBook() {
    const [path, body] = this.remote ? ["/records.xlsx", { query: this.result.query }]
      : ["/table.xlsx", { columns: this.result.columns, rows: this.rows }];
    try {
      const response = await api(path, { method: "POST", body: JSON.stringify(body) });
      const capped = response.headers.get("X-Bosun-Capped");
      if (capped) this.node.append(el("p", { class: "pager" }, `The XLSX holds the first ${capped} records (the export cap).`));
      save(await response.blob(), `${slug(this.result.title)}.xlsx`);
    } catch (error) {
      this.node.append(el("p", { class: "pager", role: "alert" }, error.message));
    }
  }

  cell(value) {
    const named = typeof value === "string" ? (this.result.period_names || {})[value] : undefined;
    return named === undefined ? formatCell(value) : named;
  }

  sortBy(column) {
    this.sort = { column, ascending: this.sort.column === column ? !this.sort.ascending : true };
    const sign = this.sort.ascending ? 1 : -1;
    this.rows.sort((a, b) => sign * compare(a[column], b[column]));
    this.page = 0;
    this.pageRows = null;
    this.draw();
  }

  async go(step) {
    const count = this.remote ? this.result.total : this.rows.length;
    const last = Math.ceil(count / PAGE_ROWS) - 1;
    this.page = Math.min(last, Math.max(0, this.page + step));
    this.pageRows = null;
    if (this.remote && this.page * PAGE_ROWS >= this.rows.length) {
      const cursor = this.cursors[this.page];
      const from = cursor ? { cursor } : { offset: this.page * PAGE_ROWS };
      const asked = { query: this.result.query, columns: this.result.columns, limit: PAGE_ROWS, ...from };
      const read = await (await api("/records", { method: "POST", body: JSON.stringify(asked) })).json();
      this.pageRows = read.rows;
      if (read.cursor) this.cursors[this.page + 1] = read.cursor;
    }
    this.draw();
  }

  // The table as the server writes a CSV: a text a spreadsheet would run (=, +, -, @, a tab or a CR first) gets a
  // leading ' (OWASP's rule against CSV injection; a number stays a number), and lines end in CRLF.
  csvText() {
    const inert = (v) => (typeof v === "string" && /^[=+\-@\t\r]/.test(v) && !NUMBER_TEXT.test(v) ? `'${v}` : v);
    const quote = (v) => {
      const text = v === null || v === undefined ? "" : String(inert(v));
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    const lines = [this.result.columns, ...this.rows].map((row) => row.map(quote).join(","));
    return lines.join("\r\n") + "\r\n";
  }
}

// A text that is a plain number ("-5", "+1.5e3"): a spreadsheet reads it as the number, nothing to escape.
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// Numbers right-aligned on one line; a date never broken after one of its hyphens.
function cellClass(value) {
  if (typeof value === "number") return "num";
  return typeof value === "string" && ISO_DAY.test(value) ? "keep" : null;
}

// A table in a box that scrolls sideways when the table is wider: the side with more to see is shaded, and a hint
// above says so, for as long as there is more.
function scrollBox(table) {
  const scroller = el("div", { class: "table-scroll" }, table);
  const hint = el("div", { class: "scroll-hint", "aria-hidden": "true" }, "scroll →");
  const box = el("div", { class: "table-box" }, hint, scroller);
  const mark = () => {
    const more = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
    box.dataset.more = more ? "right" : "";
  };
  scroller.addEventListener("scroll", mark, { passive: true });
  new ResizeObserver(mark).observe(scroller);
  return box;
}

function isListing(result) {
  const query = result.query || {};
  return !query.aggs && !query.aggregations && Array.isArray(query.sort);
}

function save(blob, name) {
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}

// Numbers one way everywhere, as the answer's text writes them: grouped thousands, at most two decimals
// (four significant digits below one), whole numbers without decimals.
function formatCell(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "number") return String(value);
  if (Math.abs(value) < 1 && value !== 0) return String(Number(value.toPrecision(4)));
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "result";

// ---- the live sub-goal DAG: rounds as columns, sub-goals as nodes coloured by status, InputRefs as edges ----

const SVG = "http://www.w3.org/2000/svg";
const NODE = { width: 210, height: 34, column: 250, row: 46 };

// The plan's state in words: "working: round 2", "answered in 3 rounds", "asked you a question", "failed: …".
function startPlan() {
  const nodes = new Map();
  const say = (words) => { $("#plan-status").textContent = words; };
  $("#plan").hidden = false;
  say("working…");
  const svg = $("#dag");
  svg.replaceChildren(svgEl("defs", {}, svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
    markerWidth: 6, markerHeight: 6, orient: "auto" }, svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#8a94a8" }))));
  const draw = () => drawDag(svg, nodes);
  return {
    event(kind, data) {
      if (kind === "dispatched") {
        nodes.set(data.sub_goal_id, { ...data, status: "running" });
      } else if (kind === "finished" && nodes.has(data.sub_goal_id)) {
        Object.assign(nodes.get(data.sub_goal_id), { status: data.status, duration_ms: data.duration_ms });
      } else if (kind === "round_started") {
        say(`working: round ${data.round}`);
      }
      draw();
    },
    answered(answer, failure) { say(planWords(answer, failure)); },
    failed(reason) { say(`failed: ${reason}`); },
  };
}

function planWords(answer, failure) {
  if (answer.status === "needs_clarification") return "asked you a question";
  if (answer.status !== "failed") return answeredIn(answer.trace.rounds);
  const reason = failure ? reasonWords(failure.error, failure.detail) : failedStep(answer);
  return `failed: ${reason}`;
}

function answeredIn(rounds) {
  if (rounds < 1) return "answered";
  return `answered in ${rounds} ${rounds === 1 ? "round" : "rounds"}`;
}

// Why a turn failed when the server said nothing more: the error of its last failed sub-goal.
function failedStep(answer) {
  const failed = answer.trace.sub_goals.filter((step) => step.status === "failed" && step.error);
  if (!failed.length) return "no answer";
  return failed[failed.length - 1].error.replace(/\.$/, "");
}

function hidePlan() {
  $("#plan").hidden = true;
  $("#plan-toggle").setAttribute("aria-expanded", "false");
  $("#dag").toggleAttribute("hidden", true);
}

// A sub-goal's state in words, under its title.
const STEP_WORDS = { pending: "waiting", running: "running", success: "done", partial: "needs your answer",
                     failed: "failed" };

function drawDag(svg, nodes) {
  const perRound = new Map();
  const place = new Map();
  for (const node of nodes.values()) {
    const slot = perRound.get(node.round) || 0;
    perRound.set(node.round, slot + 1);
    place.set(node.sub_goal_id, { x: 10 + (node.round - 1) * NODE.column, y: 10 + slot * NODE.row });
  }
  const width = 20 + Math.max(1, ...perRound.keys()) * NODE.column;
  const lane = 10 + Math.max(1, ...perRound.values()) * NODE.row;  // below every box: where long edges run
  const height = lane + 14;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.querySelectorAll(".node, .edge").forEach((n) => n.remove());
  for (const node of nodes.values()) {
    const to = place.get(node.sub_goal_id);
    for (const [slot, from] of Object.entries(node.inputs || {})) {
      const start = place.get(from);
      if (!start) continue;
      const edge = svgEl("path", { class: "edge", "data-slot": slot, d: edgePath(start, to, lane) });
      svg.append(edge);
    }
  }
  for (const node of nodes.values()) {
    const { x, y } = place.get(node.sub_goal_id);
    const took = node.duration_ms === null || node.duration_ms === undefined ? "" : ` ${Math.round(node.duration_ms)} ms`;
    const label = node.title || node.worker;
    svg.append(svgEl("g", { class: `node ${node.status}`, "data-sub-goal": node.sub_goal_id, "data-round": node.round },
      svgEl("title", {}, `sub-goal ${node.sub_goal_id}: ${node.worker}`),
      svgEl("rect", { x, y, width: NODE.width, height: NODE.height }),
      svgEl("text", { x: x + 6, y: y + 14 }, label),
      svgEl("text", { x: x + 6, y: y + 28 }, `${STEP_WORDS[node.status] || node.status}${took}`)));
  }
}

// An edge to the next round is a straight line; one that skips rounds runs below the boxes it would cross.
function edgePath(from, to, lane) {
  const [x1, y1] = [from.x + NODE.width, from.y + NODE.height / 2];
  const [x2, y2] = [to.x, to.y + NODE.height / 2];
  if (x2 - x1 <= NODE.column) return `M${x1},${y1} L${x2},${y2}`;
  const [out, back] = [x1 + (NODE.column - NODE.width) / 2, x2 - (NODE.column - NODE.width) / 2];
  return `M${x1},${y1} L${out},${y1} L${out},${lane} L${back},${lane} L${back},${y2} L${x2},${y2}`;
}

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

// ---- start ------------------------------------------------------------------------------------------------

$("#ask").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#question");
  const question = input.value;
  input.value = "";
  ask(question);
});
$("#new-thread").addEventListener("click", () => startFresh());
for (const button of document.querySelectorAll("#origins button")) {
  button.addEventListener("click", () => showOrigin(button.dataset.origin));
}
$("#skip").addEventListener("click", (event) => {
  event.preventDefault();  // a hash would read as a thread's address
  $("#question").focus();
});
$("#dismiss").addEventListener("click", () => hideBanner());
keepEndInView();
$("#drawer").addEventListener("click", () => toggleDrawer());
$("#drawer-close").addEventListener("click", () => { closeDrawer(); $("#drawer").focus(); });
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closeDrawer(); });
$("#plan-toggle").addEventListener("click", () => {
  const open = $("#plan-toggle").getAttribute("aria-expanded") !== "true";
  $("#plan-toggle").setAttribute("aria-expanded", String(open));
  $("#dag").toggleAttribute("hidden", !open);
});
window.addEventListener("popstate", () => {
  const fromUrl = threadFromUrl();
  if (fromUrl) openThread(fromUrl, false);
  else startFresh(false);
});

(async () => {
  const fromUrl = threadFromUrl();
  $("#question").focus();
  // headings fall back to the field names, exports to CSV
  await Promise.all([loadCatalogWords().catch(() => {}), loadExportFormats().catch(() => {})]);
  if (fromUrl) await openThread(fromUrl, false);
  else {
    state.thread = null;
    await Promise.all([listThreads(), showStart()]).catch((error) => unreachable(error, () => location.reload()));
  }
})();
