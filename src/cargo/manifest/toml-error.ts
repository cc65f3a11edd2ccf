/** Malformed or refused TOML, with the 1-based position cargo would report. */
export class TomlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${line}:${column}: ${message}`);
    this.name = "TomlError";
  }
}
