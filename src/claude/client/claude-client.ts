import { settleSession } from "../../call/settle.js";
import { checkUtilitySchemaGiven, toUtilityResult, type UtilityResult } from "../../call/utility-result.js";
import type { HarnessSession } from "../../harness/session.js";
import type { InferSchema } from "../../schema/infer-schema.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import type { StartedSession } from "../../session/deferred-session.js";
import type { ClaudeCodeClientOptions, ClaudeUtilityCallOptions } from "./claude-call-options.js";
import { checkClaudeCall } from "./claude-call-plan.js";
import { CLAUDE_UTILITY_OPTIONS } from "./claude-known-options.js";
import { ClaudeCodeSessionClient } from "./claude-session-client.js";
import { prepareClaudeStructuredOutput } from "./claude-structured-output.js";

export { ClaudeCodeSessionClient } from "./claude-session-client.js";

/** `T` when the caller gave one, else the type the schema describes. */
type ValueOf<T, S> = [T] extends [never] ? InferSchema<S> : T;

/**
 * A Claude Code client: the agentic session of {@link ClaudeCodeSessionClient} (`runStreamed` yields the harness
 * event stream of one turn in its own `claude -p` child, `run` folds it into a result) and `utility` /
 * `utilityStreamed`, a structured-output turn. The same shapes as the Codex client's, so that an app switches
 * agent by changing one call.
 */
export class ClaudeCodeClient extends ClaudeCodeSessionClient {
  /**
   * Starts one structured-output turn (`--json-schema`): Claude Code offers the model its `StructuredOutput`
   * tool, and a completed terminal frame carries the value, validated against `schema`, as `structuredOutput`.
   * A turn without a value, or a value the schema refuses, fails with a `parse` failure. Throws
   * `SCHEMA_INVALID` besides `runStreamed`'s errors.
   */
  utilityStreamed<const S extends JsonSchemaObject>(options: ClaudeUtilityCallOptions<S>): HarnessSession {
    checkClaudeCall(options, CLAUDE_UTILITY_OPTIONS);
    return this.#startStructured(options);
  }

  /** Runs one structured-output turn to its end and resolves with the value; rejects like {@link run}. */
  async utility<T = never, const S extends JsonSchemaObject = JsonSchemaObject>(
    options: ClaudeUtilityCallOptions<S>,
  ): Promise<UtilityResult<ValueOf<T, S>>> {
    checkClaudeCall(options, CLAUDE_UTILITY_OPTIONS);
    const session = this.#startStructured(options);
    return toUtilityResult<ValueOf<T, S>>(await settleSession(session, options.signal));
  }

  #startStructured(options: ClaudeUtilityCallOptions<JsonSchemaObject>): StartedSession {
    const { schema } = options;
    checkUtilitySchemaGiven(schema);
    const { jsonSchema, check } = prepareClaudeStructuredOutput(schema);
    return this.startInternal(options, { schema: jsonSchema, check });
  }
}

/**
 * A Claude Code client (see {@link ClaudeCodeClient}). Throws `InvalidOptionsError` (`OPTION_UNKNOWN`,
 * `OPTIONS_INVALID`) for options it does not take, before anything starts.
 */
export function createClaudeCode(options: ClaudeCodeClientOptions = {}): ClaudeCodeClient {
  return new ClaudeCodeClient(options);
}
