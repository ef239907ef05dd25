// Claude Code turns inside a running application through Rennet's library, the raw stream-json client's turn
// function and the Agent SDK's `query()` (./in-process-turns.js).
import { TURN_PROMPT } from "../real-turn-env.js";
import { inProcessFigure, inProcessTurnTimes } from "./in-process-turns.js";

/** The in-process figures on `claude` in the group's environment `real`; `sdkEntry` null skips the SDK rows. */
export async function claudeSessionsInProcess(ctx, claude, sdkEntry, real) {
  const client = (kind) => ({ kind, bin: claude, prompt: TURN_PROMPT, env: real.env });
  const times = await inProcessTurnTimes(
    ctx,
    {
      rennet: client("claude-rennet"),
      raw: client("claude-raw"),
      ...(sdkEntry ? { sdk: { ...client("claude-sdk"), sdkEntry } } : {}),
    },
    real.cwd,
  );
  const sdkLabel = "Agent SDK query(), same claude";
  return [
    inProcessFigure(times, {
      key: "claude.sessions.vsRawClient",
      label: "Claude turn in a running app: rennet library vs raw stream-json client",
      name: "rennet",
      baselineLabel: "raw client's turn function",
      baseline: "raw",
    }),
    ...(sdkEntry
      ? [
          inProcessFigure(times, {
            key: "claude.sessions.vsAgentSdk",
            label: "Claude turn in a running app: rennet library vs Agent SDK query()",
            name: "rennet",
            baselineLabel: sdkLabel,
            baseline: "sdk",
          }),
          inProcessFigure(times, {
            key: "claude.sessions.rawClientVsAgentSdk",
            label: "Claude turn in a running app: raw client vs Agent SDK query()",
            name: "raw",
            baselineLabel: sdkLabel,
            baseline: "sdk",
          }),
        ]
      : []),
  ];
}
