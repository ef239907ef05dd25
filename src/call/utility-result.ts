import type { TerminalEvent, Usage } from "../harness/events.js";
import { InvalidSchemaError } from "../schema/schema-validator.js";
import type { TurnResult } from "./settle.js";

/** What every harness's `utility()` resolves with. */
export interface UtilityResult<T = unknown> {
  /** The answer: parsed, valid against the caller's schema. */
  value: T;
  /** The final agent message the value came with. */
  finalMessage: string;
  usage: Usage | null;
  model: string | null;
  threadId: string | null;
  /** The terminal frame; `terminal.structuredOutput` is `value`. */
  terminal: TerminalEvent;
}

/** The resolved value of a completed utility call, from the settled turn result. */
export function toUtilityResult<T>(result: TurnResult): UtilityResult<T> {
  return {
    value: result.terminal.structuredOutput as T,
    finalMessage: result.finalMessage ?? "",
    usage: result.usage,
    model: result.model,
    threadId: result.threadId,
    terminal: result.terminal,
  };
}

/**
 * A utility call's `schema` was given: a call without one is `SCHEMA_INVALID` naming the option and the call to
 * write (a schema of another kind is refused by its compile, naming what it got). Pure.
 */
export function checkUtilitySchemaGiven(schema: unknown): void {
  if (schema === undefined)
    throw new InvalidSchemaError(
      'no `schema` was given; give a JSON Schema object such as {"type":"object","properties":{…}}, the shape ' +
        "the answer must have, as utility({ prompt, schema })",
    );
}
