// Bosun's page: threads, turns streamed as Server-Sent Events, answers with tables and charts, the live plan.
// Plain browser JavaScript, no build step; charts are the server's Vega-Lite specs drawn by vega-embed.
"use strict";

const PAGE_ROWS = 20;
const state = { thread: null, busy: false, deleting: null };
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

async function listThreads() {
  const threads = await (await api("/threads")).json();
  const list = $("#threads");
  const shown = threads.filter((t) => (t.title || t.thread_id === state.thread) && t.thread_id !== state.deleting);
  list.replaceChildren(...shown.map((t) => el("li", {
    "data-thread": t.thread_id, class: t.thread_id === state.thread ? "current" : null,
  }, el("button", { type: "button", class: "open", title: t.title || t.thread_id, onclick: () => openThread(t.thread_id) },
        t.title || "(new conversation)", el("small", {}, whenCreated(t.created))),
     el("span", { class: "thread-actions" },
        el("button", { type: "button", class: "rename", "aria-label": `Rename “${t.title}”`,
                       onclick: () => renameThread(t) }, "rename"),
        el("button", { type: "button", class: "delete", "aria-label": `Delete “${t.title}”`,
                       onclick: () => deleteThread(t) }, "delete")))));
  hideBanner();
}

async function renameThread(thread) {
  const title = prompt("A new name for this conversation:", thread.title);
  if (!title || !title.trim()) return;
  await api(`/threads/${thread.thread_id}`, { method: "PATCH", body: JSON.stringify({ title: title.trim() }) })
    .catch(unreachable);
  await listThreads().catch(unreachable);
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
  showStart();
  listThreads().catch(unreachable);
}

