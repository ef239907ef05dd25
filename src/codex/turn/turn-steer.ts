import path from "node:path";
import type { SteerInput } from "../../harness/approvals.js";
import { SteerError } from "../../harness/errors.js";
import { errorMessage, isRennetError } from "../../errors.js";
import { isRecord } from "../../json-record.js";
import { codexCapabilities } from "../versions/capabilities.js";
import type { TurnChild } from "./turn-child.js";

/**
 * The `turn/steer` inputs of `session.steer(input)`: text, or a list of text and local image inputs (relative
 * image paths against `cwd`). Throws {@link SteerError} `STEER_INPUT_INVALID` for empty text or an input of no
 * known type. Pure.
 */
export function steerInputs(input: unknown, cwd: string): Record<string, unknown>[] {
  const list: unknown[] =
    typeof input === "string" ? [{ type: "text", text: input }] : Array.isArray(input) ? input : [];
  if (list.length === 0) throw invalid("give the guidance as text or a non-empty list of inputs");
  return list.map((item) => {
    if (!isRecord(item)) throw invalid(`an input must be an object, got ${typeof item}`);
    const entry = item as Partial<SteerInput> & Record<string, unknown>;
    if (entry.type === "text" && typeof entry.text === "string" && entry.text.trim() !== "")
      return { type: "text", text: entry.text };
    if (entry.type === "localImage" && typeof entry.path === "string" && entry.path !== "")
      return { type: "localImage", path: path.resolve(cwd, entry.path) };
    throw invalid(`an input must be {type:"text", text} with text or {type:"localImage", path}`);
  });
}

function invalid(message: string): SteerError {
  return new SteerError("STEER_INPUT_INVALID", `session.steer(): ${message}`);
}

/** The error a failed `turn/steer` request rejects `steer()` with. Pure. */
function steerFailure(error: unknown, ended: boolean): SteerError {
  if (ended || isRennetError(error, "CONNECTION_CLOSED"))
    return new SteerError("TURN_NOT_RUNNING", "the turn ended before codex accepted the guidance", {
      cause: error,
    });
  const message = isRennetError(error, "JSONRPC_ERROR")
    ? String((error as { rpcMessage?: unknown }).rpcMessage ?? errorMessage(error))
    : errorMessage(error);
  return new SteerError("STEER_REFUSED", `codex refused the guidance: ${message}`, {
    cause: error,
    details: { agentMessage: message },
  });
}

/** What steering needs from its runner. */
export interface SteerContext {
  inputs: Record<string, unknown>[];
  /** Resolves once the turn is acknowledged; rejects once the session has ended. */
  running(): Promise<void>;
  /** The child and the owned ids while the turn runs; null otherwise. */
  target(): { child: Pick<TurnChild, "codexVersion" | "steer">; threadId: string; turnId: string } | null;
  /** Where the session is, for messages (and `ended` after a failed request). */
  state(): string;
  /** Wraps the request; rejects once the session has ended. */
  send<T>(step: Promise<T>): Promise<T>;
}

/**
 * Waits for the turn to run, checks that this codex can steer, sends `turn/steer` with the owned turn as
 * `expectedTurnId` and resolves once codex accepted it. Rejects with {@link SteerError}.
 */
export async function steerTurn(ctx: SteerContext): Promise<void> {
  const notRunning = () =>
    new SteerError("TURN_NOT_RUNNING", `the turn is not running (${ctx.state()}): nothing to steer`);
  try {
    await ctx.running();
  } catch {
    throw notRunning();
  }
  const target = ctx.target();
  if (target === null) throw notRunning();
  const version = target.child.codexVersion;
  if (!codexCapabilities(version).turnSteer)
    throw new SteerError(
      "STEER_UNSUPPORTED",
      `codex ${version ?? "(unknown version)"} cannot steer a running turn (turn/steer needs 0.100.0 or newer)`,
    );
  try {
    await ctx.send(target.child.steer(target.threadId, target.turnId, ctx.inputs));
  } catch (error) {
    throw steerFailure(error, ctx.state() === "ended");
  }
}
