// Serialises work per conversation inside one process, so concurrent deliveries for one issue
// (opened + edited in quick succession, or a redelivery) cannot both create a comment.
const tails = new Map<string, Promise<unknown>>();

export async function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
