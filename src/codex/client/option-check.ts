import {
  checkImagePaths,
  checkOptionKeys as checkKeys,
  checkSignal,
  checkTimeoutValues,
  describeValue as describe,
  checkMilliseconds,
  InvalidOptionsError,
  type KnownOptions,
  type OptionHints,
} from "../../call/option-keys.js";
import {
  MCP_ISOLATION_OPTIONS,
  OPTION_ALIASES,
  OTHER_PLACES,
  SDK_OPTION_HINTS,
  TIMEOUT_OPTIONS,
  TRUST_CHECK_OPTIONS,
} from "./known-options.js";
import { checkApprovals, checkLimits } from "../../call/app-options.js";
import { checkClientOptionValues } from "../../call/client-option-values.js";
import { checkCwd, checkPrompt, CODEX_AGENT, InvalidTurnInputError } from "./turn-inputs.js";
import type { ResolvedCodex } from "../launch/codex-launch.js";
import { absoluteLaunch } from "../../discovery/absolute-launch.js";
import type { ExecutableLaunch } from "../../discovery/executable-launch.js";
import { toolSet } from "../../tools/tool-set.js";
import { checkCodexToolNames } from "./codex-tool-names.js";

export { checkSignal, InvalidOptionsError } from "../../call/option-keys.js";

/** What the Codex client says about keys it does not take. */
export const CODEX_HINTS: OptionHints = {
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
  if (tools !== undefined) checkCodexToolNames(toolSet(tools));
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
  checkImagePaths(images);
  if (timeouts === undefined) return;
  checkOptionKeys(timeouts, TIMEOUT_OPTIONS);
  checkTimeoutValues(timeouts as Record<string, unknown>);
}

/**
 * Whether `value` has the shape of a `ResolvedCodex` (what `discoverCodex().chosen`, `codex.resolveCodex()` and
 * `explicitCodex()` give): an object whose `launch` is an object with a `type`. Pure.
 */
export function isResolvedCodex(value: unknown): value is ResolvedCodex {
  if (typeof value !== "object" || value === null) return false;
  const launch: unknown = (value as { launch?: unknown }).launch;
  return (
    typeof launch === "object" && launch !== null && typeof (launch as { type?: unknown }).type === "string"
  );
}

/**
 * Everything about `checkProjectTrust()`'s options that can be checked before anything starts: the keys
 * (`OPTION_UNKNOWN`), `codex` a resolved codex and the other values' types (`OPTIONS_INVALID`), `cwd` an existing
 * directory (`CWD_INVALID`). Returns `cwd` made absolute and the launch with its relative paths resolved ({@link absoluteLaunch}). Throws {@link InvalidOptionsError} or
 * `InvalidTurnInputError`. Pure apart from `checkCwd`'s `stat`.
 */
export function checkProjectTrustOptions(options: unknown): { cwd: string; codex: ResolvedCodex } {
  checkOptionKeys(options, TRUST_CHECK_OPTIONS);
  const { codex, cwd, env, trustProject, approvals, timeoutMs, launcher, signal } = options as Record<
    string,
    unknown
  >;
  if (!isResolvedCodex(codex))
    invalid(
      "checkProjectTrust() options: codex must be a resolved codex (`discoverCodex().chosen`, or " +
        `\`await createCodex().resolveCodex({ cwd })\`), got ${misfitCodex(codex)}`,
    );
  checkClientOptionValues({ env, launcher });
  checkSharedOptions({ trustProject });
  if (approvals !== undefined && typeof approvals !== "boolean")
    invalid(
      `checkProjectTrust() options: approvals must be true or false (whether the turn would have approvals), got ${describe(approvals)}`,
    );
  if (timeoutMs !== undefined) checkMilliseconds("timeoutMs", timeoutMs);
  checkSignal(signal);
  const cwdChecked = requiredCwd(cwd, "the directory a turn would run in");
  return { cwd: cwdChecked, codex: { ...codex, launch: absoluteLaunch(codex.launch) } };
}

