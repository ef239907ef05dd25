import {
  checkOptionKeys as checkKeys,
  checkSignal,
  checkTimeoutValues,
  describeValue as describe,
  InvalidOptionsError,
  type KnownOptions,
  type OptionHints,
} from "../../call/option-keys.js";
import { OPTION_ALIASES, OTHER_PLACES, SDK_OPTION_HINTS, TIMEOUT_OPTIONS } from "./known-options.js";
import { checkApprovals, checkLimits } from "../../call/app-options.js";
import { checkCwd, checkPrompt, CODEX_AGENT } from "./turn-inputs.js";
import { toolSet } from "../../tools/tool-set.js";

export { checkSignal, InvalidOptionsError } from "../../call/option-keys.js";

/** What the Codex client says about keys it does not take. */
const CODEX_HINTS: OptionHints = {
  sdkName: "OpenAI's Codex SDK",
  sdk: SDK_OPTION_HINTS,
  aliases: OPTION_ALIASES,
  otherPlaces: OTHER_PLACES,
};

/**
 * Checks that `options` is a plain object (or absent, when `optional`) whose own keys are all in `known`. An
 * unknown key is {@link InvalidOptionsError} `OPTION_UNKNOWN` naming it, with what to use instead: the Rennet
 * name for an option of OpenAI's Codex SDK, the entry point a key of another call belongs to, or the closest
 * known key. A key whose value is `undefined` counts like any other. Pure.
 */
export function checkOptionKeys(options: unknown, known: KnownOptions, optional = false): void {
  checkKeys(options, known, CODEX_HINTS, optional);
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
  checkPrompt(call.prompt, CODEX_AGENT);
  if (call.cwd !== undefined) checkCwd(call.cwd, process.cwd(), CODEX_AGENT);
  checkSharedOptions(call);
  checkSignal(call.signal);
  if (call.ephemeral !== undefined && typeof call.ephemeral !== "boolean")
    invalid(`ephemeral must be true or false, got ${describe(call.ephemeral)}`);
}

/** The options a conversation shares with each call, by type. Pure apart from `checkCwd`'s `stat`. */
export function checkSharedOptions(options: Record<string, unknown>): void {
  const { model, images, timeouts, trustProject, tools } = options;
  if (tools !== undefined) toolSet(tools);
  checkApprovals(options.approvals, CODEX_HINTS);
  checkLimits(options.limits, CODEX_HINTS, { costUsd: false });
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
  checkTimeoutValues(timeouts as Record<string, unknown>);
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
