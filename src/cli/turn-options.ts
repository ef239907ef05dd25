import { mcpPolicyFromFlags, type McpPolicyValue } from "../mcp/mcp-policy.js";
import { McpPolicyError } from "../mcp/mcp-policy-error.js";
import {
  checkCwd,
  InvalidTurnInputError,
  resolveImages,
  validateReasoningSummary,
  validateResumeId,
  type ReasoningSummary,
} from "../codex/client/turn-inputs.js";
import type { OptionSpec } from "./command-line.js";
import { UsageError } from "./usage-error.js";

/** The flag a turn input error is about (the prompt is an argument: `read-prompt.ts` maps its error). */
const FLAG_OF: Record<Exclude<InvalidTurnInputError["code"], "PROMPT_EMPTY">, string> = {
  IMAGE_UNREADABLE: "image",
  REASONING_SUMMARY_INVALID: "reasoning-summary",
  RESUME_ID_INVALID: "resume",
  CWD_INVALID: "cwd",
};

/** The turn options of a command line as {@link parseCommandLine} reads them ({@link TURN_OPTIONS}). */
export interface RawTurnOptions {
  cwd?: string;
  model?: string;
  json?: boolean;
  codexBin?: string;
  /** Already converted to milliseconds by {@link parseTimeoutSeconds}. */
  timeout?: number;
  /** `false` when `--no-color` was given. */
  color: boolean;
  /** Every `--mcp-server NAME=URL`, in order (unchecked). */
  mcpServer?: string[];
  /** `--mcp-none`. */
  mcpNone?: boolean;
  /** `--keep-thread`: record the thread in the user's Codex history. */
  keepThread?: boolean;
  /** `--resume ID`: continue that thread. */
  resume?: string;
  /** `--image PATH`, repeatable. */
  image?: string[];
  /** `--reasoning-summary MODE`. */
  reasoningSummary?: string;
  /** `--trust-project`. */
  trustProject?: boolean;
}

/** The largest delay Node timers accept (2^31 - 1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Parses `--timeout SECONDS` into milliseconds: a positive decimal number of seconds (`90`, `2.5`). Pure.
 * Throws an error saying what is accepted; the CLI reports it as a usage error (exit 2).
 */
export function parseTimeoutSeconds(value: string): number {
  const trimmed = value.trim();
  const seconds = /^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError("expected a positive number of seconds, e.g. --timeout 600");
  }
  const ms = Math.ceil(seconds * 1000);
  if (ms > MAX_TIMER_MS) {
    throw new UsageError(`at most ${Math.floor(MAX_TIMER_MS / 1000)} seconds`);
  }
  return ms;
}

/** The options every turn-running command accepts, in help order. */
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
  {
    name: "json",
    description: "print exactly one harness event per line as JSON on stdout, and nothing else",
  },
  {
    name: "codex-bin",
    value: "path",
    description: "run this codex executable (no discovery, no probe; npm's launcher is skipped)",
  },
  {
    name: "timeout",
    value: "seconds",
    description: "overall turn deadline in seconds; the turn fails when it expires",
    parse: parseTimeoutSeconds,
  },
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
  {
    name: "image",
    value: "path",
    description: "send a local image with the prompt (repeatable)",
    repeatable: true,
  },
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
  { name: "no-color", description: "never colour the output on stderr" },
];

/** Validated turn options, ready for the library. */
export interface TurnOptions {
  /** Absolute, existing directory. */
  cwd: string;
  model?: string;
  json: boolean;
  codexBin?: string;
  turnMs: number | null;
  color: boolean;
  /** From `--mcp-server`/`--mcp-none`: `"inherit"` when neither was given. Pass it as the call's `mcp`. */
  mcp: McpPolicyValue;
  /** False with `--keep-thread` or `--resume`. */
  ephemeral: boolean;
  /** `--resume`: the thread to continue. */
  resume?: string;
  /** `--image`: absolute paths of readable files. */
  images?: string[];
  reasoningSummary?: ReasoningSummary;
  /** `--trust-project`: pass it as the call's `trustProject` (absent: the user's config decides). */
  trustProject?: true;
}

