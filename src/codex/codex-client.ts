import type { HarnessSession } from "../harness/session.js";
import { CodexSessionClient, lastTerminal, settle, type CodexClientOptions } from "./session-client.js";
import {
  prepareUtilityCall,
  toUtilityResult,
  type UtilityCallOptions,
  type UtilityResult,
} from "./utility-executor.js";

export { CodexSessionClient, type CodexClientOptions, type ResolveCodexOptions } from "./session-client.js";
export type { CodexCallOptions, TurnResult } from "./call-options.js";

/**
 * A Codex client: the agentic session of {@link CodexSessionClient} (`runStreamed`, `run`, `conversation`) and
 * the utility calls (`utilityStreamed`, `utility`), both on one native runner.
 */
export class CodexClient extends CodexSessionClient {
  /**
   * Starts one utility call and returns the live session: the turn carries the strict form of `schema` as
   * `outputSchema` and, when given, `effort`; a completed terminal frame carries the parsed value as
   * `structuredOutput`. A final message that is not JSON or breaks the schema ends the turn `failed` with a
   * `parse` failure. Throws `EFFORT_INVALID`, `SCHEMA_INVALID`, `SCHEMA_UNSUPPORTED` (and `McpPolicyError`)
   * synchronously, before anything is spawned. See docs/structured-output.md.
   */
  utilityStreamed(options: UtilityCallOptions): HarnessSession {
    return this.startInternal(prepareUtilityCall(options));
  }

  /**
   * Runs one utility call to its end and resolves with the value, valid against `schema`. Rejects like
   * {@link CodexSessionClient.run}: with `signal.reason` when the caller's signal cancelled it, {@link TurnFailedError} (its
   * `terminal.failure.source` is `parse` for an unusable answer) or {@link TurnCancelledError}; rejects with
   * the preparation error (`EFFORT_INVALID`, `SCHEMA_INVALID`, `SCHEMA_UNSUPPORTED`) before anything is
   * spawned. `T` is not checked beyond the schema: keep it in line with `schema`.
   */
  async utility<T = unknown>(options: UtilityCallOptions): Promise<UtilityResult<T>> {
    const session = this.startInternal(prepareUtilityCall(options));
    const terminal = await lastTerminal(session.events);
    return toUtilityResult<T>(settle(terminal, options.signal, session.cancelReason));
  }
}

export function createCodex(options: CodexClientOptions = {}): CodexClient {
  return new CodexClient(options);
}
