import path from "node:path";
import { windowsEnvValue } from "./windows-env.js";

/**
 * `RENNET_STATE_DIR` as the state directory (probe cache, spawn registry), or undefined when unset or blank. Its
 * name has no case on Windows, as for a child. A relative value is resolved against the process's current
 * directory, so every reader in this process names the same directory whatever the working directory of a turn.
 */
export function stateDirOverride(env: NodeJS.ProcessEnv): string | undefined {
  const value =
    process.platform === "win32" ? windowsEnvValue(env, "RENNET_STATE_DIR") : env.RENNET_STATE_DIR;
  if (value === undefined || value.trim() === "") return undefined;
  return path.resolve(value);
}
