// `/explain-panic` in a comment: found only at the start of a line, outside fenced code and
// block quotes, so pasted logs or quoted replies that mention it do not trigger it.
export interface Command {
  args: string;
  help: boolean;
  /** The comment without the command line: pasted logs to analyse first. */
  rest: string;
}

export function parseCommand(body: string): Command | null {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null || /^ {0,3}>/.test(line)) continue;
    const m = /^ {0,3}\/explain-panic(?=\s|$)(.*)$/.exec(line);
    if (!m) continue;
    const args = m[1]!.trim();
    return { args, help: /^help\b/i.test(args), rest: [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n") };
  }
  return null;
}
