// Writes answer.schema.json from src/answer/answer-schema.ts (built into lib/ first). See
// src/answer/answer-published.ts.
import { writeFileSync } from "node:fs";
import { answerSchemaJson } from "../lib/answer/answer-published.js";

writeFileSync("answer.schema.json", answerSchemaJson());
