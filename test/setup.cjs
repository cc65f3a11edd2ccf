// nock 15 on Node 20: Promise.withResolvers is missing, and a refused request can leave a stale
// OpenSSL error that breaks the next JWT signing unless one key is parsed first.
if (typeof Promise.withResolvers !== "function") {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
// A delivery that fails in one test must not be retried 30 s later inside another test file
// (same worker, other nock interceptors). The retries are tested against the real server.
process.env.BURN_TRIAGE_RETRY_DELAYS_MS = "off";
// CI has no internet: crates.io is faked per test (nock or a local server) or switched off here.
process.env.CRATES_INDEX_URL = "off";
const crypto = require("node:crypto");
const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = privateKey.export({ type: "pkcs1", format: "pem" });
// The parse that meets a stale error throws it, and in doing so clears it; the next one succeeds.
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    crypto.createPrivateKey(pem);
    break;
  } catch {
    // consumed
  }
}
