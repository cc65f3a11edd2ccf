// Where the Redis URL lives, without loading the Redis client: the server reads this at start and
// loads ioredis (src/github/redis.ts) only when a URL is set.
/**
 * REDIS_URL is burn-triage's alone. Probot hands REDIS_URL to its rate-limit throttling
 * (Bottleneck's Redis clustering), which has no fallback and no command deadline: with Redis
 * down, frozen or read-only, every GitHub call would wait on it. So the entry points move it
 * aside before Probot reads the environment; throttling stays in process.
 */
export function reserveRedisUrl(env: NodeJS.ProcessEnv = process.env): void {
  if (env.REDIS_URL) {
    env.BURN_TRIAGE_REDIS_URL = env.REDIS_URL;
    delete env.REDIS_URL;
  }
}

export function redisUrlOf(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.BURN_TRIAGE_REDIS_URL || env.REDIS_URL || undefined;
}
