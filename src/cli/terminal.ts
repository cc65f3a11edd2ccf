// What reaches a maintainer's terminal from GitHub (issue titles, error messages) is text, never
// a command to the terminal: control characters (escape sequences, carriage returns, bells) are
// shown as visible `\x1b`-style escapes, and a secret is never printed.

// C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** `s` without any of `secrets` (a token an error message repeats), nor credentials in URLs. */
export function redactSecrets(s: string, secrets: string[]): string {
  let out = s;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("***");
  return out.replace(/\/\/[^/@\s]+:[^/@\s]*@/g, "//***:***@");
}

/** JSON for a terminal: the controls JSON.stringify leaves raw (DEL, C1, bidi) as `\u` escapes. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
