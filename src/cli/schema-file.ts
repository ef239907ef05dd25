import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import { UsageError } from "./usage-error.js";

/**
 * Reads and checks the `--schema` file of `command` (relative to `baseCwd`, the user's shell directory): it must
 * hold one JSON object (after an optional UTF-8 byte order mark), which `check` accepts (it throws `SCHEMA_INVALID` or `SCHEMA_UNSUPPORTED` for a schema the
 * harness cannot use). Throws {@link UsageError} naming the file and the fix.
 */
export async function loadSchemaFile(
  file: string,
  baseCwd: string,
  command: string,
  check: (schema: JsonSchemaObject) => void,
): Promise<JsonSchemaObject> {
  if (file === "") throw new UsageError("--schema is empty: give the path of a JSON Schema file", command);
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
      command,
    );
  }
  let schema: unknown;
  try {
    // a UTF-8 byte order mark (Windows editors write one) is not part of the JSON; RFC 8259 lets a reader ignore it
    schema = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new UsageError(
      `--schema ${file}: not valid JSON (${(error as Error).message}); the file must hold one JSON Schema object`,
      command,
    );
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError(
      `--schema ${file}: the file holds ${Array.isArray(schema) ? "an array" : JSON.stringify(schema)}, not a JSON Schema object; write an object schema such as {"type":"object","properties":{…}}`,
      command,
    );
  }
  try {
    check(schema as JsonSchemaObject);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "SCHEMA_INVALID" || code === "SCHEMA_UNSUPPORTED") {
      throw new UsageError(`--schema ${file}: ${(error as Error).message}`, command);
    }
    throw error;
  }
  return schema as JsonSchemaObject;
}
