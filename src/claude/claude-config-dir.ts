import path from "node:path";
import { envGet } from "../discovery/platform-env.js";

/**
 * `CLAUDE_CONFIG_DIR` made absolute against the process's current directory when `env` gives a relative one, to
 * set on top of `env` for a child: Claude Code resolves it against its working directory, the repository, which
 * could then supply the user's settings (hooks, MCP servers, permissions). Empty when it is unset or absolute.
 */
export function absoluteConfigDir(env: NodeJS.ProcessEnv): { CLAUDE_CONFIG_DIR?: string } {
  const dir = envGet(env, "CLAUDE_CONFIG_DIR", process.platform);
  return dir === undefined || path.isAbsolute(dir) ? {} : { CLAUDE_CONFIG_DIR: path.resolve(dir) };
}
