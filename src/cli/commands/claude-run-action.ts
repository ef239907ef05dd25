import { ClaudeCodeClient } from "../../claude/client/claude-client.js";
import { openClaudeTurn, type RawClaudeTurnOptions } from "../claude-turn.js";
import { turnCommand } from "../turn-action.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";

/** The action of `rennet claude run`; resolves with the exit code. Throws `UsageError` for a bad command line. */
export const runTurn = turnCommand<RawClaudeTurnOptions>((raw, io) => ({
  command: "rennet claude run",
  words: CLAUDE_WORDS,
  output: "stream",
  prepare: async () => (options) =>
    openClaudeTurn(io, options, raw, (clientOptions) => {
      const client = new ClaudeCodeClient(clientOptions);
      return (call) => client.runStreamed(call);
    }),
}));
