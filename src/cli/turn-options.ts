import { mcpPolicyFromFlags, type McpPolicyValue } from "../mcp/mcp-policy.js";
import { McpPolicyError } from "../mcp/mcp-policy-error.js";
import { resolveClaudeImages } from "../claude/claude-images.js";
import { validateClaudeModel, validateClaudeSessionId } from "../claude/turn-argv.js";
import { resolveImageFiles } from "../call/image-content.js";
import {
  validateReasoningSummary,
  validateResumeId,
  type ReasoningSummary,
} from "../codex/client/turn-inputs.js";
import type { HarnessName } from "../harness/event-base.js";
import type { CliHarnessWords } from "./turn-option-specs.js";
import { UsageError } from "./usage-error.js";
import { cwdFlag, flagValue } from "./flag-value.js";
import type { TurnLimits } from "../harness/approvals.js";

/**
 * Each harness library's own checks of the values a turn passes on: `--resume` and `--model` take exactly what
 * the library takes, so what it would refuse is a usage error here, not a failure after the command started.
 */
const HARNESS_CHECKS: Readonly<
  Record<
    HarnessName,
    {
      resume(value: unknown): string;
      model(value: string): string;
      images(files: readonly string[], cwd: string): string[];
    }
  >
> = {
  // codex receives the model name as JSON: any non-empty text; it reads the image files itself (checked here
  // by content: codex replaces an image it cannot decode with a note and no warning)
  codex: { resume: validateResumeId, model: (model) => model, images: resolveImageFiles },
  "claude-code": { resume: validateClaudeSessionId, model: validateClaudeModel, images: resolveClaudeImages },
};

/** The turn options of a command line as {@link parseCommandLine} reads them ({@link TURN_OPTIONS}). */
export interface RawTurnOptions {
  cwd?: string;
  model?: string;
  json?: boolean;
  /** `--codex-bin` (codex commands). */
  codexBin?: string;
  /** `--claude-bin` (claude commands). */
  claudeBin?: string;
  /** Already converted to milliseconds by {@link parseTimeoutSeconds}. */
  timeout?: number;
  /** `false` when `--no-color` was given. */
  color: boolean;
  /** Every `--mcp-server NAME=URL`, in order (unchecked). */
  mcpServer?: string[];
  /** `--mcp-none`. */
  mcpNone?: boolean;
  /** `--keep-thread`: record the thread in the user's history of the harness. */
  keepThread?: boolean;
  /** `--resume ID`: continue that thread. */
  resume?: string;
  /** `--image PATH`, repeatable. */
  image?: string[];
  /** `--reasoning-summary MODE`. */
  reasoningSummary?: string;
  /** `--trust-project`. */
  trustProject?: boolean;
  /** `--ask`: ask the person at the terminal for each approval. */
  ask?: boolean;
  /** `--max-duration`, already in milliseconds. */
  maxDuration?: number;
  /** `--max-tokens`. */
  maxTokens?: number;
  /** `--max-tool-calls`. */
  maxToolCalls?: number;
}

/** Validated turn options, ready for the library. */
export interface TurnOptions {
  /** Absolute, existing directory. */
  cwd: string;
  model?: string;
  json: boolean;
  /** `--codex-bin` / `--claude-bin`: the executable as given (not checked yet). */
  bin?: string;
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
  /** `--ask`. */
  ask: boolean;
  /** `--max-duration`, `--max-tokens`, `--max-tool-calls`; absent when none was given. */
  limits?: TurnLimits;
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
 * `baseCwd`, with the library's check of a call's `cwd`), that `--resume` is an id the harness's library takes
 * (with that library's own check), that `--model` is not empty and a name the library takes, that the
 * executable flag (`--codex-bin`, `--claude-bin`: `words.binFlag`) is not empty, and the MCP flags
 * ({@link mcpPolicyFromTurnOptions}). Messages name the harness by `words`. Throws {@link UsageError}.
 */
export async function validateTurnOptions(
  raw: RawTurnOptions,
  baseCwd: string,
  command: string,
  words: CliHarnessWords,
): Promise<TurnOptions> {
  if (raw.cwd === "")
    throw new UsageError(`--cwd is empty: give the directory ${words.agent} should work in`, command);
  if (raw.model !== undefined && raw.model.trim() === "") {
    throw new UsageError(
      `--model is empty: give a model name, or leave the option out to use ${words.defaultModel}`,
      command,
    );
  }
  const bin = words.binFlag === "codex-bin" ? raw.codexBin : raw.claudeBin;
  if (bin === "") {
    throw new UsageError(
      `--${words.binFlag} is empty: give the path of the ${words.executable} executable`,
      command,
    );
  }
  if (raw.resume !== undefined && raw.resume.trim() === "") {
    throw new UsageError("--resume is empty: give the threadId of a turn run with --keep-thread", command);
  }
  const checks = HARNESS_CHECKS[words.harness];
  const cwd = cwdFlag(raw.cwd, baseCwd, words, command);
  const images = flagValue(raw.image, "image", (files) => checks.images(files, baseCwd), command);
  const summary = flagValue(raw.reasoningSummary, "reasoning-summary", validateReasoningSummary, command);
  const resume = flagValue(raw.resume, "resume", checks.resume, command);
  const model = flagValue(raw.model, "model", checks.model, command);
  const mcp = mcpPolicyFromTurnOptions(raw, command);
  const limits: TurnLimits = {
    ...(raw.maxDuration !== undefined ? { maxDurationMs: raw.maxDuration } : {}),
    ...(raw.maxTokens !== undefined ? { maxTokens: raw.maxTokens } : {}),
    ...(raw.maxToolCalls !== undefined ? { maxToolCalls: raw.maxToolCalls } : {}),
  };
  return {
    cwd,
    ...(model !== undefined ? { model } : {}),
    json: raw.json === true,
    ...(bin !== undefined ? { bin } : {}),
    turnMs: raw.timeout ?? null,
    color: raw.color,
    mcp,
    ephemeral: raw.keepThread !== true && raw.resume === undefined,
    ...(resume !== undefined ? { resume } : {}),
    ...(images !== undefined ? { images } : {}),
    ...(summary !== undefined ? { reasoningSummary: summary } : {}),
    ...(raw.trustProject === true ? { trustProject: true as const } : {}),
    ask: raw.ask === true,
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };
}
