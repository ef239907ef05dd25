import { RennetError } from "../../errors.js";
import { didYouMean } from "../../did-you-mean.js";
import {
  OPTION_ALIASES,
  OTHER_PLACES,
  SDK_OPTION_HINTS,
  TIMEOUT_OPTIONS,
  type KnownOptions,
} from "./known-options.js";
import { checkCwd, checkPrompt } from "./turn-inputs.js";
import { toolSet } from "../../tools/tool-set.js";

/** Options a caller passed that Rennet does not take, or not in that form; thrown before anything starts. */
export class InvalidOptionsError extends RennetError<"OPTION_UNKNOWN" | "OPTIONS_INVALID"> {
  override readonly name = "InvalidOptionsError";
}

/**
 * Checks that `options` is a plain object (or absent, when `optional`) whose own keys are all in `known`. An
 * unknown key is {@link InvalidOptionsError} `OPTION_UNKNOWN` naming it, with what to use instead: the Rennet
 * name for an option of OpenAI's Codex SDK, the entry point a key of another call belongs to, or the closest
 * known key. A key whose value is `undefined` counts like any other. Pure.
 */
export function checkOptionKeys(options: unknown, known: KnownOptions, optional = false): void {
  if (options === undefined && optional) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    const got = Array.isArray(options) ? "an array" : options === null ? "null" : typeof options;
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `${known.name} must be an object, got ${got}` +
        (typeof options === "string" ? `: pass { prompt: ${JSON.stringify(options.slice(0, 40))} }` : ""),
    );
  }
  const unknown = Object.keys(options).filter((key) => !known.keys.includes(key));
  if (unknown.length === 0) return;
  const lines = unknown.map((key) => `\`${key}\`: ${hintFor(key, known)}`);
  throw new InvalidOptionsError(
    "OPTION_UNKNOWN",
    `${known.name}: unknown option${unknown.length > 1 ? "s" : ""} ${lines.join("; ")} ` +
      `(known: ${known.keys.join(", ")})`,
    { details: { unknown } },
  );
}

/** What to write instead of `key`. Pure. */
function hintFor(key: string, known: KnownOptions): string {
  const sdk = SDK_OPTION_HINTS.get(key);
  if (sdk !== undefined) return `an option of OpenAI's Codex SDK; ${sdk}`;
  const alias = OPTION_ALIASES.get(key);
  if (alias !== undefined && known.keys.includes(alias)) return `did you mean \`${alias}\`?`;
  const elsewhere = OTHER_PLACES.get(alias ?? key) ?? OTHER_PLACES.get(key);
  if (elsewhere !== undefined) return `not one of these; ${elsewhere}`;
  const close = didYouMean(key, known.keys);
  return close === null ? "not an option here" : `did you mean \`${close}\`?`;
}

/** `value` is an `AbortSignal` (or absent); otherwise `OPTIONS_INVALID` naming `name`. Pure. */
export function checkSignal(value: unknown, name = "signal"): void {
  if (value === undefined || isAbortSignal(value)) return;
  throw new InvalidOptionsError(
    "OPTIONS_INVALID",
    `${name} must be an AbortSignal (e.g. new AbortController().signal), got ${describe(value)}`,
  );
}

/** An `AbortSignal`, or a polyfill that behaves as one. */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  const candidate = value as Partial<AbortSignal> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.aborted === "boolean" &&
    typeof candidate.addEventListener === "function" &&
    typeof candidate.removeEventListener === "function"
  );
}

/** How a message shows a value of the wrong type. Pure. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/**
 * Everything about a call's options that can be checked before anything starts: the keys (`known`), the
 * prompt, the working directory, the tools, and the types of the other options. Throws {@link InvalidOptionsError},
 * `InvalidTurnInputError` (`PROMPT_EMPTY`, `CWD_INVALID`) or `InvalidToolError` (`TOOL_INVALID`). The values that need more (images, resume id,
 * reasoning summary, MCP policy) are checked where they are used, still before the spawn.
 */
export function checkCallOptions(options: unknown, known: KnownOptions): void {
  checkOptionKeys(options, known);
  const call = options as Record<string, unknown>;
  checkPrompt(call.prompt);
  if (call.cwd !== undefined) checkCwd(call.cwd);
  checkSharedOptions(call);
  checkSignal(call.signal);
  if (call.ephemeral !== undefined && typeof call.ephemeral !== "boolean")
    invalid(`ephemeral must be true or false, got ${describe(call.ephemeral)}`);
}

/** The options a conversation shares with each call, by type. Pure apart from `checkCwd`'s `stat`. */
export function checkSharedOptions(options: Record<string, unknown>): void {
  const { model, images, timeouts, trustProject, tools } = options;
  if (tools !== undefined) toolSet(tools);
  if (trustProject !== undefined && typeof trustProject !== "boolean")
    invalid(
      `trustProject must be true or false, got ${describe(trustProject)}: leave it out to follow the ` +
        "Codex configuration's trust for the cwd",
    );
  if (model !== undefined && (typeof model !== "string" || model.trim() === ""))
    invalid(
      `model must be a model name, got ${describe(model)}: leave it out to use the Codex configuration's model`,
    );
  if (images !== undefined && (!Array.isArray(images) || !images.every((i) => typeof i === "string")))
    invalid(`images must be an array of file paths, got ${describe(images)}`);
  if (timeouts === undefined) return;
  checkOptionKeys(timeouts, TIMEOUT_OPTIONS);
  for (const [key, ms] of Object.entries(timeouts as Record<string, unknown>)) {
    if (ms === undefined || (key === "turnMs" && ms === null)) continue;
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS)
      invalid(
        `timeouts.${key} must be a number of milliseconds from 1 to ${MAX_TIMER_MS}` +
          `${key === "turnMs" ? " (or null for none)" : ""}, got ${describe(ms)}`,
      );
  }
}

/** The largest delay Node timers accept (2^31 - 1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
