import type picocolors from "picocolors";
import { requirePackage } from "./load-module.js";

/** Terminal colour functions (picocolors'); each returns its input unchanged when colours are off. */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * picocolors' colours, on or off. The package (CommonJS) is required on the first call, when a report is
 * formatted, so modules that export a formatter do not load it with themselves.
 */
export function createColors(enabled: boolean): Colors {
  return requirePackage<typeof picocolors>("picocolors").createColors(enabled);
}
