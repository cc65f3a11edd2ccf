// A crates.io sparse index that behaves like an attacker's or a broken mirror: per path, a body,
// a redirect, a 32 MiB file or a drip of bytes. Every request is recorded, so a test can assert
// what was (and was not) asked.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Answer = { body: string } | { redirect: string } | { bytes: number } | { dripMs: number; body: string };

export interface HostileIndex {
  url: string;
  paths: string[];
  close(): Promise<void>;
}

export async function startHostileIndex(answers: Record<string, Answer>): Promise<HostileIndex> {
  const paths: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    paths.push(path);
    const a = answers[path];
    if (!a) return void res.writeHead(404).end();
    if ("redirect" in a) return void res.writeHead(302, { location: a.redirect }).end();
    if ("bytes" in a) {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(1024 * 1024, 0x7b);
      let sent = 0;
      const pump = () => {
        while (sent < a.bytes) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => undefined);
      return pump();
    }
    if ("dripMs" in a) {
      res.writeHead(200, { "content-type": "text/plain" });
      let i = 0;
      const t = setInterval(() => {
        if (res.destroyed || i >= a.body.length) {
          clearInterval(t);
          timers.delete(t);
          return void res.end();
        }
        res.write(a.body[i++]!);
      }, a.dripMs);
      timers.add(t);
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One index line as cargo writes it. */
export function line(name: string, vers: string, features: Record<string, string[]>, deps: object[] = []): string {
  return JSON.stringify({ name, vers, deps, features, cksum: "0", yanked: false });
}

export function dep(name: string, req: string, extra: object = {}): object {
  return { name, req, features: [], optional: false, default_features: true, target: null, kind: "normal", ...extra };
}
