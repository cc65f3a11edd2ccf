import { loadCatalog } from "../panics/catalog.js";
import { code } from "./escape.js";

export function commandMarker(commentId: number): string {
  return `<!-- burn-triage:command:${commentId} -->`;
}

function recognised(): string[] {
  const entries = loadCatalog().entries.map((e) => `- ${code(e.message)} (${code(e.crate)})`);
  return ["<details><summary>Messages I recognise</summary>", "", ...entries, "</details>", ""];
}

export function renderHelp(marker: string): string {
  return [
    marker,
    "### `/explain-panic`",
    "",
    "Write `/explain-panic` at the start of a line, optionally followed by (or above) the panic output. I look at that text first, then at the issue or pull-request description, and explain any burn autodiff panic I know, with a verified Cargo.toml fix when a missing feature causes it.",
    "",
    ...recognised(),
  ].join("\n");
}

export function renderNothingFound(marker: string): string {
  return [
    marker,
    "I found no burn panic I know in this comment or in the description above.",
    "",
    "Paste the full panic output (the `thread '…' panicked at …` line and the message under it) after `/explain-panic`.",
    "",
    ...recognised(),
  ].join("\n");
}
