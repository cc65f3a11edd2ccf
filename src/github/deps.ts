import type { Coordination } from "./coordination.js";
import type { IdentityOf } from "./identity.js";
import type { Redeliveries } from "./retry.js";

/** What every handler shares for the life of the process, built once by the wiring in index.ts. */
export interface Deps {
  coordination: () => Promise<Coordination>;
  identity: IdentityOf;
  redeliveries: () => Promise<Redeliveries>;
}
