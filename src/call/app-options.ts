/** The `approvals` and `limits` options every harness's call takes, checked before anything starts. */
import type { ApprovalOptions, TurnLimits } from "../harness/approvals.js";
import {
  checkOptionKeys,
  describeValue,
  InvalidOptionsError,
  known,
  MAX_TIMER_MS,
  type OptionHints,
} from "./option-keys.js";

const APPROVAL_OPTIONS = known<ApprovalOptions>("approvals", {
  onRequest: true,
  timeoutMs: true,
  mode: true,
  onUserInput: true,
  onElicitation: true,
});

const LIMIT_OPTIONS = known<TurnLimits>("limits", {
  maxDurationMs: true,
  maxTokens: true,
  maxToolCalls: true,
  maxCostUsd: true,
});

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}

/**
 * `approvals` checked before anything starts: a plain object of the known keys, `onRequest` a function, the
 * question handlers functions when given, `timeoutMs` a delay a timer can take, `mode` one of the two.
 */
export function checkApprovals(value: unknown, hints: OptionHints): void {
  if (value === undefined) return;
  checkOptionKeys(value, APPROVAL_OPTIONS, hints);
  const approvals = value as Record<string, unknown>;
  if (typeof approvals.onRequest !== "function")
    invalid("approvals.onRequest must be a function (request, { signal }) => decision");
  for (const key of ["onUserInput", "onElicitation"])
    if (approvals[key] !== undefined && typeof approvals[key] !== "function")
      invalid(`approvals.${key} must be a function`);
  const ms = approvals.timeoutMs;
  if (ms !== undefined && (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS))
    invalid(
      `approvals.timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${describeValue(ms)}`,
    );
  const mode = approvals.mode;
  if (mode !== undefined && mode !== "untrusted" && mode !== "on-request")
    invalid(`approvals.mode must be "untrusted" or "on-request", got ${JSON.stringify(mode)}`);
}

/**
 * `limits` checked before anything starts: positive numbers (whole ones for tokens and tool calls); for a
 * harness that reports no cost (`costUsd: false`, Codex) a `maxCostUsd` is `LIMIT_UNSUPPORTED`.
 */
export function checkLimits(value: unknown, hints: OptionHints, harness: { costUsd: boolean }): void {
  if (value === undefined) return;
  checkOptionKeys(value, LIMIT_OPTIONS, hints);
  const limits = value as Record<string, unknown>;
  const cost = limits.maxCostUsd;
  if (
    cost !== undefined &&
    harness.costUsd &&
    (typeof cost !== "number" || !Number.isFinite(cost) || cost <= 0)
  )
    invalid(
      `limits.maxCostUsd must be a positive number of US dollars, got ${JSON.stringify(cost) ?? String(cost)}`,
    );
  if (cost !== undefined && !harness.costUsd)
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
    invalid(
      `limits.maxDurationMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${describeValue(ms)}`,
    );
}
