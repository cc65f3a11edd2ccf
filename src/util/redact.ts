// URLs from the environment (CRATES_INDEX_URL, REDIS_URL) may carry credentials; logs never do.
/** Where a URL may reach a log: without the credentials of `https://user:password@mirror/`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = u.username ? "***" : "";
      u.password = u.password ? "***" : "";
    }
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}