async function openThread(threadId, push = true) {
  state.thread = threadId;
  if (push) history.pushState(null, "", `#thread=${threadId}`);
  closeDrawer();
  try {
    const response = await api(`/threads/${threadId}`);
    $("#conversation").replaceChildren();
    for (const turn of (await response.json()).turns) showTurn(turn.question).done(turn.answer);
    await showMarks(threadId).catch(() => {});  // marks.js: how each answer was marked
    showStart();
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

function toggleDrawer() {
  const open = !$("#sidebar").classList.contains("open");
  $("#sidebar").classList.toggle("open", open);
  $("#drawer").setAttribute("aria-expanded", String(open));
}

function closeDrawer() {
  $("#sidebar").classList.remove("open");
  $("#drawer").setAttribute("aria-expanded", "false");
}

// ---- a turn: stream its events, draw the plan, then show the answer ---------------------------------------

async function ask(question) {
  if (state.busy || !question.trim()) return;
  state.busy = true;
  $("#start").hidden = true;
  const view = showTurn(question);
  const dag = startPlan();
  try {
    if (!state.thread) await newThread();
    const response = await api(`/threads/${state.thread}/turns`, {
      method: "POST", headers: { Accept: "text/event-stream" }, body: JSON.stringify({ question }),
    });
    if (!response.ok) throw new Error((await response.json()).detail);
    await readEvents(response, (kind, data) => {
      if (kind === "answer") view.done(data);
      else if (kind === "error") { view.error(data.detail); dag.fail(data.detail); }
      else dag.event(kind, data);
    });
    dag.finish();
  } catch (error) {
    view.remove();
    dag.fail(error.message);
    $("#question").value = question;  // kept in the box, to ask again
    unreachable(error, () => { $("#question").value = ""; ask(question); });
  } finally {
    state.busy = false;
    listThreads().catch(() => {});
  }
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

function showTurn(question) {
  const box = el("div", { class: "turn" }, el("div", { class: "question" }, question));
  const pending = el("div", { class: "answer pending" }, "…");
  box.append(pending);
  $("#conversation").append(box);
  box.scrollIntoView({ block: "end" });
  return {
    done: (answer) => {
      pending.replaceWith(renderAnswer(answer));
      box.append(markControls(box));  // marks.js
      box.scrollIntoView({ block: "end" });
    },
    error: (message) => pending.replaceWith(el("div", { class: "answer error", role: "alert" }, message)),
    remove: () => { box.remove(); showStart(); },
  };
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
  return box;
}

function renderText(markdown) {
  // A little Markdown (paragraphs, line breaks, **bold**), built as text nodes: nothing is parsed as HTML.
  const box = el("div", { class: "text" });
  for (const paragraph of markdown.split(/\n{2,}/)) {
    const p = el("p");
    paragraph.split("\n").forEach((line, i) => {
      if (i) p.append(el("br"));
      line.split(/\*\*(.+?)\*\*/).forEach((part, j) => p.append(j % 2 ? el("strong", {}, part) : part));
    });
    box.append(p);
  }
  return box;
}

function renderResult(result) {
  // Titled by what was computed (its reading), not by the question, which stands once, just above.
  const box = el("div", { class: "result" }, el("h3", { class: "reading", title: `Read as: ${result.reading || ""}` },
    `${titleOf(result)} (${result.total.toLocaleString()} total)`));
  if (result.chart) {
    const chart = el("div", { class: "chart", "data-mark": result.chart.mark.type || result.chart.mark });
    box.append(chart);
    const spec = { ...result.chart, title: undefined };  // the heading above says what it shows
    vegaEmbed(chart, spec, { actions: false, renderer: "svg" }).catch((e) => chart.append(e.message));
  }
  box.append(new ResultTable(result).node);
  return box;
}

// A result's title: its reading, with a capital ("Total volume (TEU) · by carrier · …"); without one, its question
// cut to a line.
function titleOf(result) {
  if (result.reading) return result.reading[0].toUpperCase() + result.reading.slice(1);
  const title = result.title || "";
  return title.length > 90 ? `${title.slice(0, 88).trimEnd()}…` : title;
}

// Column headings in the catalog's words ("carrier_name" → "carrier"); measures are already labelled.
const catalogWords = { fields: {} };

async function loadCatalogWords() {
  const catalog = await (await api("/catalog")).json();
  const record = catalog.objects[catalog.record];
  for (const [name, field] of Object.entries(record.fields)) {
    catalogWords.fields[name] = field.synonyms[0] || name.replace(/_/g, " ");
  }
}

function heading(column) {
  return catalogWords.fields[column] || column.replace(/_/g, " ");
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
    const head = el("tr", {}, ...this.result.columns.map((name, i) => el("th", {
      "aria-sort": i === this.sort.column ? (this.sort.ascending ? "ascending" : "descending") : null,
      tabindex: 0, scope: "col", onclick: () => this.sortBy(i),
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.sortBy(i); } },
    }, heading(name))));
    const body = shown.map((row) => el("tr", {}, ...row.map((cell, i) =>
      el("td", { class: typeof cell === "number" ? "num" : null }, this.cell(cell)))));
    const pager = el("div", { class: "pager" });
    if (pages > 1) {
      pager.append(el("button", { type: "button", onclick: () => this.go(-1) }, "‹ previous"),
                   el("span", {}, `page ${this.page + 1} of ${pages} `),
                   el("button", { type: "button", onclick: () => this.go(1) }, "next ›"));
    }
    pager.append(el("button", { type: "button", class: "csv", onclick: () => this.download() },
      this.remote ? `download all ${this.result.total.toLocaleString()} as CSV` : "download CSV"),
    el("button", { type: "button", class: "xlsx", onclick: () => this.downloadBook() }, "download XLSX"));
    this.node.replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)), pager);
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

function startPlan() {
  const nodes = new Map();
  $("#plan").hidden = false;
  $("#plan-status").textContent = "running";
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
      } else if (kind === "round_started" || kind === "done") {
        $("#plan-status").textContent = kind === "done" ? data.status : `round ${data.round}`;
      }
      draw();
    },
    finish() { $("#plan-status").textContent += " · finished"; },
    fail(reason) { $("#plan-status").textContent = `failed: ${reason}`; },
  };
}

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
      svgEl("text", { x: x + 6, y: y + 28 }, `${node.status}${took}`)));
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
  await loadCatalogWords().catch(() => {});  // headings fall back to the field names
  if (fromUrl) await openThread(fromUrl, false);
  else {
    state.thread = null;
    await Promise.all([listThreads(), showStart()]).catch((error) => unreachable(error, () => location.reload()));
  }
})();
