import { fileURLToPath } from "node:url";

/** The bundled data folder; src/ and lib/ both sit one level below it. */
export const dataDir = fileURLToPath(new URL("../data/", import.meta.url));
