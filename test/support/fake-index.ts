// A stand-in for crates.io's sparse index, for tests and the bench (CI has no internet): every
// burn crate of the bundled snapshot, plus releases newer than it made the way burn publishes
// them — each crate's 0.22.0-pre.2 line re-versioned, burn crates required with `^` instead of
// `=`, and the feature changes the issue tracker reports (`burn`'s `autodiff` no longer names
// `burn-autodiff`; 0.23.0-pre.1 drops the `ndarray` and `tch` backends). These lines are test
// data, never shipped as knowledge.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type IndexLine, indexPath } from "../../src/cargo/index/index-file.js";
import { burnDependencies, snapshot } from "../../src/cargo/index/registry.js";

const BASE = "0.22.0-pre.2";

function burnCrates(): string[] {
  const reg = snapshot("tags");
  const names = new Set(["burn"]);
  for (let frontier = ["burn"]; frontier.length > 0; ) {
    frontier = [...new Set(frontier.flatMap((n) => burnDependencies(reg.versions(n), names)))];
    for (const c of frontier) names.add(c);
  }
  return [...names];
}

function release(line: IndexLine, version: string): IndexLine {
  const features = JSON.parse(JSON.stringify(line.features)) as Record<string, string[]>;
  const features2 = line.features2
    ? (JSON.parse(JSON.stringify(line.features2)) as Record<string, string[]>)
    : undefined;
  const deps = line.deps.map((d) => ((d.package ?? d.name).startsWith("burn") ? { ...d, req: `^${version}` } : d));
  const out: IndexLine = { ...line, vers: version, deps, features, ...(features2 ? { features2 } : {}) };
  const table = (name: string) =>
    Object.hasOwn(features, name) ? features : features2 && Object.hasOwn(features2, name) ? features2 : null;
  const drop = (name: string) => {
    delete features[name];
    if (features2) delete features2[name];
    for (const t of [features, features2 ?? {}])
      for (const k of Object.keys(t))
        t[k] = t[k]!.filter(
          (v) => v !== name && !v.startsWith(`${name}/`) && !v.startsWith(`${name}?/`) && v !== `dep:${name}`,
        );
  };
  if (line.name === "burn") {
    const t = table("autodiff");
    if (t) t.autodiff = t.autodiff!.filter((v) => v !== "burn-autodiff");
  }
  if (
    version.startsWith("0.23") &&
    (line.name === "burn" || line.name === "burn-dispatch" || line.name === "burn-core" || line.name === "burn-tensor")
  ) {
    drop("ndarray");
    drop("tch");
  }
  return out;
}

export const FAKE_RELEASES = ["0.22.1", "0.23.0-pre.1"];

/** Index files by crate name: the snapshot's lines and the fake newer releases. */
export function fakeIndexFiles(): Map<string, string> {
  const reg = snapshot("tags");
  const files = new Map<string, string>();
  for (const name of burnCrates()) {
    const lines = reg.versions(name);
    const base = lines.find((l) => l.vers === BASE);
    const all = base ? [...lines, ...FAKE_RELEASES.map((v) => release(base, v))] : lines;
    files.set(name, `${all.map((l) => JSON.stringify(l)).join("\n")}\n`);
  }
  return files;
}

export interface FakeIndex {
  url: string;
  /** Requests answered, with their status and body bytes. */
  requests: Array<{ path: string; status: number; bytes: number }>;
  close(): Promise<void>;
}

/** Serves the files at `/<sparse path>` with ETags and 304s, as index.crates.io does. */
export async function startFakeIndex(files = fakeIndexFiles()): Promise<FakeIndex> {
  const byPath = new Map([...files].map(([name, text]) => [`/${indexPath(name)}`, text]));
  const requests: FakeIndex["requests"] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const text = byPath.get(path);
    if (text === undefined) {
      requests.push({ path, status: 404, bytes: 0 });
      res.writeHead(404).end();
      return;
    }
    const etag = `"${text.length.toString(16)}"`;
    if (req.headers["if-none-match"] === etag) {
      requests.push({ path, status: 304, bytes: 0 });
      res.writeHead(304, { etag }).end();
      return;
    }
    requests.push({ path, status: 200, bytes: Buffer.byteLength(text) });
    res.writeHead(200, { etag, "content-type": "text/plain" }).end(text);
  });
  // A CDN keeps an idle connection longer than Node's 5 s: on a loaded machine a round of reads can
  // be parsed for longer than that, and the next GET met a socket the fake had just closed.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
