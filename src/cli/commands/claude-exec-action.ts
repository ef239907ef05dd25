import { ClaudeCodeClient } from "../../claude/client/claude-client.js";
import { prepareClaudeStructuredOutput } from "../../claude/client/claude-structured-output.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { openClaudeTurn, type RawClaudeTurnOptions } from "../claude-turn.js";
import { loadSchemaFile } from "../schema-file.js";
import { turnCommand } from "../turn-action.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";

const COMMAND = "rennet claude exec";

/** `rennet claude exec` options as the command-line parser reads them. */
export interface RawClaudeExecOptions extends RawClaudeTurnOptions {
  schema: string;
}

/** Claude Code takes the schema as written; one the validator cannot compile is refused before anything starts. */
function checkSchema(schema: JsonSchemaObject): void {
  prepareClaudeStructuredOutput(schema);
}

/** The action of `rennet claude exec`; resolves with the exit code. Throws `UsageError` for a bad command line. */
export const runTurn = turnCommand<RawClaudeExecOptions>((raw, io) => ({
  command: COMMAND,
  words: CLAUDE_WORDS,
  output: "value",
  prepare: async (options) => {
    const schema = await loadSchemaFile(raw.schema, io.cwd, COMMAND, checkSchema);
    return openClaudeTurn(io, options, raw, (clientOptions) => {
      const client = new ClaudeCodeClient(clientOptions);
      return (call) => client.utilityStreamed({ ...call, schema });
    });
  },
}));
