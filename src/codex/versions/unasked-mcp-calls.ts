/**
 * Codex before 0.117 calls an MCP server's tool without asking, whatever the approval policy: with `approvals`
 * routed to the app, such a call runs without the app hearing of it. A session on such a codex, with MCP servers
 * that may start (the user's inherited ones, or an explicit policy's), says so in a `warning` event.
 */
import type { EventBase, WarningEvent } from "../../harness/events.js";

/** The `method` of that `warning` event. */
const MCP_CALLS_UNASKED_WARNING = "rennet/mcpToolCallsUnasked";

/** The warning for a session on `codexVersion` (one without `mcpToolCallApprovals`; null: not reported). Pure. */
export function mcpCallsUnaskedWarning(codexVersion: string | null): Omit<WarningEvent, keyof EventBase> {
  return {
    type: "warning",
    method: MCP_CALLS_UNASKED_WARNING,
    message:
      `codex ${codexVersion ?? "(version not reported)"} calls MCP server tools without asking: the app's approval handler is not asked ` +
      `about them (codex asks from 0.117; or start no MCP server with an explicit mcp policy of no servers)`,
    native: { codexVersion },
  };
}
