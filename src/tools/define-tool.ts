/**
 * An app tool: a function of the app, offered to the agent for one session, run in the app's own process when
 * the agent calls it. See docs/app-tools.md.
 */
import { RennetError } from "../errors.js";
import { isRecord } from "../json-record.js";
import type { InferSchema } from "../schema/infer-schema.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import { compileSchemaValidator } from "../schema/schema-validator.js";

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

/** A tool as {@link defineTool} returns it: checked, frozen, its schema compiled. */
export interface AppTool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments: an object schema. */
  readonly inputSchema: JsonSchemaObject;
  readonly handler: (args: Args, context: AppToolContext) => AppToolReturn | Promise<AppToolReturn>;
}

/** What {@link defineTool} takes. */
export interface AppToolDefinition<S extends JsonSchemaObject> {
  /** 1–64 characters of `A–Z a–z 0–9 _ -` (what every agent's tool names allow). */
  name: string;
  /** What the tool does, for the model. Non-empty. */
  description: string;
  /** JSON Schema of the arguments, `type: "object"` (a zod or TypeBox schema: pass its JSON Schema form). */
  inputSchema: S;
  /** Runs the call; arguments have been validated against `inputSchema`. A throw becomes a tool error. */
  handler(args: InferSchema<S>, context: AppToolContext): AppToolReturn | Promise<AppToolReturn>;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Marks values made by {@link defineTool}, across copies of this package (`Symbol.for`). */
const APP_TOOL = Symbol.for("rennet-adapters.app-tool");

/** The definition is not a usable tool (name, description, schema, handler). */
export class InvalidToolError extends RennetError<"TOOL_INVALID"> {
  override readonly name = "InvalidToolError";
  constructor(message: string) {
    super("TOOL_INVALID", message);
  }
}

/**
 * Checks a tool definition and returns it frozen. Throws `InvalidToolError` (`TOOL_INVALID`) for a bad name,
 * description, handler or a schema that is not an object schema, and `InvalidSchemaError` (`SCHEMA_INVALID`)
 * for a schema that is not valid JSON Schema. A schema written inline (or `as const`) types the handler's `args`.
 */
export function defineTool<const S extends JsonSchemaObject>(
  definition: AppToolDefinition<S>,
): AppTool<InferSchema<S>> {
  if (!isRecord(definition)) throw new InvalidToolError("defineTool(definition): give an object");
  const { name, description, inputSchema, handler } = definition;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new InvalidToolError(
      `tool name ${JSON.stringify(name)} is invalid: use 1–64 characters of A–Z, a–z, 0–9, _ and -`,
    );
  }
  if (typeof description !== "string" || description.trim() === "")
    throw new InvalidToolError(`tool ${name}: description must be a non-empty string`);
  if (typeof handler !== "function") throw new InvalidToolError(`tool ${name}: handler must be a function`);
  if (!isRecord(inputSchema) || inputSchema.type !== "object") {
    throw new InvalidToolError(
      `tool ${name}: inputSchema must be a JSON Schema object with type "object" (arguments are always an object)`,
    );
  }
  compileSchemaValidator(inputSchema, `Tool ${name}'s inputSchema`);
  const tool: AppTool<InferSchema<S>> = {
    name,
    description,
    inputSchema,
    handler: handler.bind(definition) as AppTool<InferSchema<S>>["handler"],
  };
  Object.defineProperty(tool, APP_TOOL, { value: true });
  return Object.freeze(tool);
}

/** Whether `value` was made by {@link defineTool} (of any copy of this package). */
export function isAppTool(value: unknown): value is AppTool {
  return isRecord(value) && (value as Record<symbol, unknown>)[APP_TOOL] === true;
}
