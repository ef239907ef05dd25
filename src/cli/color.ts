export { createColors, type Colors } from "../colors.js";

/**
 * Whether to colour stderr: only on a terminal, never with `--no-color`, never when `NO_COLOR` is set to a
 * non-empty value (https://no-color.org). Pure.
 */
export function shouldUseColor(options: { isTTY: boolean; env: NodeJS.ProcessEnv; flag: boolean }): boolean {
  if (!options.flag || !options.isTTY) return false;
  const noColor = options.env.NO_COLOR;
  return noColor === undefined || noColor === "";
}
