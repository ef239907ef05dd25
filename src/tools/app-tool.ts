/**
 * What an app tool is once made (see `defineTool`), and how any code recognizes one without loading the schema
 * validator that making one needs.
 */
import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";

/** What a handler is given besides its arguments. */
export interface AppToolContext {
  /** Aborted when the session ends before the handler settled (a cancel, a failure, a deadline). */
  signal: AbortSignal;
  /** Rennet's id of the session whose agent called the tool (`event.sessionId`). */
  sessionId: string;
  /** The agent's id of this call (`itemId` of its `tool.started`). */
  callId: string;
}

/**
 * What a handler may return: a string (sent as text), `{ content: AppToolContent[] }` (content parts, sent as
 * they are), or any other JSON value (sent as its JSON text). `undefined` sends an empty text.
 */
export type AppToolReturn = unknown;

/** A tool as `defineTool` returns it: checked, frozen, its schema compiled. */
export interface AppTool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments: an object schema. */
  readonly inputSchema: JsonSchemaObject;
  readonly handler: (args: Args, context: AppToolContext) => AppToolReturn | Promise<AppToolReturn>;
}

/** Marks values made by `defineTool`, across copies of this package (`Symbol.for`). */
export const APP_TOOL = Symbol.for("rennet-adapters.app-tool");

/** The definition is not a usable tool (name, description, schema, handler). */
export class InvalidToolError extends RennetError<"TOOL_INVALID"> {
  override readonly name = "InvalidToolError";
  constructor(message: string) {
    super("TOOL_INVALID", message);
  }
}

/** Whether `value` was made by `defineTool` (of any copy of this package). */
export function isAppTool(value: unknown): value is AppTool {
  return isRecord(value) && (value as Record<symbol, unknown>)[APP_TOOL] === true;
}
