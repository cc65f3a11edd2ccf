// Which build of the bot a scan's state comes from: its version and the data its answers are
// made of. A state from another build is not trusted for the "nothing changed" shortcut.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../data/data-dir.js";
import { digest } from "./state.js";

export function toolDigest(): string {
  const read = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "";
    }
  };
  const version = (JSON.parse(read(join(dataDir, "..", "package.json")) || "{}") as { version?: string }).version ?? "";
  return digest([version, read(join(dataDir, "catalog.yml")), read(join(dataDir, "gated.json"))].join("\u0000"));
}
