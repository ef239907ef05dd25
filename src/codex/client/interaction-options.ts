import { InvalidOptionsError, checkOptionKeys } from "./option-check.js";
import { APPROVAL_OPTIONS, LIMIT_OPTIONS } from "./known-options.js";

/** The largest delay Node timers accept (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}

/**
 * `approvals` checked before anything starts: a plain object of the known keys, `onRequest` a function, the
 * question handlers functions when given, `timeoutMs` a delay a timer can take, `mode` one of the two.
 */
export function checkApprovals(value: unknown): void {
  if (value === undefined) return;
  checkOptionKeys(value, APPROVAL_OPTIONS);
  const approvals = value as Record<string, unknown>;
  if (typeof approvals.onRequest !== "function")
    invalid("approvals.onRequest must be a function (request, { signal }) => decision");
  for (const key of ["onUserInput", "onElicitation"])
    if (approvals[key] !== undefined && typeof approvals[key] !== "function")
      invalid(`approvals.${key} must be a function`);
  const ms = approvals.timeoutMs;
  if (ms !== undefined && (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS))
    invalid(`approvals.timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
  const mode = approvals.mode;
  if (mode !== undefined && mode !== "untrusted" && mode !== "on-request")
    invalid(`approvals.mode must be "untrusted" or "on-request", got ${JSON.stringify(mode)}`);
}

/**
 * `limits` checked before anything starts: positive numbers (whole ones for tokens and tool calls); a
 * `maxCostUsd` is `LIMIT_UNSUPPORTED`, since Codex reports no cost a limit could be checked against.
 */
export function checkLimits(value: unknown): void {
  if (value === undefined) return;
  checkOptionKeys(value, LIMIT_OPTIONS);
  const limits = value as Record<string, unknown>;
  if (limits.maxCostUsd !== undefined)
    throw new InvalidOptionsError(
      "LIMIT_UNSUPPORTED",
      "limits.maxCostUsd cannot be enforced on Codex: codex reports tokens but no cost. Cap the turn with " +
        "limits.maxTokens (and maxDurationMs) instead",
    );
  for (const key of ["maxTokens", "maxToolCalls"]) {
    const n = limits[key];
    if (n !== undefined && (typeof n !== "number" || !Number.isInteger(n) || n < 0))
      invalid(`limits.${key} must be a whole number of 0 or more, got ${JSON.stringify(n) ?? String(n)}`);
  }
  const ms = limits.maxDurationMs;
  if (ms !== undefined && (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS))
    invalid(`limits.maxDurationMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
}
