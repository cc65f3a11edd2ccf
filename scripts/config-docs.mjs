// Writes schema.json and the README's configuration table from src/config-defaults.ts (built
// into lib/ first). See src/config-docs.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { schemaJson, withTable } from "../lib/config-docs.js";

writeFileSync("schema.json", schemaJson());
writeFileSync("README.md", withTable(readFileSync("README.md", "utf8")));
