import { lazyModule } from "../../load-module.js";
import type * as ProcessProbes from "./process-probes.js";

/** Loads {@link ProcessProbes} once per process, on the first probe or login shell that has to run. */
export const loadProcessProbes = lazyModule<typeof ProcessProbes>(
  new URL("./process-probes.js", import.meta.url),
  () => import("./process-probes.js"),
);
