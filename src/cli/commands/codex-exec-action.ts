import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CodexClient } from "../../codex/client/codex-client.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { prepareStructuredOutput } from "../../codex/schema/structured-output.js";
import type { CodexCallOptions } from "../../codex/client/call-options.js";
import type { HarnessSession } from "../../harness/session.js";
import type { ReasoningEffort } from "../../codex/client/reasoning-effort.js";
import { turnCommand } from "../turn-action.js";
import type { RawTurnOptions } from "../turn-options.js";
import { UsageError } from "../usage-error.js";

const COMMAND = "rennet codex exec";

/** `rennet codex exec` options as the command-line parser reads them. */
export interface RawExecOptions extends RawTurnOptions {
  schema: string;
  effort?: ReasoningEffort;
}

/**
 * Reads and checks the `--schema` file (relative to `baseCwd`, the user's shell directory): it must be JSON,
 * a valid JSON Schema and expressible in strict mode. Throws {@link UsageError} naming the file and the fix.
 */
async function loadSchemaFile(file: string, baseCwd: string): Promise<JsonSchemaObject> {
  if (file === "") throw new UsageError("--schema is empty: give the path of a JSON Schema file", COMMAND);
  const path = resolve(baseCwd, file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : (code ?? (error as Error).message);
    throw new UsageError(
      `--schema ${file}: cannot read ${path} (${why}); pass the path of a JSON Schema file`,
      COMMAND,
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--schema ${file}: not valid JSON (${(error as Error).message}); the file must hold one JSON Schema object`,
      COMMAND,
    );
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError(
      `--schema ${file}: the file holds ${Array.isArray(schema) ? "an array" : JSON.stringify(schema)}, not a JSON Schema object; write an object schema such as {"type":"object","properties":{…}}`,
      COMMAND,
    );
  }
  try {
    prepareStructuredOutput(schema as JsonSchemaObject);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "SCHEMA_INVALID" || code === "SCHEMA_UNSUPPORTED") {
      throw new UsageError(`--schema ${file}: ${(error as Error).message}`, COMMAND);
    }
    throw error;
  }
  return schema as JsonSchemaObject;
}

/** The action of `rennet codex exec`; resolves with the exit code. Throws `UsageError` for a bad command line. */
export const runTurn = turnCommand<RawExecOptions>((raw, io) => ({
  command: COMMAND,
  harness: "codex",
  output: "value",
  prepare: async () => {
    const schema = await loadSchemaFile(raw.schema, io.cwd);
    return (options) => {
      const client = new CodexClient(options);
      return (call: CodexCallOptions): HarnessSession =>
        client.utilityStreamed({
          ...call,
          schema,
          ...(raw.effort !== undefined ? { effort: raw.effort } : {}),
        });
    };
  },
}));
