/**
 * The subcommands of each `rennet` group by name, each spec behind the CLI's dispatch door: a command line
 * loads the one spec it runs (a group's help page loads the group's), so `rennet claude run` loads none of the
 * Codex commands' options, help and checks, nor the other Claude commands'.
 */
import { loadModule } from "../../load-module.js";
import type { CommandSpec } from "../command-line.js";
import type * as ClaudeDoctor from "./claude-doctor.js";
import type * as ClaudeExec from "./claude-exec.js";
import type * as ClaudeMcpIsolation from "./claude-mcp-isolation.js";
import type * as ClaudeRun from "./claude-run.js";
import type * as CodexDoctor from "./codex-doctor.js";
import type * as CodexExec from "./codex-exec.js";
import type * as CodexMcpIsolation from "./codex-mcp-isolation.js";
import type * as CodexRun from "./codex-run.js";

/** A subcommand as its group lists it: its name, and its spec (options, help, action) loaded on demand. */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<CommandSpec>;
}

/** An entry whose spec is `pick` of the module at `url` (`import` is the same module by a literal path). */
function entry<M>(
  name: string,
  url: URL,
  load: () => Promise<M>,
  pick: (module: M) => CommandSpec,
): CommandEntry {
  return { name, load: async () => pick(await loadModule(url, load)) };
}

/**
 * Subcommands of `rennet codex`, in help order. Adding one is one entry here; each lives in its own file under
 * `src/cli/commands/` and exports a {@link CommandSpec}: its options and help are all that loads to parse its
 * command line, and its action module loads when it runs.
 */
export const CODEX_COMMANDS: readonly CommandEntry[] = [
  entry<typeof CodexRun>(
    "run",
    new URL("./codex-run.js", import.meta.url),
    () => import("./codex-run.js"),
    (module) => module.codexRunCommand,
  ),
  entry<typeof CodexExec>(
    "exec",
    new URL("./codex-exec.js", import.meta.url),
    () => import("./codex-exec.js"),
    (module) => module.codexExecCommand,
  ),
  entry<typeof CodexDoctor>(
    "doctor",
    new URL("./codex-doctor.js", import.meta.url),
    () => import("./codex-doctor.js"),
    (module) => module.codexDoctorCommand,
  ),
  entry<typeof CodexMcpIsolation>(
    "mcp-isolation",
    new URL("./codex-mcp-isolation.js", import.meta.url),
    () => import("./codex-mcp-isolation.js"),
    (module) => module.codexMcpIsolationCommand,
  ),
];

/** Subcommands of `rennet claude`, in help order; the same rules as {@link CODEX_COMMANDS}. */
export const CLAUDE_COMMANDS: readonly CommandEntry[] = [
  entry<typeof ClaudeRun>(
    "run",
    new URL("./claude-run.js", import.meta.url),
    () => import("./claude-run.js"),
    (module) => module.claudeRunCommand,
  ),
  entry<typeof ClaudeExec>(
    "exec",
    new URL("./claude-exec.js", import.meta.url),
    () => import("./claude-exec.js"),
    (module) => module.claudeExecCommand,
  ),
  entry<typeof ClaudeDoctor>(
    "doctor",
    new URL("./claude-doctor.js", import.meta.url),
    () => import("./claude-doctor.js"),
    (module) => module.claudeDoctorCommand,
  ),
  entry<typeof ClaudeMcpIsolation>(
    "mcp-isolation",
    new URL("./claude-mcp-isolation.js", import.meta.url),
    () => import("./claude-mcp-isolation.js"),
    (module) => module.claudeMcpIsolationCommand,
  ),
];
