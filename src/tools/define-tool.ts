/**
 * An app tool: a function of the app, offered to the agent for one session, run in the app's own process when
 * the agent calls it. See docs/app-tools.md.
 */
import { didYouMean } from "../did-you-mean.js";
import { isRecord } from "../json-record.js";
import type { InferSchema } from "../schema/infer-schema.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import { compileSchemaValidator } from "../schema/schema-validator.js";
import {
  APP_TOOL,
  InvalidToolError,
  type AppTool,
  type AppToolContext,
  type AppToolReturn,
} from "./app-tool.js";

export { InvalidToolError } from "./app-tool.js";
export type { AppTool, AppToolContext, AppToolReturn } from "./app-tool.js";

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

/** The fields of a tool definition. */
const DEFINITION_KEYS: readonly string[] = ["name", "description", "inputSchema", "handler"];

/** Names other tool APIs use for a field of the definition: the field, by name. */
const KEY_ALIASES: ReadonlyMap<string, string> = new Map([
  ["parameters", "inputSchema"],
  ["input_schema", "inputSchema"],
  ["schema", "inputSchema"],
  ["execute", "handler"],
  ["run", "handler"],
]);

/**
 * Checks a tool definition and returns it frozen. Throws `InvalidToolError` (`TOOL_INVALID`) for a field it does
 * not know (naming the field to use: `parameters` → `inputSchema`, `execute` → `handler`), a bad name,
 * description, handler or a schema that is not an object schema, and `InvalidSchemaError` (`SCHEMA_INVALID`)
 * for a schema that is not valid JSON Schema. A schema written inline (or `as const`) types the handler's `args`.
 */
export function defineTool<const S extends JsonSchemaObject>(
  definition: AppToolDefinition<S>,
): AppTool<InferSchema<S>> {
  if (!isRecord(definition)) throw new InvalidToolError("defineTool(definition): give an object");
  const { name, description, inputSchema, handler } = definition;
  const unknown = Object.keys(definition).filter((key) => !DEFINITION_KEYS.includes(key));
  if (unknown.length > 0) {
    const key = unknown[0] as string;
    const instead = KEY_ALIASES.get(key);
    const meant = instead === undefined ? didYouMean(key, DEFINITION_KEYS) : null;
    throw new InvalidToolError(
      `defineTool(definition): unknown field "${key}"` +
        (instead !== undefined ? `: use ${instead}` : meant !== null ? `: did you mean ${meant}?` : "") +
        ` (fields: ${DEFINITION_KEYS.join(", ")})`,
    );
  }
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
