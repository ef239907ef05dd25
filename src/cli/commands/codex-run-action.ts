import { CodexSessionClient } from "../../codex/client/session-client.js";
import { turnCommand } from "../turn-action.js";
import type { RawTurnOptions } from "../turn-options.js";

/**
 * The action of `rennet codex run`; resolves with the exit code. Throws `UsageError` for a bad command line.
 * It drives the agentic client alone: a plain turn loads none of the utility executor's schema machinery.
 */
export const runTurn = turnCommand<RawTurnOptions>(() => ({
  command: "rennet codex run",
  harness: "codex",
  output: "stream",
  prepare: async () => (options) => {
    const client = new CodexSessionClient(options);
    return (call) => client.runStreamed(call);
  },
}));
