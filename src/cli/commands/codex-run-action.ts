import { checkCodexToolNames } from "../../codex/client/codex-tool-names.js";
import { CodexSessionClient } from "../../codex/client/session-client.js";
import { openCodexTurn } from "../codex-turn.js";
import { turnCommand } from "../turn-action.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import type { RawTurnOptions } from "../turn-options.js";
import { loadToolModules } from "./tool-modules.js";

/** The flags of `rennet codex run`: the shared turn options and `--tool`. */
export interface RawRunOptions extends RawTurnOptions {
  /** Every `--tool MODULE`, in order. */
  tool?: string[];
}

const COMMAND = "rennet codex run";

/**
 * The action of `rennet codex run`; resolves with the exit code. Throws `UsageError` for a bad command line.
 * It drives the agentic client alone: a plain turn loads none of the utility executor's schema machinery.
 */
export const runTurn = turnCommand<RawRunOptions>((raw, io) => ({
  command: COMMAND,
  words: CODEX_WORDS,
  output: "stream",
  prepare: async (options) => {
    const tools = await loadToolModules(raw.tool, io.cwd, COMMAND, {
      mcp: options.mcp,
      agent: "codex before 0.100",
      checkNames: checkCodexToolNames,
    });
    return openCodexTurn(io, options, (clientOptions) => {
      const client = new CodexSessionClient(clientOptions);
      return (call) => client.runStreamed(tools.length > 0 ? { ...call, tools } : call);
    });
  },
}));
