import { CodexSessionClient } from "../../codex/client/session-client.js";
import { openCodexTurn } from "../codex-turn.js";
import { turnCommand } from "../turn-action.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import type { RawTurnOptions } from "../turn-options.js";

/**
 * The action of `rennet codex run`; resolves with the exit code. Throws `UsageError` for a bad command line.
 * It drives the agentic client alone: a plain turn loads none of the utility executor's schema machinery.
 */
export const runTurn = turnCommand<RawTurnOptions>((_raw, io) => ({
  command: "rennet codex run",
  words: CODEX_WORDS,
  output: "stream",
  prepare: async () => (options) =>
    openCodexTurn(io, options, (clientOptions) => {
      const client = new CodexSessionClient(clientOptions);
      return (call) => client.runStreamed(call);
    }),
}));
