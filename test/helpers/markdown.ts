// Parses Markdown as GitHub does (CommonMark + GFM) and lists everything in it that could
// ping, link, cross-reference or render HTML outside code: what user text must never produce.
import { expect } from "@jest/globals";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { visit } from "unist-util-visit";
import { ALLOWED_URL } from "../../src/util/links.js";

/** The HTML the bot itself writes: disclosure widgets, small print and its hidden marker. */
const OWN_HTML = /<\/?(?:details|summary|sub)>|<!-- burn-triage:[a-z0-9:-]+(?: \{[^<>]*\})? -->/g;
const MENTION = /(?:^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*/;
const REFERENCE = /(?:^|[^\w&])#\d|\bGH-\d|[\w.-]+\/[\w.-]+#\d/i;

export function activeMarkdown(md: string): string[] {
  const tree = fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const found: string[] = [];
  visit(tree as Nodes, (node) => {
    switch (node.type) {
      case "image":
      case "imageReference":
      case "linkReference":
      case "definition":
      case "footnoteReference":
      case "footnoteDefinition":
        found.push(`${node.type}`);
        break;
      case "link":
        if (!ALLOWED_URL.test(node.url)) found.push(`link to ${node.url}`);
        break;
      case "html":
        if (node.value.replace(OWN_HTML, "").includes("<")) found.push(`html ${node.value}`);
        break;
      case "text":
        if (MENTION.test(node.value)) found.push(`mention in ${JSON.stringify(node.value)}`);
        if (REFERENCE.test(node.value)) found.push(`reference in ${JSON.stringify(node.value)}`);
        break;
    }
  });
  return found;
}

export function expectInert(md: string): void {
  expect(activeMarkdown(md)).toEqual([]);
}
