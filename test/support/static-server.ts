// A static file server on loopback for the web page (dist/web/), as GitHub Pages would serve it:
// files under one folder, nothing else. Used by the page's end-to-end test and its benchmark.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".png": "image/png",
};

export interface StaticServer {
  url: string;
  /** Every path asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function serveStatic(dir: string): Promise<StaticServer> {
  const requests: string[] = [];
  const root = normalize(dir) + sep;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(path);
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    try {
      if (!file.startsWith(root)) throw new Error("outside");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
