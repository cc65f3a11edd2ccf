import type { Coordination } from "../github/coordination.js";
import type { IdentityOf } from "../github/identity.js";
import type { Redeliveries } from "../github/retry.js";

/** What every handler shares for the life of the process, built once by the wiring in index.ts. */
export interface Deps {
  coordination: () => Promise<Coordination>;
  identity: IdentityOf;
  redeliveries: () => Promise<Redeliveries>;
}
