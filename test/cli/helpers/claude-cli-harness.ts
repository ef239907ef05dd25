import { InMemoryClaude } from "../../../src/testkit/in-memory-claude.js";
import type { FakeClaudeScript } from "../../../src/testkit/fake-claude-script.js";
import { startMain, type MainRunOptions } from "./cli-harness.js";

export interface ClaudeCliRunOptions extends MainRunOptions {
  script?: FakeClaudeScript;
  /** Default `{ IS_SANDBOX: "1" }`: tests run as root, where Claude Code's bypass mode needs it. */
  env?: NodeJS.ProcessEnv;
  /** Default true: the in-memory fake claude is the launcher (no executable is looked up). */
  fake?: boolean;
}

/** One in-process run of `main()` against the in-memory fake `claude`. */
export function startClaudeCli(argv: string[], options: ClaudeCliRunOptions = {}) {
  const fake = new InMemoryClaude(options.script ?? {});
  const started = startMain(
    argv,
    { ...options, env: options.env ?? { IS_SANDBOX: "1" } },
    options.fake === false ? undefined : fake.launcher,
  );
  return { fake, ...started };
}

export async function runClaudeCli(argv: string[], options: ClaudeCliRunOptions = {}) {
  const started = startClaudeCli(argv, options);
  const code = await started.exit;
  return { ...started, code };
}