/**
 * The MCP policy the flags ask for, checked before anything starts (loopback-only URLs, non-empty unique
 * names, `NAME=URL` form, not both flags). Throws {@link UsageError} naming the flag and the fix.
 */
export function mcpPolicyFromTurnOptions(
  raw: Pick<RawTurnOptions, "mcpServer" | "mcpNone">,
  command: string,
): McpPolicyValue {
  try {
    return mcpPolicyFromFlags({
      ...(raw.mcpServer !== undefined ? { mcpServer: raw.mcpServer } : {}),
      mcpNone: raw.mcpNone === true,
    });
  } catch (error) {
    if (!(error instanceof McpPolicyError)) throw error;
    const message = error.message.startsWith("--mcp") ? error.message : `--mcp-server: ${error.message}`;
    throw new UsageError(message, command);
  }
}

/**
 * Checks what the command-line parser cannot: that `--cwd` is an existing directory (made absolute against
 * `baseCwd`, with the library's check of a call's `cwd`), that
 * `--model`/`--codex-bin` are not empty, and the MCP flags ({@link mcpPolicyFromTurnOptions}). Throws
 * {@link UsageError}.
 */
export async function validateTurnOptions(
  raw: RawTurnOptions,
  baseCwd: string,
  command: string,
): Promise<TurnOptions> {
  if (raw.cwd === "")
    throw new UsageError("--cwd is empty: give the directory Codex should work in", command);
  if (raw.model !== undefined && raw.model.trim() === "") {
    throw new UsageError(
      "--model is empty: give a model name, or leave the option out to use your Codex configuration",
      command,
    );
  }
  if (raw.codexBin !== undefined && raw.codexBin === "") {
    throw new UsageError("--codex-bin is empty: give the path of the codex executable", command);
  }
  if (raw.resume !== undefined && raw.resume.trim() === "") {
    throw new UsageError("--resume is empty: give the threadId of a turn run with --keep-thread", command);
  }
  let cwd = baseCwd;
  let images: string[] | undefined;
  let reasoningSummary: ReasoningSummary | undefined;
  let resume: string | undefined;
  try {
    // the library's own check of a call's cwd, worded for the flag
    if (raw.cwd !== undefined) cwd = checkCwd(raw.cwd, baseCwd);
    if (raw.image !== undefined) images = resolveImages(raw.image, baseCwd);
    if (raw.reasoningSummary !== undefined) reasoningSummary = validateReasoningSummary(raw.reasoningSummary);
    if (raw.resume !== undefined) resume = validateResumeId(raw.resume);
  } catch (error) {
    if (error instanceof InvalidTurnInputError && error.code !== "PROMPT_EMPTY") {
      const flag = `--${FLAG_OF[error.code]}`;
      const message = error.message.startsWith("cwd ") ? `--${error.message}` : `${flag}: ${error.message}`;
      throw new UsageError(message, command);
    }
    throw error;
  }
  const mcp = mcpPolicyFromTurnOptions(raw, command);
  return {
    cwd,
    ...(raw.model !== undefined ? { model: raw.model } : {}),
    json: raw.json === true,
    ...(raw.codexBin !== undefined ? { codexBin: raw.codexBin } : {}),
    turnMs: raw.timeout ?? null,
    color: raw.color,
    mcp,
    ephemeral: raw.keepThread !== true && raw.resume === undefined,
    ...(resume !== undefined ? { resume } : {}),
    ...(images !== undefined ? { images } : {}),
    ...(reasoningSummary !== undefined ? { reasoningSummary } : {}),
    ...(raw.trustProject === true ? { trustProject: true as const } : {}),
  };
}
