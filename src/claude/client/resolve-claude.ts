/**
 * Which `claude` a session starts, until discovery takes this over: the client's explicit path, else
 * `RENNET_CLAUDE_BIN`, else `claude` on the child environment's `PATH`. One small function, so that the rule can
 * be replaced as a whole.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { RennetError } from "../../errors.js";

/** No `claude` could be found (or the one named is not an executable file). */
export class ClaudeUnavailableError extends RennetError<"CLAUDE_UNAVAILABLE"> {
  override readonly name = "ClaudeUnavailableError";
}

const INSTALL_HINT =
  "install Claude Code (`npm i -g @anthropic-ai/claude-code`, or Anthropic's native installer), or pass " +
  'createClaudeCode({ claude: "/path/to/claude" }) or set RENNET_CLAUDE_BIN';

/** The executable to start, as an absolute path; throws {@link ClaudeUnavailableError} naming the fix. */
export function resolveClaudeExecutable(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit !== undefined) return checked(path.resolve(explicit), "the claude option");
  const fromEnv = env.RENNET_CLAUDE_BIN;
  if (fromEnv !== undefined && fromEnv.trim() !== "")
    return checked(path.resolve(fromEnv), "RENNET_CLAUDE_BIN");
  const names = process.platform === "win32" ? ["claude.exe"] : ["claude"];
  for (const dir of (env.PATH ?? env.Path ?? "").split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (isExecutableFile(file)) return file;
    }
  }
  throw new ClaudeUnavailableError("CLAUDE_UNAVAILABLE", `no claude on PATH: ${INSTALL_HINT}`);
}

function checked(file: string, source: string): string {
  if (isExecutableFile(file)) return file;
  throw new ClaudeUnavailableError(
    "CLAUDE_UNAVAILABLE",
    `${source} names ${file}, which is not an executable file: ${INSTALL_HINT}`,
  );
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
