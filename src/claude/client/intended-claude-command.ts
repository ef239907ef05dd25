import { absoluteCommand } from "../../discovery/command-path.js";
import { envGet } from "../../discovery/platform-env.js";

/**
 * The claude a session means to start, as failures raised before it is resolved name it: the explicit path, else
 * `RENNET_CLAUDE_BIN`, else `claude`; a relative path resolved against the process's current directory, as
 * resolution does (a bare name stays a name: which file it is, discovery decides).
 */
export function intendedClaudeCommand(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = explicit ?? envGet(env, "RENNET_CLAUDE_BIN", process.platform) ?? "claude";
  return absoluteCommand(given);
}
