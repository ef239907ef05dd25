import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { checkModelUrl, invalidTestkitOption, withLoopbackNoProxy } from "./loopback-env.js";
import { createThrowAwayDir, removeThrowAwayDir } from "./throw-away-dir.js";

/** Options of {@link createClaudeHome}. */
export interface ClaudeHomeOptions {
  /** The Messages API base URL, e.g. the loopback server's `url` (`http://127.0.0.1:PORT`). */
  modelUrl: string;
  /** Sent as `x-api-key`; any text works against a loopback server. Default `rennet-loopback-key`. */
  apiKey?: string | undefined;
  /**
   * `CLAUDE_CODE_MAX_RETRIES`. Default 0: a provider error (401, 429, 5xx, 529) ends the turn in about a second,
   * where Claude Code's default of 10 retries takes about three minutes.
   */
  maxRetries?: number | undefined;
  /** Written as `~/.claude/settings.json` (the user's own settings), when given. */
  userSettings?: Record<string, unknown> | undefined;
  /** Where the temporary directory is created. Default `os.tmpdir()`. */
  parentDir?: string | undefined;
}

/** A throw-away HOME for Claude Code, and the environment that runs it offline against a loopback model. */
export interface ClaudeHome {
  /** The HOME: Claude writes `~/.claude.json` and `~/.claude/` here. */
  readonly dir: string;
  /** `CLAUDE_CODE_TMPDIR`: Claude's `claude-<uid>/` task files and `cc-socks/` socket go here, not to `/tmp`. */
  readonly tmpDir: string;
  /**
   * `base` (default `process.env`) without the variables that would send Claude elsewhere or sign it in otherwise
   * (every `ANTHROPIC_*` and `CLAUDE_CODE_*`, `CLAUDE_CONFIG_DIR`, `CLAUDECODE`), plus `HOME` (and `USERPROFILE`,
   * the `XDG_*` directories) inside `dir`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`,
   * `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` (no telemetry, update check or other side traffic),
   * `CLAUDE_CODE_MAX_RETRIES`, `CLAUDE_CODE_TMPDIR`, and `127.0.0.1`, `localhost` in `NO_PROXY`. `IS_SANDBOX` is
   * neither added nor removed: Claude Code refuses its bypass permission mode to root without `IS_SANDBOX=1`, and
   * only a test (or the user) may decide that its machine is a sandbox.
   */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Removes the directory. Idempotent; call it after the claude process has exited. */
  cleanup(): Promise<void>;
}

/** Variables of the base environment that would change where Claude Code sends requests or how it signs in. */
function isClaudeVariable(name: string): boolean {
  return (
    name.startsWith("ANTHROPIC_") ||
    name.startsWith("CLAUDE_CODE_") ||
    name === "CLAUDE_CONFIG_DIR" ||
    name === "CLAUDECODE"
  );
}

/**
 * Creates the temporary HOME (with `tmp/` for `CLAUDE_CODE_TMPDIR`, and the user settings when given). Rejects
 * with `TESTKIT_OPTIONS_INVALID` when `modelUrl` is not an absolute http(s) URL or `maxRetries` not a whole number.
 */
export async function createClaudeHome(options: ClaudeHomeOptions): Promise<ClaudeHome> {
  checkModelUrl("createClaudeHome", options.modelUrl);
  const { maxRetries } = options;
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && maxRetries >= 0))
    throw invalidTestkitOption(
      "createClaudeHome",
      "maxRetries",
      `must be a whole number ≥ 0, got ${typeof maxRetries === "string" ? JSON.stringify(maxRetries) : String(maxRetries)}`,
    );
  const dir = await createThrowAwayDir("rennet-claude-home-", options.parentDir, async (home) => {
    await mkdir(path.join(home, "tmp"));
    if (options.userSettings === undefined) return;
    await mkdir(path.join(home, ".claude"));
    await writeFile(
      path.join(home, ".claude", "settings.json"),
      `${JSON.stringify(options.userSettings, null, 2)}\n`,
      "utf8",
    );
  });
  const tmpDir = path.join(dir, "tmp");
  return {
    dir,
    tmpDir,
    env(base = process.env) {
      const env: NodeJS.ProcessEnv = {};
      for (const [name, value] of Object.entries(base)) if (!isClaudeVariable(name)) env[name] = value;
      Object.assign(env, {
        HOME: dir,
        USERPROFILE: dir,
        XDG_CONFIG_HOME: path.join(dir, ".config"),
        XDG_DATA_HOME: path.join(dir, ".local", "share"),
        XDG_CACHE_HOME: path.join(dir, ".cache"),
        XDG_STATE_HOME: path.join(dir, ".local", "state"),
        ANTHROPIC_BASE_URL: options.modelUrl,
        ANTHROPIC_API_KEY: options.apiKey ?? "rennet-loopback-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries ?? 0),
        CLAUDE_CODE_TMPDIR: tmpDir,
      });
      return withLoopbackNoProxy(env);
    },
    cleanup: () => removeThrowAwayDir(dir),
  };
}
