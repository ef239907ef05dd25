import { createRequire } from "node:module";
import type picocolors from "picocolors";

/** Terminal colour functions (picocolors'); each returns its input unchanged when colours are off. */
export type Colors = ReturnType<typeof picocolors.createColors>;

const requirePackage = createRequire(import.meta.url);

/**
 * picocolors' colours, on or off. The package (CommonJS) is required on the first call, when a report is
 * formatted, so modules that export a formatter do not load it with themselves.
 */
export function createColors(enabled: boolean): Colors {
  return (requirePackage("picocolors") as typeof picocolors).createColors(enabled);
}
