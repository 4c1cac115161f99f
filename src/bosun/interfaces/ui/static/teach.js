// Teaching words on the page (issue #25): a button next to each word an answer did not understand offers the
// catalog's closest entries (GET /vocabulary/candidates) or a meaning typed in; a pick made twice is offered as
// an alias to remember. Both POST /vocabulary; a word that would shadow a known one asks again before teaching.
"use strict";

function renderNotUnderstood(words) {
  const line = el("div", { class: "not-understood" }, "Not understood, so not used: ");
  words.forEach((word, i) => {
    if (i) line.append(", ");
    line.append(el("span", { class: "unread" }, word), " ",
                el("button", { type: "button", class: "teach", "aria-label": `Teach “${word}”`,
                               onclick: (event) => openTeaching(event.target.closest(".not-understood"), word) },
                   "teach…"));
  });
  return line;
}

async function openTeaching(line, word) {
  line.querySelector(".teach-form")?.remove();
  const response = await api(`/vocabulary/candidates?word=${encodeURIComponent(word)}`);
  const candidates = await response.json();
  const choice = el("select", { "aria-label": `What “${word}” means` },
                    ...candidates.map((c, i) => el("option", { value: String(i) }, meaningOf(c))),
                    el("option", { value: "typed" }, "something else (type it)"));
  const typed = el("input", { type: "text", placeholder: "what it means", "aria-label": `“${word}” means` });
  const said = el("p", { class: "teach-said", role: "status" });
  const form = el("form", { class: "teach-form" }, `“${word}” means `, choice, typed,
                  el("button", { type: "submit" }, "Teach"), said);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = candidates[Number(choice.value)];
    const body = typed.value.trim() || choice.value === "typed"
      ? { word, means: typed.value.trim() }
      : { word, kind: picked.kind, target: picked.target, of: picked.of };
    teach(body, said);
  });
  line.append(form);
  choice.focus();
}

function meaningOf(taught) {
  if (taught.kind === "value") return `${taught.of} ${[taught.target, ...(taught.more || [])].join(" or ")}`;
  if (taught.kind === "alias") return `${taught.of} ${taught.target}`;
  return `${taught.kind} ${taught.target.replaceAll("_", " ")}`;
}

async function teach(body, said) {
  said.replaceChildren();
  try {
    const taught = await (await api("/vocabulary", { method: "POST", body: JSON.stringify(body) })).json();
    said.append(`Taught: “${taught.word}” means ${meaningOf(taught)}. Ask again to use it.`);
  } catch (error) {
    said.setAttribute("role", "alert");
    said.append(error.message);
    if (error.status === 409) {
      said.append(" ", el("button", { type: "button", class: "teach-anyway",
                                      onclick: () => teach({ ...body, confirm: true }, said) }, "Teach anyway"));
    }
  }
}

function renderRemember(offers) {
  const box = el("div", { class: "remember" });
  for (const offer of offers) {
    const said = el("p", { class: "teach-said", role: "status" });
    const body = { word: offer.word, kind: offer.kind, target: offer.target, of: offer.of, confirm: true };
    box.append(el("button", { type: "button", onclick: () => teach(body, said) },
                  `Remember that “${offer.word}” means ${offer.target}`), said);
  }
  return box;
}
