// Writes schema.json and the README's configuration table from src/config/config-defaults.ts (built
// into lib/ first). See src/config/config-docs.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { schemaJson, withTable } from "../lib/config/config-docs.js";

writeFileSync("schema.json", schemaJson());
writeFileSync("README.md", withTable(readFileSync("README.md", "utf8")));
