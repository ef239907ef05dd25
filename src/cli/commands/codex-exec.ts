import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { JsonSchemaObject } from "../../codex/schema/json-schema.js";
import { prepareStructuredOutput } from "../../codex/schema/structured-output.js";
import {
  REASONING_EFFORTS,
  type ReasoningEffort,
  validateReasoningEffort,
} from "../../codex/utility-executor.js";
import type { ResolvedCliIo } from "../cli-io.js";
import type { CommandContext } from "../command-context.js";
import { runTurnAction, type TurnAction } from "../turn-action.js";
import { ENVIRONMENT_HELP, EXIT_CODES_HELP, helpEpilogue } from "../help-text.js";
import { addTurnOptions, type RawTurnOptions } from "../turn-options.js";
import { UsageError } from "../usage-error.js";

const COMMAND = "rennet codex exec";

const OUTPUT_HELP = [
  "Output:",
  "  default  the answer, valid against the schema, as one line of JSON on stdout (optional properties the",
  "           model left null are removed); nothing else on stdout. Errors and warnings go to stderr: an",
  "           answer that is not JSON or breaks the schema names the first violations and quotes the start",
  "           of the text (exit 1)",
  "  --json   one harness event per line on stdout (see docs/events.md), ending with the `terminal` event,",
  "           which carries the value as `structuredOutput` when the call completed",
].join("\n");

const SCHEMA_HELP = [
  "Schema:",
  '  an ordinary JSON Schema (draft-07, 2019-09 or 2020-12) whose root is `type: "object"`. Rennet converts',
  "  it to OpenAI strict mode for the model (optional properties become required and nullable, objects get",
  "  additionalProperties:false) and validates the answer against your schema as written. A file that cannot",
  "  be read, is not JSON, or uses what strict mode cannot express (oneOf, allOf, free-form maps, …) is a",
  "  usage error (exit 2). See docs/structured-output.md.",
].join("\n");

const EFFORT_HELP = [
  "Reasoning effort:",
  `  ${REASONING_EFFORTS.join(", ")}. Sent for this call only (turn/start.effort); without`,
  "  --effort the model's default applies. Which levels a model honours depends on the model.",
].join("\n");

const EXEC_EXIT_CODES_HELP = `${EXIT_CODES_HELP}\n  (exit 2 also: missing, unreadable or invalid --schema file; unknown --effort level)`;

const EXAMPLES_HELP = [
  "Examples:",
  '  $ rennet codex exec --schema summary.schema.json "summarize README.md"',
  "  $ rennet codex exec --schema tasks.json --effort low --cwd ~/src/app \"list the TODOs\" | jq '.tasks[]'",
  "  $ cat question.md | rennet codex exec --schema answer.json --json - > events.jsonl",
].join("\n");

/** `rennet codex exec` options as commander parses them. */
export interface RawExecOptions extends RawTurnOptions {
  schema: string;
  effort?: ReasoningEffort;
}

/** Commander argument parser for `--effort`: a usage error (exit 2) naming the accepted levels. */
export function parseEffortOption(value: string): ReasoningEffort {
  try {
    return validateReasoningEffort(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** `rennet codex exec --schema FILE [options] <prompt>`: one structured Codex call, printed as JSON. */
export function registerCodexExec(parent: Command, context: CommandContext): void {
  const command = parent
    .command("exec")
    .summary("run one Codex call whose answer is JSON matching a schema")
    .description(
      "Run one Codex call whose final answer is a JSON value matching --schema, and print that value. The " +
        "model is held to the schema (OpenAI strict structured output) and the answer is validated again " +
        "locally. Like `codex run`, the turn has full access, never waits for approval, and the thread is " +
        "ephemeral.",
    )
    .argument("<prompt>", "the prompt, as one quoted argument; `-` reads the whole prompt from stdin")
    .requiredOption("--schema <file>", "JSON Schema file the answer must match (root type object)")
    .option(
      "--effort <level>",
      `reasoning effort for this call: ${REASONING_EFFORTS.join(", ")} (default: the model's)`,
      parseEffortOption,
    );
  addTurnOptions(command)
    .addHelpText(
      "after",
      helpEpilogue(
        OUTPUT_HELP,
        SCHEMA_HELP,
        EFFORT_HELP,
        EXEC_EXIT_CODES_HELP,
        ENVIRONMENT_HELP,
        EXAMPLES_HELP,
      ),
    )
    .action(async (prompt: string, raw: RawExecOptions) => {
      context.setExitCode(await runCodexExec(prompt, raw, context.io));
    });
}

/**
 * Reads and checks the `--schema` file (relative to `baseCwd`, the user's shell directory): it must be JSON,
 * a valid JSON Schema and expressible in strict mode. Throws {@link UsageError} naming the file and the fix.
 */
export async function loadSchemaFile(file: string, baseCwd: string): Promise<JsonSchemaObject> {
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
export async function runCodexExec(
  promptArgument: string,
  raw: RawExecOptions,
  io: ResolvedCliIo,
): Promise<number> {
  const action: TurnAction = {
    command: COMMAND,
    output: "value",
    prepare: async () => {
      const schema = await loadSchemaFile(raw.schema, io.cwd);
      return (client, call) =>
        client.utilityStreamed({
          ...call,
          schema,
          ...(raw.effort !== undefined ? { effort: raw.effort } : {}),
        });
    },
  };
  return runTurnAction(action, promptArgument, raw, io);
}
