import { describe, expect, it } from "@jest/globals";
import { fdWriter } from "../../src/cli/output.js";

const errno = (code: string) => Object.assign(new Error(code), { code });

/** A descriptor that takes at most `chunk` bytes a call and fails with `failAt`'s error on that call. */
function target(opts: { chunk?: number; failAt?: { call: number; code: string } } = {}) {
  const fd: number[] = [];
  const streamed: number[] = [];
  let calls = 0;
  return {
    fd,
    streamed,
    writer: fdWriter({
      fd: 1,
      writeSync: (_fd, buf) => {
        calls++;
        if (opts.failAt && calls === opts.failAt.call) throw errno(opts.failAt.code);
        const n = Math.min(buf.length, opts.chunk ?? buf.length);
        fd.push(...buf.subarray(0, n));
        return n;
      },
      stream: () => ({ write: (buf) => streamed.push(...buf) }),
    }),
  };
}
const text = (bytes: number[]) => Buffer.from(bytes).toString("utf8");

describe("fdWriter", () => {
  it("writes through the descriptor, whole, across partial writes (multi-byte characters included)", () => {
    const t = target({ chunk: 3 });
    t.writer("héllo → ");
    t.writer("world\n");
    expect(text(t.fd)).toBe("héllo → world\n");
    expect(t.streamed).toEqual([]);
  });

  it("hands the rest and everything after to the stream when the descriptor would block, in order", () => {
    const t = target({ chunk: 4, failAt: { call: 2, code: "EAGAIN" } });
    t.writer("abcdefgh");
    t.writer("ij");
    expect(text(t.fd)).toBe("abcd");
    expect(text(t.streamed)).toBe("efghij");
  });

  it("stops quietly when the reader went away", () => {
    const t = target({ failAt: { call: 2, code: "EPIPE" } });
    t.writer("one\n");
    t.writer("two\n");
    t.writer("three\n");
    expect(text(t.fd)).toBe("one\n");
    expect(t.streamed).toEqual([]);
  });

  it("throws any other error", () => {
    const t = target({ failAt: { call: 1, code: "EBADF" } });
    expect(() => t.writer("x")).toThrow("EBADF");
  });
});
