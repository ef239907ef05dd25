import { MAX_TIMER_MS } from "../call/option-keys.js";
import { EFFORT_LEVELS } from "../claude/turn-argv.js";
import type { HarnessName } from "../harness/events.js";
import type { OptionSpec } from "./command-line.js";
import { UsageError } from "./usage-error.js";

/** How a turn command's flags and messages name its harness. */
export interface CliHarnessWords {
  harness: HarnessName;
  /** `Codex`, `Claude Code`. */
  agent: string;
  /** The executable's name: `codex`, `claude`. */
  executable: string;
  /** The flag that names the executable: `codex-bin`, `claude-bin`. */
  binFlag: "codex-bin" | "claude-bin";
  /** What a turn uses without `--model` ("… leave the option out to use <this>"). */
  defaultModel: string;
}

export const CODEX_WORDS: CliHarnessWords = {
  harness: "codex",
  agent: "Codex",
  executable: "codex",
  binFlag: "codex-bin",
  defaultModel: "your Codex configuration",
};

export const CLAUDE_WORDS: CliHarnessWords = {
  harness: "claude-code",
  agent: "Claude Code",
  executable: "claude",
  binFlag: "claude-bin",
  defaultModel: "Claude Code's own model",
};

/**
 * Parses `--timeout SECONDS` into milliseconds: a positive decimal number of seconds (`90`, `2.5`). Pure.
 * Throws an error saying what is accepted; the CLI reports it as a usage error (exit 2).
 */
export function parseTimeoutSeconds(value: string): number {
  const trimmed = value.trim();
  const seconds = /^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError("expected a positive number of seconds, e.g. 600");
  }
  const ms = Math.ceil(seconds * 1000);
  if (ms > MAX_TIMER_MS) {
    throw new UsageError(`at most ${Math.floor(MAX_TIMER_MS / 1000)} seconds`);
  }
  return ms;
}

const JSON_OPTION: OptionSpec = {
  name: "json",
  description: "print exactly one harness event per line as JSON on stdout, and nothing else",
};

const TIMEOUT_OPTION: OptionSpec = {
  name: "timeout",
  value: "seconds",
  description: "overall turn deadline in seconds; the turn fails when it expires",
  parse: parseTimeoutSeconds,
};

const IMAGE_OPTION: OptionSpec = {
  name: "image",
  value: "path",
  description: "send a local image with the prompt (repeatable)",
  repeatable: true,
};

/** Parses a count flag (`--max-tokens 20000`): a whole number of 0 or more. Pure. */
function parseCount(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed)))
    throw new UsageError("expected a whole number of 0 or more, e.g. 20000");
  return Number(trimmed);
}

/** `--ask` with what the harness asks about and what it changes for it; the limit flags follow it in help. */
function askOption(asks: string, effect: string): OptionSpec {
  return {
    name: "ask",
    description:
      `ask you at this terminal before ${asks} (y/n/a/c); ${effect} (needs a terminal on stdin and stderr, ` +
      "and the prompt as an argument, not `-`)",
  };
}

/** The limit flags, for a harness whose turns can stop at a limit. */
const LIMIT_OPTIONS: readonly OptionSpec[] = [
  {
    name: "max-duration",
    value: "seconds",
    description: "stop the turn after this many seconds (cancelled, reason limit; exit 130)",
    parse: parseTimeoutSeconds,
  },
  {
    name: "max-tokens",
    value: "n",
    description: "stop the turn once it has used more than this many tokens (cancelled, reason limit)",
    parse: parseCount,
  },
  {
    name: "max-tool-calls",
    value: "n",
    description: "stop the turn at its first tool call beyond this many (cancelled, reason limit)",
    parse: parseCount,
  },
];

/** `--tool MODULE` of a `run` command (loaded by its action, `commands/tool-modules.ts`). */
export const TOOL_OPTION: OptionSpec = {
  name: "tool",
  value: "module",
  description:
    "give the agent the app tools this module exports (ES or CommonJS; defineTool values; repeatable); each call runs in " +
    "this process and shows as a tool event of kind app (see docs/app-tools.md); with --ask, each call is asked first",
  repeatable: true,
};

/** The one argument of a turn command (`run`, `exec`): the prompt. */
export const PROMPT_ARGUMENT = {
  name: "prompt",
  description:
    "the prompt, as one quoted argument; `-` reads the whole prompt from stdin; a prompt that starts with `-` goes after `--`",
} as const;

/** `--schema FILE` of an `exec` command (read and checked by its action, `schema-file.ts`). */
export const SCHEMA_OPTION: OptionSpec = {
  name: "schema",
  value: "file",
  description: "JSON Schema file the answer must match (root type object)",
  required: true,
};

const NO_COLOR_OPTION: OptionSpec = { name: "no-color", description: "never colour the output on stderr" };