/**
 * `runMcpIsolationCheck()`'s options: the keys (`OPTION_UNKNOWN`), `codex` a launch (`ResolvedCodex.launch`) and
 * the other values' types (`OPTIONS_INVALID`), `cwd` an existing directory (`CWD_INVALID`). Returns `cwd` made
 * absolute and the launch with its relative paths resolved ({@link absoluteLaunch}). Pure apart from `checkCwd`'s `stat`.
 */
export function checkMcpIsolationOptions(options: unknown): { cwd: string; codex: ExecutableLaunch } {
  checkOptionKeys(options, MCP_ISOLATION_OPTIONS);
  const { codex, cwd, env, launcher, signal, ...deadlines } = options as Record<string, unknown>;
  if (typeof codex !== "object" || codex === null || typeof (codex as { type?: unknown }).type !== "string")
    invalid(
      "runMcpIsolationCheck() options: codex must be the launch of a resolved codex (`resolved.launch`, from " +
        `\`discoverCodex().chosen\` or \`await createCodex().resolveCodex({ cwd })\`), got ${
          isResolvedCodex(codex) ? "a ResolvedCodex: pass its `launch`" : describe(codex)
        }`,
    );
  checkClientOptionValues({ env, launcher });
  checkSignal(signal);
  for (const [key, ms] of Object.entries(deadlines)) if (ms !== undefined) checkMilliseconds(key, ms);
  const cwdChecked = requiredCwd(cwd, "the directory whose MCP configuration to check");
  return { cwd: cwdChecked, codex: absoluteLaunch(codex as ExecutableLaunch) };
}

/** `cwd` given (`CWD_INVALID` naming `what` it is when not) and an existing directory, made absolute. */
function requiredCwd(cwd: unknown, what: string): string {
  if (cwd === undefined)
    throw new InvalidTurnInputError("CWD_INVALID", `cwd is missing: give ${what} (e.g. process.cwd())`);
  return checkCwd(cwd, process.cwd(), CODEX_AGENT);
}

/**
 * `discoverCodex()`'s options, or (with `known` the client's list) a client's `discovery`: the keys
 * (`OPTION_UNKNOWN`) and the types of the values a mistake would otherwise turn into a `TypeError` or an ignored
 * setting (`OPTIONS_INVALID`). Absent options pass. Pure.
 */
export function checkDiscoverOptions(options: unknown, known: KnownOptions): void {
  checkOptionKeys(options, known, true);
  if (options === undefined) return;
  const { env, signal, loginShell, cache, mode, timeoutMs, loginShellTimeoutMs, ...rest } = options as Record<
    string,
    unknown
  >;
  checkSignal(signal);
  checkClientOptionValues({ env });
  for (const key of ["cwd", "codexBin", "homedir", "cacheDir", "systemRoot", "wslExe", "platform", "arch"]) {
    const value = rest[key];
    if (value !== undefined && (typeof value !== "string" || value === ""))
      invalid(`${key} must be a non-empty string, got ${describe(value)}`);
  }
  if (loginShell !== undefined && typeof loginShell !== "boolean")
    invalid(`loginShell must be true or false, got ${describe(loginShell)}`);
  if (cache !== undefined && cache !== "use" && cache !== "refresh" && cache !== "off")
    invalid(`cache must be "use", "refresh" or "off", got ${describe(cache)}`);
  if (mode !== undefined && mode !== "first-passing" && mode !== "all")
    invalid(`mode must be "first-passing" or "all", got ${describe(mode)}`);
  if (timeoutMs !== undefined) checkMilliseconds("timeoutMs", timeoutMs);
  if (loginShellTimeoutMs !== undefined) checkMilliseconds("loginShellTimeoutMs", loginShellTimeoutMs);
}

/** What a `codex` that is not a resolved codex is, with what to pass instead. Pure. */
function misfitCodex(codex: unknown): string {
  if (typeof codex === "string")
    return `the path ${describe(codex)}: resolve it first, \`await createCodex({ codex: path }).resolveCodex()\``;
  const candidate = codex as { resolveCodex?: unknown; type?: unknown } | null;
  if (typeof candidate === "object" && candidate !== null) {
    if (typeof candidate.resolveCodex === "function")
      return "a client: pass what `await client.resolveCodex({ cwd })` gives";
    if (typeof candidate.type === "string") return "a launch: pass the ResolvedCodex whose `launch` it is";
  }
  return describe(codex);
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
