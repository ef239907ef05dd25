import { CodexClient } from "../../codex/client/codex-client.js";
import type { JsonSchemaObject } from "../../schema/json-schema.js";
import { prepareStructuredOutput } from "../../codex/schema/structured-output.js";
import type { CodexCallOptions } from "../../codex/client/call-options.js";
import type { HarnessSession } from "../../harness/session.js";
import type { ReasoningEffort } from "../../codex/client/reasoning-effort.js";
import { openCodexTurn } from "../codex-turn.js";
import { loadSchemaFile } from "../schema-file.js";
import { turnCommand } from "../turn-action.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import type { RawTurnOptions } from "../turn-options.js";

const COMMAND = "rennet codex exec";

/** `rennet codex exec` options as the command-line parser reads them. */
export interface RawExecOptions extends RawTurnOptions {
  schema: string;
  effort?: ReasoningEffort;
}

/** Codex sends the strict-mode form of the schema: one it cannot express is refused before anything starts. */
function checkStrictSchema(schema: JsonSchemaObject): void {
  prepareStructuredOutput(schema);
}

/** The action of `rennet codex exec`; resolves with the exit code. Throws `UsageError` for a bad command line. */
export const runTurn = turnCommand<RawExecOptions>((raw, io) => ({
  command: COMMAND,
  words: CODEX_WORDS,
  output: "value",
  prepare: async (options) => {
    const schema = await loadSchemaFile(raw.schema, io.cwd, COMMAND, checkStrictSchema);
    return openCodexTurn(io, options, (clientOptions) => {
      const client = new CodexClient(clientOptions);
      return (call: CodexCallOptions): HarnessSession =>
        client.utilityStreamed({
          ...call,
          schema,
          ...(raw.effort !== undefined ? { effort: raw.effort } : {}),
        });
    });
  },
}));
