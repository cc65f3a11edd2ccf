// @iarna/toml's types cover its index only; src/cargo/manifest/toml.ts imports the string parser itself.
declare module "@iarna/toml/parse-string.js" {
  import type { JsonMap } from "@iarna/toml";
  export default function parseString(toml: string): JsonMap;
}
