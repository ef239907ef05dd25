/**
 * The app tools both harnesses' real app-tool tests hand to a turn: the same proof runs on codex and on claude
 * with the same tools, so a change to what a tool sees or answers reaches both.
 */
import { defineTool } from "../../src/tools/define-tool.js";

export const TICKET_SCHEMA = {
  type: "object",
  properties: { ticket: { type: "string" }, verbose: { type: "boolean" } },
  required: ["ticket"],
  additionalProperties: false,
} as const;

/** What `lookup_ticket` answers for ticket `T-42`. */
export const LOOKUP_ANSWER = { ticket: "T-42", title: "Fix the flaky test" };

/** `lookup_ticket`, recording each call's arguments, session id and call id in `calls`. */
export function lookupTicketTool() {
  const calls: { args: unknown; sessionId: string; callId: string }[] = [];
  const tool = defineTool({
    name: "lookup_ticket",
    description: "Look up a ticket",
    inputSchema: TICKET_SCHEMA,
    handler: (args, { sessionId, callId }) => {
      calls.push({ args, sessionId, callId });
      return { ticket: args.ticket, title: LOOKUP_ANSWER.title };
    },
  });
  return { tool, calls };
}

/** `lookup_ticket` whose handler throws `ticket service is down`. */
export function failingTicketTool() {
  return defineTool({
    name: "lookup_ticket",
    description: "Look up a ticket",
    inputSchema: TICKET_SCHEMA,
    handler: () => {
      throw new Error("ticket service is down");
    },
  });
}

/**
 * `slow_lookup`, whose handler never answers: 50 ms after it starts it aborts `controller` (the app cancels while
 * the handler runs) and records the reason its own signal is aborted with, read with `aborted()`.
 */
export function slowToolCancelling(controller: AbortController) {
  let aborted: unknown = null;
  const tool = defineTool({
    name: "slow_lookup",
    description: "Takes forever",
    inputSchema: { type: "object" },
    handler: (_args, { signal }) =>
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => {
          aborted = signal.reason;
          reject(signal.reason as Error);
        });
        setTimeout(() => controller.abort(new Error("stop now")), 50);
      }),
  });
  return { tool, aborted: () => aborted };
}

/** `deploy`, a tool with a side effect: `ran()` is how many times its handler has run. */
export function deployTool() {
  let runs = 0;
  const tool = defineTool({
    name: "deploy",
    description: "Has a side effect",
    inputSchema: { type: "object" },
    handler: () => (runs++, "deployed"),
  });
  return { tool, ran: () => runs };
}
