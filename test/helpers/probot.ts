import { generateKeyPairSync } from "node:crypto";
import type { Probot } from "probot";
import app from "../../src/index.js";
import { offlineProbot } from "../support/scenario.js";
import { fixture } from "./fixtures.js";

export const privateKey = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

export function makeProbot(): Probot {
  const probot = offlineProbot({ privateKey });
  probot.load(app);
  return probot;
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are plain JSON fixtures
export function payload(name: string): any {
  return JSON.parse(fixture(`webhooks/${name}.json`));
}

export function b64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

export function contentsBody(path: string, text: string) {
  return {
    type: "file",
    encoding: "base64",
    size: Buffer.byteLength(text),
    name: path.split("/").at(-1),
    path,
    content: b64(text),
  };
}
