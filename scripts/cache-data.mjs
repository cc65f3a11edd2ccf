// Keeps data/catalog.yml as JSON in data/.cache/ (not committed), keyed by the YAML's digest:
// `npm run build` runs this so a CLI call or a cold start does not parse 230 KB of YAML.
// src/panics/catalog.ts reads the cache only when the digest matches.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";

const data = join(dirname(fileURLToPath(import.meta.url)), "..", "data");
const yaml = readFileSync(join(data, "catalog.yml"), "utf8");
const digest = createHash("sha1").update(yaml).digest("hex");
mkdirSync(join(data, ".cache"), { recursive: true });
writeFileSync(join(data, ".cache", "catalog.json"), JSON.stringify({ digest, catalog: load(yaml) }));