/** The options of `rennet codex run` (and, after its own, `codex exec`), in help order. */
export const TURN_OPTIONS: readonly OptionSpec[] = [
  {
    name: "cwd",
    value: "dir",
    description:
      "working directory of the Codex thread and its commands (must exist; default: the current directory)",
  },
  {
    name: "model",
    value: "model",
    description: "model to use (default: the model of your Codex configuration)",
  },
  JSON_OPTION,
  {
    name: "codex-bin",
    value: "path",
    description: "run this codex executable (no discovery, no probe; npm's launcher is skipped)",
  },
  TIMEOUT_OPTION,
  {
    // `<spec>`, not `<name=url>`: a longer term would widen the whole option column of every --help
    name: "mcp-server",
    value: "spec",
    description:
      "NAME=URL (repeatable): let Codex use exactly these MCP servers, streamable-HTTP URLs on this machine " +
      "(127.x.y.z, localhost, [::1]); every other configured MCP server is disabled and plugins are off",
    repeatable: true,
  },
  {
    name: "mcp-none",
    description:
      "disable every configured MCP server (and plugins) for this turn; Codex's own tools stay " +
      "(default without --mcp-server/--mcp-none: your Codex configuration, untouched)",
  },
  {
    name: "keep-thread",
    description:
      "record the thread in your Codex history (a rollout file under CODEX_HOME/sessions); default: ephemeral",
  },
  {
    name: "resume",
    value: "thread-id",
    description:
      "continue a thread kept by an earlier --keep-thread turn (its threadId, printed in --json's terminal " +
      "event) in a fresh codex; the thread stays recorded",
  },
  IMAGE_OPTION,
  {
    name: "reasoning-summary",
    value: "mode",
    description: "reasoning summaries for this turn: auto, concise, detailed or none",
  },
  {
    name: "trust-project",
    description:
      "trust the --cwd project for this turn: Codex loads the repository's own .codex/ config (its MCP " +
      "servers, hooks, instructions, model), unless your Codex config marks it untrusted; default: trusted " +
      "only where your Codex config trusts it (nothing is written either way)",
  },
  askOption(
    "each command, file change, extra permission or MCP tool call",
    "the turn then runs in codex's workspace-write sandbox with approval policy untrusted instead of full access",
  ),
  ...LIMIT_OPTIONS,
  NO_COLOR_OPTION,
];

/** The options of `rennet claude run` (and, after its own, `claude exec`), in help order. */
export const CLAUDE_TURN_OPTIONS: readonly OptionSpec[] = [
  {
    name: "cwd",
    value: "dir",
    description:
      "working directory of the Claude Code session and its commands (must exist; default: the current directory)",
  },
  { name: "model", value: "model", description: "model to use (default: Claude Code's own)" },
  JSON_OPTION,
  {
    name: "claude-bin",
    value: "path",
    description: "run this claude executable (no discovery, no probe; npm's placeholder is skipped)",
  },
  TIMEOUT_OPTION,
  {
    name: "mcp-server",
    value: "spec",
    description:
      "NAME=URL (repeatable): let Claude Code use exactly these MCP servers, streamable-HTTP URLs on this " +
      "machine (127.x.y.z, localhost, [::1]); your ~/.claude.json servers and the repository's .mcp.json never start",
    repeatable: true,
  },
  {
    name: "mcp-none",
    description:
      "no MCP server at all (the default without --mcp-server): neither your ~/.claude.json servers nor the " +
      "repository's .mcp.json start; Claude Code's own tools stay",
  },
  {
    name: "keep-thread",
    description:
      "keep the session's transcript in your Claude history (~/.claude/projects/) so --resume can continue " +
      "it; default: no transcript",
  },
  {
    name: "resume",
    value: "session-id",
    description:
      "continue a session kept by an earlier --keep-thread turn (its threadId, printed in --json's terminal " +
      "event) in a fresh claude; the transcript stays kept",
  },
  IMAGE_OPTION,
  {
    name: "effort",
    value: "level",
    description: `effort for this turn: ${EFFORT_LEVELS.join(", ")} (default: the model's own)`,
    parse: parseClaudeEffort,
  },
  {
    name: "max-budget-usd",
    value: "usd",
    description: "Claude Code stops the turn once it has spent more than this many US dollars (exit 130)",
    parse: parseBudget,
  },
  {
    name: "trust-project",
    description:
      "trust the --cwd project for this turn: Claude Code loads the repository's own .claude/settings.json " +
      "and settings.local.json (hooks, env, apiKeyHelper, MCP approvals); default: only your own settings apply",
  },
  askOption(
    "each tool use Claude Code asks permission for (a command, a file change, an MCP tool call, …)",
    "the turn then runs in permission mode default with its prompts sent to rennet instead of bypassPermissions",
  ),
  ...LIMIT_OPTIONS,
  NO_COLOR_OPTION,
];

/** `--effort LEVEL` of a Claude Code command. Pure; throws {@link UsageError}. */
function parseClaudeEffort(value: string): string {
  if ((EFFORT_LEVELS as readonly string[]).includes(value)) return value;
  throw new UsageError(`expected one of ${EFFORT_LEVELS.join(", ")}`);
}

/** `--max-budget-usd USD`: a positive decimal number. Pure; throws {@link UsageError}. */
function parseBudget(value: string): number {
  const trimmed = value.trim();
  const usd = /^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(usd) || usd <= 0)
    throw new UsageError("expected a positive number of US dollars, e.g. --max-budget-usd 0.5");
  return usd;
}
