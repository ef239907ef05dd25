import { SteerError } from "../../harness/errors.js";
import { errorMessage, isRennetError } from "../../errors.js";
import { codexCapabilities } from "../versions/capabilities.js";
import type { TurnChild } from "./turn-child.js";

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
  target(): {
    child: Pick<TurnChild, "codexVersion" | "steer" | "protocolPath">;
    threadId: string;
    turnId: string;
  } | null;
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
  const inputs = protocolInputs(ctx.inputs, target.child);
  try {
    await ctx.send(target.child.steer(target.threadId, target.turnId, inputs));
  } catch (error) {
    throw steerFailure(error, ctx.state() === "ended");
  }
}

/** The inputs with each image's path as codex sees it (a codex inside WSL reads it from the distribution). */
function protocolInputs(
  inputs: readonly Record<string, unknown>[],
  child: Pick<TurnChild, "protocolPath">,
): Record<string, unknown>[] {
  return inputs.map((input) => {
    if (input.type !== "localImage" || typeof input.path !== "string") return input;
    try {
      return { ...input, path: child.protocolPath(input.path) };
    } catch (error) {
      throw new SteerError("STEER_INPUT_INVALID", `session.steer(): ${errorMessage(error)}`, {
        cause: error,
      });
    }
  });
}
