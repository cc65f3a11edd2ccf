// The page's shell: reads the form, asks answer.ts, shows the comment as HTML with a copy button
// on each diff, keeps the input in the link. Everything it fetches comes from its own origin.
import { commentHtml, pageAnswer, warmUp } from "./answer.js";
import { type BaseData, fetchJson, PageData } from "./page-data.js";
import { decodeShared, encodeShared } from "./share.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const form = $<HTMLFormElement>("form");
const output = $<HTMLTextAreaElement>("output");
const manifest = $<HTMLTextAreaElement>("manifest");
const manifestFile = $<HTMLInputElement>("manifest-file");
const submit = $<HTMLButtonElement>("explain");
const status = $<HTMLParagraphElement>("status");
const answer = $<HTMLElement>("answer");
const whyBox = $<HTMLElement>("why");
const share = $<HTMLInputElement>("share");

let data: PageData | undefined;

/** A copy button after each diff the comment shows. */
function addCopyButtons(root: HTMLElement): void {
  for (const code of root.querySelectorAll<HTMLElement>("pre > code.language-diff")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy the diff";
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(code.textContent ?? "");
      button.textContent = "Copied";
    });
    code.parentElement!.after(button);
  }
}

async function explain(): Promise<void> {
  if (!data) return;
  const started = performance.now();
  const result = await pageAnswer(data, output.value, manifest.value);
  const comment = result.explain.comment;
  answer.innerHTML = comment === null ? "" : commentHtml(comment);
  answer.hidden = comment === null;
  answer.parentElement!.hidden = comment === null;
  addCopyButtons(answer);
  whyBox.innerHTML = result.why === null ? "" : commentHtml(result.why);
  whyBox.hidden = result.why === null;
  whyBox.parentElement!.hidden = result.why === null;
  const ms = performance.now() - started;
  document.body.dataset.answerMs = ms.toFixed(1);
  const fetched = result.fetched.length ? `; fetched the index lines of burn ${result.fetched.join(", ")}` : "";
  status.textContent = `${comment === null ? "No known burn panic or feature error found in this text." : "The bot's answer is below."} Data: ${data.base.label}${fetched}. Nothing left this page.`;
  const link = await encodeShared({ output: output.value, manifest: manifest.value });
  history.replaceState(null, "", link);
  share.value = location.href;
  share.parentElement!.hidden = false;
  document.body.dataset.answered = String(Number(document.body.dataset.answered ?? 0) + 1);
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  explain().catch((err: unknown) => {
    status.textContent = `Something went wrong: ${String(err)}`;
  });
});

manifestFile.addEventListener("change", async () => {
  const file = manifestFile.files?.[0];
  if (file) manifest.value = await file.text();
});
for (const box of [manifest, output])
  box.addEventListener("drop", async (e) => {
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    e.preventDefault();
    box.value = await file.text();
  });

$<HTMLButtonElement>("copy-link").addEventListener("click", () => navigator.clipboard.writeText(share.value));

async function start(): Promise<void> {
  const base = await fetchJson<BaseData>("data/base.json");
  data = new PageData(base);
  submit.disabled = false;
  status.textContent = `Ready. Data: ${base.label}.`;
  document.body.dataset.ready = String(performance.now());
  const shared = await decodeShared(location.hash);
  if (shared) {
    output.value = shared.output;
    manifest.value = shared.manifest;
    await explain();
  } else {
    await warmUp(data);
  }
  document.body.dataset.warm = String(performance.now());
}

start().catch((err: unknown) => {
  status.textContent = `The page's data did not load: ${String(err)}`;
});
