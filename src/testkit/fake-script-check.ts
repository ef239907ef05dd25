import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";

/** The shape of one fake's script: which fields are step lists, the step kinds, and the reply field's kinds. */
export interface FakeScriptShape {
  /** Names the fake in errors, e.g. "fake app-server". */
  readonly name: string;
  readonly stepLists: readonly string[];
  /** A step has exactly one of these keys. */
  readonly stepKeys: ReadonlySet<string>;
  /** The field of replies by name, e.g. `replies`. */
  readonly replies: string;
  /** A reply has exactly one of these keys, and `delayMs` besides. */
  readonly replyKinds: ReadonlySet<string>;
}

/** The fake app-server's script ({@link FakeScript}). */
export const FAKE_APP_SERVER_SCRIPT: FakeScriptShape = {
  name: "fake app-server",
  stepLists: ["afterInitialize", "turn", "onSteer", "onInterrupt"],
  stepKeys: new Set([
    "send",
    "raw",
    "delayMs",
    "exit",
    "closeStdout",
    "exitKeepStdout",
    "awaitReply",
    "hang",
    "chunk",
    "userMessage",
  ]),
  replies: "replies",
  replyKinds: new Set(["result", "error", "noReply", "exit", "closeStdout"]),
};

/** The fake claude's script ({@link FakeClaudeScript}). */
export const FAKE_CLAUDE_SCRIPT: FakeScriptShape = {
  name: "fake claude",
  stepLists: ["startup", "turn", "nextTurn", "onInterrupt"],
  stepKeys: new Set([
    "send",
    "raw",
    "stderr",
    "delayMs",
    "exit",
    "closeStdout",
    "hang",
    "awaitControlResponse",
    "awaitSteer",
    "takeSteers",
    "mcpToolResult",
  ]),
  replies: "controlReplies",
  replyKinds: new Set(["response", "error", "noReply"]),
};

function invalid(shape: FakeScriptShape, field: string, message: string): RennetError {
  return new RennetError("FAKE_SCRIPT_INVALID", `${shape.name} script: ${field} ${message}`, {
    details: { field },
  });
}

function checkKeys(
  shape: FakeScriptShape,
  value: unknown,
  field: string,
  kinds: ReadonlySet<string>,
  extra: readonly string[],
): void {
  const keys = isRecord(value) ? Object.keys(value) : [];
  const known = keys.filter((key) => kinds.has(key));
  const unknown = keys.filter((key) => !kinds.has(key) && !extra.includes(key));
  if (!isRecord(value) || known.length !== 1 || unknown.length > 0)
    throw invalid(
      shape,
      field,
      `must be an object with exactly one of ${[...kinds].join(", ")}, got ${JSON.stringify(value) ?? String(value)}`,
    );
}

/**
 * Throws `FAKE_SCRIPT_INVALID` naming the field (`turn[1]`, `replies.turn/start`) when a step list is not an
 * array, a step is not one of the script's step kinds, or a reply not one of its reply kinds: the fake would
 * otherwise skip it or stop, and the turn wait for its timeout.
 */
export function checkFakeScript(script: unknown, shape: FakeScriptShape): void {
  if (!isRecord(script)) throw invalid(shape, "script", "must be an object");
  for (const list of shape.stepLists) {
    const steps = script[list];
    if (steps === undefined) continue;
    if (!Array.isArray(steps)) throw invalid(shape, list, "must be an array of steps");
    steps.forEach((step: unknown, index) => checkKeys(shape, step, `${list}[${index}]`, shape.stepKeys, []));
  }
  const replies = script[shape.replies];
  if (replies === undefined) return;
  if (!isRecord(replies)) throw invalid(shape, shape.replies, "must be an object of replies by name");
  for (const [name, reply] of Object.entries(replies))
    checkKeys(shape, reply, `${shape.replies}.${name}`, shape.replyKinds, ["delayMs"]);
}
