import { writeSync } from "node:fs";

/** What the writer needs of a file descriptor and of the stream behind it (injected in tests). */
export interface OutputTarget {
  fd: number;
  /** `fs.writeSync`: the bytes written, which may be fewer than given. */
  writeSync?: (fd: number, buf: Uint8Array) => number;
  stream: () => { write: (buf: Uint8Array) => unknown };
}

/**
 * Output written to the file descriptor: `process.stdout` builds a stream on first use, which cost
 * a CLI call about 4 ms of its 100. A descriptor that would block (a non-blocking pipe, full) hands
 * the rest, and everything after, to the stream, so the order holds. A reader that went away
 * (`| head`) ends the output, as it does for other Unix tools, instead of an EPIPE stack trace.
 */
export function fdWriter({ fd, writeSync: write = writeSync, stream }: OutputTarget): (s: string) => void {
  let fallback = false;
  let closed = false;
  return (s) => {
    if (closed) return;
    let buf: Uint8Array = Buffer.from(s);
    if (!fallback) {
      try {
        while (buf.length > 0) buf = buf.subarray(write(fd, buf));
        return;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EPIPE") {
          closed = true;
          return;
        }
        if (code !== "EAGAIN") throw e;
        fallback = true;
      }
    }
    stream().write(buf);
  };
}
