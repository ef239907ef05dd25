/**
 * A flag's value passed through the library's own check of the matching call option, so that what the library
 * would refuse is a usage error (exit 2) before the command starts anything, worded for the flag.
 */
import { checkCwd } from "../call/turn-inputs.js";
import { isRennetError } from "../errors.js";
import type { CliHarnessWords } from "./turn-option-specs.js";
import { UsageError } from "./usage-error.js";

/**
 * The flag's value as `check` (a library's check of the call option) returns it, undefined when the flag was
 * not given; a `RennetError` it throws becomes a usage error `--flag: <its message>` (`cwd x: …` reads
 * `--cwd x: …`) naming `command`'s help.
 */
export function flagValue<V, T>(
  value: V | undefined,
  flag: string,
  check: (value: V) => T,
  command: string,
): T | undefined {
  if (value === undefined) return undefined;
  try {
    return check(value);
  } catch (error) {
    if (!isRennetError(error)) throw error;
    const message = error.message.startsWith("cwd ") ? `--${error.message}` : `--${flag}: ${error.message}`;
    throw new UsageError(message, command);
  }
}

/**
 * `--cwd` as an absolute path (relative to `baseCwd`), checked like a call's `cwd` to be an existing directory
 * (`words.agent` names the harness); `baseCwd` when the flag was not given. Throws {@link UsageError}
 * (`--cwd x: no such directory; …`) naming `command`'s help. An empty value is the caller's to word.
 */
export function cwdFlag(
  value: string | undefined,
  baseCwd: string,
  words: CliHarnessWords,
  command: string,
): string {
  return flagValue(value, "cwd", (dir) => checkCwd(dir, baseCwd, words.agent), command) ?? baseCwd;
}
