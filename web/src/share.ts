// The link that carries the input: the pasted texts, deflated (CompressionStream 'deflate-raw',
// built into the browser) and base64url-encoded, in the URL's fragment, which the browser never
// sends to any server.

export interface Shared {
  output: string;
  manifest: string;
}

const PREFIX = "#v1=";

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s: string): Uint8Array {
  const binary = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function encodeShared(s: Shared): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify([s.output, s.manifest]));
  return PREFIX + base64url(await through(json, new CompressionStream("deflate-raw")));
}

/** The input a fragment carries; null for another fragment or one that does not decode. */
export async function decodeShared(hash: string): Promise<Shared | null> {
  if (!hash.startsWith(PREFIX)) return null;
  try {
    const bytes = await through(fromBase64url(hash.slice(PREFIX.length)), new DecompressionStream("deflate-raw"));
    const [output, manifest] = JSON.parse(new TextDecoder().decode(bytes)) as unknown[];
    return typeof output === "string" && typeof manifest === "string" ? { output, manifest } : null;
  } catch {
    return null;
  }
}
