import type { HarnessSession } from "../../harness/session.js";
import type { CodexClientOptions } from "./client-options.js";
import { UTILITY_OPTIONS } from "./known-options.js";
import { checkCallOptions } from "./option-check.js";
import type { InferSchema } from "../../schema/infer-schema.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { settleSession } from "../../call/settle.js";
import { CodexSessionClient } from "./session-client.js";
import {
  prepareUtilityCall,
  toUtilityResult,
  type UtilityCallOptions,
  type UtilityResult,
} from "./utility-executor.js";

export { CodexSessionClient } from "./session-client.js";
export type { CodexClientOptions, ResolveCodexOptions } from "./client-options.js";
export type { CodexCallOptions, TurnResult } from "./call-options.js";

/** `T` when the caller gave one, else the type the schema describes. */
type ValueOf<T, S> = [T] extends [never] ? InferSchema<S> : T;

/**
 * A Codex client: the agentic session of {@link CodexSessionClient} (`runStreamed`, `run`, `conversation`) and
 * the utility calls (`utilityStreamed`, `utility`), both on one native runner.
 */
export class CodexClient extends CodexSessionClient {
  /**
   * Starts one utility call and returns the live session: the turn carries the strict form of `schema` as
   * `outputSchema` and, when given, `effort`; a completed terminal frame carries the parsed value as
   * `structuredOutput`. A final message that is not JSON or breaks the schema ends the turn `failed` with a
   * `parse` failure. Throws the option errors of `runStreamed`, `EFFORT_INVALID`, `SCHEMA_INVALID`,
   * `SCHEMA_UNSUPPORTED` (and `McpPolicyError`) synchronously, before anything is spawned. See
   * docs/structured-output.md.
   */
  utilityStreamed<const S extends JsonSchemaObject>(options: UtilityCallOptions<S>): HarnessSession {
    checkCallOptions(options, UTILITY_OPTIONS);
    return this.startInternal(prepareUtilityCall(options));
  }

  /**
   * Runs one utility call to its end and resolves with the value, valid against `schema`. The value's type is
   * `T` when given (`utility<Review>(…)`), else the type the schema describes when it is written inline or
   * `as const` (see `InferSchema`), else `unknown`. Rejects like {@link CodexSessionClient.run}: with
   * `signal.reason` when the caller's signal cancelled it, {@link TurnFailedError} (its
   * `terminal.failure.source` is `parse` for an unusable answer) or {@link TurnCancelledError}; rejects with
   * the option and preparation errors (`EFFORT_INVALID`, `SCHEMA_INVALID`, `SCHEMA_UNSUPPORTED`) before
   * anything is spawned. An explicit `T` is not checked beyond the schema: keep it in line with `schema`.
   */
  async utility<T = never, const S extends JsonSchemaObject = JsonSchemaObject>(
    options: UtilityCallOptions<S>,
  ): Promise<UtilityResult<ValueOf<T, S>>> {
    checkCallOptions(options, UTILITY_OPTIONS);
    const session = this.startInternal(prepareUtilityCall(options));
    return toUtilityResult<ValueOf<T, S>>(await settleSession(session, options.signal));
  }
}

/**
 * A Codex client (see {@link CodexClient}). Throws `InvalidOptionsError` (`OPTION_UNKNOWN`, `OPTIONS_INVALID`)
 * for options it does not take, before anything starts.
 */
export function createCodex(options: CodexClientOptions = {}): CodexClient {
  return new CodexClient(options);
}
