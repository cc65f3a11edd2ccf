// A server process from spawn to its first /ping answer, and its resident memory then.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { projectRoot } from "../test/support/root.js";
import { throwawayKey } from "../test/support/scenario.js";

const root = projectRoot(import.meta.url);
const round = (n: number, d: number) => Number(n.toFixed(d));

/** A server process as the bench starts one (the app or the bare baseline): a throwaway key, no index. */
export function spawnServer(argv: string[], port: number, env: Record<string, string> = {}) {
  return spawn(process.execPath, argv, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      APP_ID: "1",
      PRIVATE_KEY: throwawayKey(),
      WEBHOOK_SECRET: "bench",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "fatal",
      CRATES_INDEX_URL: "off",
      ...env,
    },
    stdio: "ignore",
  });
}

export async function coldStart(argv: string[]): Promise<{ startMs: number; rssMiB: number | null }> {
  const port = 39000 + Math.floor(Math.random() * 2000);
  const t = performance.now();
  const proc = spawnServer(argv, port);
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/ping`)).ok) break;
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
      if (performance.now() - t > 20000) throw new Error(`${argv.join(" ")} did not start`);
    }
    const startMs = performance.now() - t;
    let rssMiB: number | null = null;
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1]);
      rssMiB = round(kb / 1024, 1);
    } catch {
      rssMiB = null;
    }
    return { startMs: round(startMs, 0), rssMiB };
  } finally {
    proc.kill("SIGTERM");
  }
}
