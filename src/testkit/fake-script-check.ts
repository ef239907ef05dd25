import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";

/** The keys of a step; a step has exactly one of them. */
const STEP_KEYS = new Set([
  "send",
  "raw",
  "delayMs",
  "exit",
  "closeStdout",
  "exitKeepStdout",
  "awaitReply",
  "hang",
  "chunk",
]);
/** The keys of a reply: exactly one of the first five, and `delayMs` besides. */
const REPLY_KINDS = new Set(["result", "error", "noReply", "exit", "closeStdout"]);
const STEP_LISTS = ["afterInitialize", "turn", "onSteer", "onInterrupt"] as const;

function invalid(field: string, message: string): RennetError {
  return new RennetError("FAKE_SCRIPT_INVALID", `fake app-server script: ${field} ${message}`, {
    details: { field },
  });
}

function checkKeys(value: unknown, field: string, kinds: ReadonlySet<string>, extra: string[]): void {
  const keys = isRecord(value) ? Object.keys(value) : [];
  const known = keys.filter((key) => kinds.has(key));
  const unknown = keys.filter((key) => !kinds.has(key) && !extra.includes(key));
  if (!isRecord(value) || known.length !== 1 || unknown.length > 0)
    throw invalid(
      field,
      `must be an object with exactly one of ${[...kinds].join(", ")}, got ${JSON.stringify(value) ?? String(value)}`,
    );
}

/**
 * Throws `FAKE_SCRIPT_INVALID` naming the field (`turn[1]`, `replies.turn/start`) when a step list is not an
 * array, a step is not one of the {@link FakeStep} kinds, or a reply not one of the {@link FakeReply} kinds: the
 * fake would otherwise skip it or stop, and the turn wait for its timeout.
 */
export function checkFakeScript(script: unknown): void {
  if (!isRecord(script)) throw invalid("script", "must be an object");
  for (const list of STEP_LISTS) {
    const steps = script[list];
    if (steps === undefined) continue;
    if (!Array.isArray(steps)) throw invalid(list, "must be an array of steps");
    steps.forEach((step: unknown, index) => checkKeys(step, `${list}[${index}]`, STEP_KEYS, []));
  }
  const replies = script.replies;
  if (replies === undefined) return;
  if (!isRecord(replies)) throw invalid("replies", "must be an object of replies by method");
  for (const [method, reply] of Object.entries(replies))
    checkKeys(reply, `replies.${method}`, REPLY_KINDS, ["delayMs"]);
}
