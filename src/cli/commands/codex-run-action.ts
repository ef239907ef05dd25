import { CodexSessionClient } from "../../codex/client/session-client.js";
import type { ResolvedCliIo } from "../cli-io.js";
import type { RendererFactory } from "../event-renderer.js";
import { runTurnAction, type TurnAction } from "../turn-action.js";
import type { RawTurnOptions } from "../turn-options.js";

const COMMAND = "rennet codex run";

/**
 * The action of `rennet codex run`; resolves with the exit code. Throws `UsageError` for a bad command line.
 * It drives the agentic client alone: a plain turn loads none of the utility executor's schema machinery.
 */
export async function runCodexRun(
  promptArgument: string,
  raw: RawTurnOptions,
  io: ResolvedCliIo,
  renderer: RendererFactory,
): Promise<number> {
  const action: TurnAction = {
    command: COMMAND,
    harness: "codex",
    output: "stream",
    prepare: async () => (options) => {
      const client = new CodexSessionClient(options);
      return (call) => client.runStreamed(call);
    },
  };
  return runTurnAction(action, promptArgument, raw, io, renderer);
}
