import { ClaudeCodeSessionClient } from "../../claude/client/claude-session-client.js";
import { openClaudeTurn, type RawClaudeTurnOptions } from "../claude-turn.js";
import { turnCommand } from "../turn-action.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";
import { loadToolModules } from "./tool-modules.js";

/** The flags of `rennet claude run`: the shared Claude turn options and `--tool`. */
export interface RawClaudeRunOptions extends RawClaudeTurnOptions {
  /** Every `--tool MODULE`, in order. */
  tool?: string[];
}

const COMMAND = "rennet claude run";

/** The action of `rennet claude run`; resolves with the exit code. Throws `UsageError` for a bad command line. */
export const runTurn = turnCommand<RawClaudeRunOptions>((raw, io) => ({
  command: COMMAND,
  words: CLAUDE_WORDS,
  output: "stream",
  prepare: async (options) => {
    const tools = await loadToolModules(raw.tool, io.cwd, COMMAND, {
      mcp: options.mcp,
      agent: "Claude Code",
    });
    return openClaudeTurn(io, options, raw, (clientOptions) => {
      const client = new ClaudeCodeSessionClient(clientOptions);
      return (call) => client.runStreamed(tools.length > 0 ? { ...call, tools } : call);
    });
  },
}));
