import type { EventBody, RateLimitWindow } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import { codexFileChange } from "./file-change-diffs.js";

/** Typed event bodies for what a UI shows (plan, diff, file changes, rate limits). Pure; never throw on odd input. */

type Json = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** `turn/plan/updated` → `plan.updated`: steps without a string `step` are dropped. */
export function planUpdated(params: Json): EventBody {
  const steps = (Array.isArray(params.plan) ? params.plan : []).flatMap((entry) =>
    isRecord(entry) && typeof entry.step === "string"
      ? [{ step: entry.step, status: str(entry.status) ?? "pending" }]
      : [],
  );
  return { type: "plan.updated", steps, explanation: str(params.explanation), native: params };
}

/** A completed `fileChange` item → `file.changed`; an object `kind` is reduced to its `type`. */
export function fileChanged(itemId: string, item: Json): EventBody {
  const changes = (Array.isArray(item.changes) ? item.changes : []).flatMap((change) => {
    if (!isRecord(change) || typeof change.path !== "string") return [];
    const kind = isRecord(change.kind) ? (str(change.kind.type) ?? "update") : (str(change.kind) ?? "update");
    return [codexFileChange(change.path, kind, str(change.diff))];
  });
  return { type: "file.changed", itemId, status: str(item.status), changes };
}

function rateLimitWindow(value: unknown): RateLimitWindow | null {
  if (!isRecord(value)) return null;
  const num = (key: string): number | null =>
    typeof value[key] === "number" ? (value[key] as number) : null;
  return {
    usedPercent: num("usedPercent"),
    resetsAt: num("resetsAt"),
    windowDurationMins: num("windowDurationMins"),
  };
}

/** `account/rateLimits/updated` → `rate-limits`. */
export function rateLimits(params: Json): EventBody {
  const limits = isRecord(params.rateLimits) ? params.rateLimits : {};
  return {
    type: "rate-limits",
    primary: rateLimitWindow(limits.primary),
    secondary: rateLimitWindow(limits.secondary),
    native: params,
  };
}
