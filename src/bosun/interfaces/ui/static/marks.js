// Marking an answer right or wrong, with an optional correction: POST /threads/{id}/turns/{n}/mark.
// Loaded before app.js; uses its `api`, `el` and `state` when a button is pressed.
"use strict";

// The turns the server stored, numbered from 1 as it numbers them: a question that got no answer is not one.
function storedTurns() {
  return [...document.querySelectorAll("#conversation .turn[data-stored]")];
}

function turnNumber(turnBox) {
  return storedTurns().indexOf(turnBox) + 1;
}

function markControls(turnBox) {
  const said = el("span", { class: "verdict-said", role: "status" });
  const figure = el("input", { type: "number", step: "any", class: "verdict-figure", placeholder: "right figure",
                               "aria-label": "The right figure (optional)" });
  const note = el("input", { type: "text", class: "verdict-note", maxlength: "2000", placeholder: "what was wrong",
                             "aria-label": "What was wrong (optional)" });
  const form = el("form", { class: "verdict-form", hidden: "", onsubmit: (event) => { event.preventDefault(); send(false); } },
                  figure, note, el("button", { type: "submit" }, "Send"));
  const right = el("button", { type: "button", class: "verdict-right", "aria-pressed": "false", onclick: () => send(true) },
                   "✓ Right");
  const wrong = el("button", { type: "button", class: "verdict-wrong", "aria-pressed": "false",
                               onclick: () => { form.hidden = false; note.focus(); } }, "✗ Wrong");
  const box = el("div", { class: "verdict" }, right, wrong, form, said);

  async function send(isRight) {
    const body = { right: isRight, correction: isRight ? "" : note.value };
    if (!isRight && figure.value !== "") body.figure = Number(figure.value);
    try {
      const response = await api(`/threads/${state.thread}/turns/${turnNumber(turnBox)}/mark`,
                                 { method: "POST", body: JSON.stringify(body) });
      showMark(box, await response.json());
    } catch (error) {
      said.textContent = `Not marked: ${error.message}`;
    }
  }
  return box;
}

function showMark(box, mark) {
  box.querySelector(".verdict-right").setAttribute("aria-pressed", String(mark.right));
  box.querySelector(".verdict-wrong").setAttribute("aria-pressed", String(!mark.right));
  box.querySelector(".verdict-form").hidden = true;
  const figure = mark.figure === null ? "" : ` (should be ${mark.figure})`;
  box.querySelector(".verdict-said").textContent = `Marked ${mark.right ? "right" : "wrong"}${figure}`;
}

async function showMarks(threadId) {
  const turns = storedTurns();
  for (const mark of await (await api(`/threads/${threadId}/marks`)).json()) {
    const box = turns[mark.turn - 1] && turns[mark.turn - 1].querySelector(":scope > .verdict");
    if (box) showMark(box, mark);
  }
}
