// Who the bot is, so that it edits, deletes and reads state only from its own comments and
// reviews, never from another app's that happens to carry (or quote) its marker.
import type { Octokit } from "./types.js";

export interface Identity {
  /** The GitHub App's id (`performed_via_github_app.id` on its comments); null when unknown. */
  appId: number | null;
  /** `<slug>[bot]` for an app, the user's login for a personal token. */
  login: string;
  /**
   * An Action given an app's installation token (the workflow's own or another app's) cannot ask
   * which app it is (`GET /user` is refused, `GET /app` needs the app's JWT): it then owns the
   * marked comments any app wrote, never a person's.
   */
  anyApp?: boolean;
}

/** The workflow token of GitHub Actions writes as this app. */
export const ACTIONS_IDENTITY: Identity = { appId: 15368, login: "github-actions[bot]" };

export interface Authored {
  user?: { login?: string } | null;
  performed_via_github_app?: { id?: number } | null;
}

export function authoredBy(who: Identity, item: Authored & { user?: { type?: string } | null }): boolean {
  if (who.anyApp && (item.performed_via_github_app?.id !== undefined || item.user?.type === "Bot")) return true;
  if (who.appId !== null && item.performed_via_github_app?.id === who.appId) return true;
  return item.user?.login === who.login;
}

export type IdentityOf = (octokit: Octokit) => Promise<Identity>;

/**
 * `GET /app` once per process (an app JWT call; the installation's rate limit is not touched).
 * In a GitHub Action there is no app to ask: the token's user, or the Actions app.
 */
export function identityResolver(mode: "app" | "action"): IdentityOf {
  let cached: Promise<Identity> | undefined;
  const resolve = async (octokit: Octokit): Promise<Identity> => {
    if (mode === "action") {
      // A personal token: its login. An installation token: refused with 401/403, and any app's
      // marked comment is ours. Any other failure is asked again once, then fails the run rather
      // than guess (a wrong guess is a second comment).
      for (let attempt = 0; ; attempt++) {
        try {
          const { data } = await octokit.request("GET /user");
          return { appId: null, login: (data as { login: string }).login };
        } catch (e) {
          const status = (e as { status?: number }).status;
          if (status === 401 || status === 403) return { ...ACTIONS_IDENTITY, anyApp: true };
          if (attempt >= 1) throw e;
        }
      }
    }
    const { data } = await octokit.request("GET /app");
    const app = data as { id: number; slug: string };
    return { appId: app.id, login: `${app.slug}[bot]` };
  };
  return (octokit) => {
    cached ??= resolve(octokit).catch((e) => {
      cached = undefined; // a failed lookup is asked again by the next delivery
      throw e;
    });
    return cached;
  };
}
