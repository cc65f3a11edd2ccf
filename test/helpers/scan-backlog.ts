// The built CLI's `scan` against the fake GitHub holding a backlog, as a maintainer runs it: each
// test gets a fresh fake and a fresh cache folder (the scan's state lives there). The runner
// itself is test/support/scan-cli.ts (the scan bench uses it too).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "@jest/globals";
import { startFakeGitHub } from "../support/fake-github.js";
import { answeredByTheApp, type Backlog, runScan, SCAN_CLI, SCAN_REPO } from "../support/scan-cli.js";
import { backlog, openBacklog } from "../support/scenario.js";

export { answeredByTheApp, type Backlog, runScan, SCAN_CLI, SCAN_REPO };

/**
 * A fresh backlog of `size` issues for each test of the file; `open`: every one an open issue
 * (no pull request, none closed), as a backlog of that many issues to answer.
 */
export function withBacklog(size: number, shape: { open?: boolean } = {}): Backlog {
  const b = {} as Backlog;
  beforeEach(async () => {
    const made = shape.open ? openBacklog(size) : backlog(size);
    b.answered = made.answered;
    b.fake = await startFakeGitHub({ issues: made.issues });
    b.cache = mkdtempSync(join(tmpdir(), "burn-triage-scan-"));
  });
  afterEach(async () => {
    await b.fake.close();
    rmSync(b.cache, { recursive: true, force: true });
  });
  return b;
}
