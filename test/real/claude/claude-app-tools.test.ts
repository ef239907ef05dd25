/**
 * App tools on the real claude, offline: Rennet registers its in-process MCP server with the `initialize`
 * control request and answers Claude's `mcp_message`s on the child's own stdio (no socket). The loopback model
 * calls the app tool by name, the handler gets the arguments, its answer (or its error, as `is_error`) is the
 * `tool_result` of the model's next request, a cancel aborts a slow handler, and nothing is left running.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessEvent } from "../../../src/harness/events.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import type { RecordedRequest } from "../../../src/testkit/model-response-plan.js";
import {
  deployTool,
  failingTicketTool,
  LOOKUP_ANSWER,
  lookupTicketTool,
  slowToolCancelling,
} from "../../helpers/app-tool-fixtures.js";
import { processExists } from "../../../src/process/process-exists.js";
import type { AppTool } from "../../../src/tools/app-tool.js";
import { defineTool } from "../../../src/tools/define-tool.js";
import { ClaudeSetups, collect, ofType, rennetTmpDirs, claudeUnderTest } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
afterEach(() => setups.dispose());

function appEvents(events: readonly HarnessEvent[]) {
  return events.filter(
    (e): e is Extract<HarnessEvent, { type: "tool.started" | "tool.completed" }> =>
      (e.type === "tool.started" || e.type === "tool.completed") && e.tool === "app",
  );
}

/**
 * The tool results the model was sent for one call (2.0.77 also sends "Warmup" requests, which the scenario
 * answers with the same tool call: look the call up by its id, not by the request's position).
 */
function resultsFor(requests: readonly RecordedRequest[], callId: string | undefined) {
  return requests.flatMap((r) => scenarios.toolResults(r)).filter((r) => r.toolUseId === callId);
}

function pidOf(events: readonly HarnessEvent[]): number {
  const pid = ofType(events, "session.started")[0]?.pid;
  expect(pid).toBeTypeOf("number");
  return pid as number;
}

/** One turn of a fresh Claude setup answered by `scenario`, with `tool` as the call's one app tool. */
async function runWithTools(
  scenario: Parameters<ClaudeSetups["create"]>[0],
  prompt: string,
  tool: AppTool<never>,
) {
  const s = await setups.create(scenario);
  const session = s.claude.runStreamed({ prompt, cwd: s.cwd, env: s.callEnv, tools: [tool] });
  const events = await collect(session.events);
  return { s, events, terminal: await session.result };
}

describe("real claude: app tools over the control channel", () => {
  it("the model calls an app tool: the handler gets the arguments, its answer reaches the next request", async () => {
    const lookup = lookupTicketTool();
    const s = await setups.create(scenarios.appTool("lookup_ticket", { ticket: "T-42" }, { then: "looked" }));
    const started = performance.now();
    const session = s.claude.runStreamed({
      prompt: "look up T-42",
      cwd: s.cwd,
      env: s.callEnv,
      tools: [lookup.tool],
    });
    const events = await collect(session.events);
    const terminal = await session.result;
    expect(terminal, JSON.stringify(terminal.failure)).toMatchObject({
      outcome: "completed",
      finalMessage: "looked",
    });
    // a host that left an mcp_message unanswered would cost 30–60 s before Claude's system/init
    expect(performance.now() - started).toBeLessThan(25_000);
    const app = appEvents(events);
    expect(app.map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    const callId = app[0]?.itemId;
    expect(lookup.calls).toEqual([{ args: { ticket: "T-42" }, sessionId: session.id, callId }]);
    expect(app[1]).toMatchObject({ status: "completed", app: { error: null, name: "lookup_ticket" } });
    expect(events.filter((e) => e.type.startsWith("tool.") && "tool" in e && e.tool !== "app")).toEqual([]);
    expect(resultsFor(s.model.messagesRequests(), callId)).toEqual([
      expect.objectContaining({
        toolUseId: callId,
        isError: false,
        text: JSON.stringify(LOOKUP_ANSWER),
      }),
    ]);
    const init = events.find((e) => e.type === "native" && e.method === "system/init");
    expect(init).toMatchObject({
      params: {
        mcp_servers: [{ name: "rennet", status: "connected" }],
        tools: expect.arrayContaining(["mcp__rennet__lookup_ticket"]),
      },
    });
    expect(processExists(pidOf(events))).toBe(false);
    expect(await rennetTmpDirs(s.home)).toEqual([]);
  });

  it("maxToolCalls: 0 stops at the first app tool call without running its handler", async () => {
    const { tool: deploy, ran } = deployTool();
    const s = await setups.create(scenarios.appTool("deploy", {}, { then: "never" }));
    const session = s.claude.runStreamed({
      prompt: "deploy",
      cwd: s.cwd,
      env: s.callEnv,
      tools: [deploy],
      limits: { maxToolCalls: 0 },
    });
    const events = await collect(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxToolCalls", value: 0, reached: 1 } },
    });
    expect(ran()).toBe(0);
    expect(appEvents(events).map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
  });

  it("a handler's throw is a tool error (is_error) the model reads; the turn completes", async () => {
    const { s, events, terminal } = await runWithTools(
      scenarios.appTool("lookup_ticket", { ticket: "T-1" }, { then: "sorry" }),
      "look up T-1",
      failingTicketTool(),
    );
    expect(terminal.outcome).toBe("completed");
    const callId = appEvents(events)[0]?.itemId;
    expect(resultsFor(s.model.messagesRequests(), callId)).toEqual([
      expect.objectContaining({
        isError: true,
        text: expect.stringContaining("Error: ticket service is down"),
      }),
    ]);
    expect(appEvents(events)[1]).toMatchObject({
      status: "failed",
      app: { error: "ticket service is down", result: null },
    });
  });

  it("an answer larger than Claude's output lines allow is cut and the turn completes", async () => {
    const dump = defineTool({
      name: "dump_log",
      description: "Dump the log",
      inputSchema: { type: "object" },
      handler: () => "x".repeat(20 * 1024 * 1024),
    });
    const { events, terminal } = await runWithTools(
      scenarios.appTool("dump_log", {}, { then: "read it" }),
      "dump the log",
      dump,
    );
    // Claude echoes the answer in one line of its output: uncut, that line is over Rennet's 16 MiB line cap
    expect(terminal.outcome).toBe("completed");
    const completed = appEvents(events)[1];
    const parts = completed?.type === "tool.completed" ? (completed.app?.result ?? []) : [];
    expect(parts.at(-1)).toMatchObject({
      text: expect.stringContaining("Rennet cut this result to 4.0 MiB of its 20.0 MiB"),
    });
  });

  it("a cancel aborts a slow handler through its signal; nothing is left running", async () => {
    const controller = new AbortController();
    const slow = slowToolCancelling(controller);
    const s = await setups.create(scenarios.appTool("slow_lookup", {}, { then: "never" }));
    const session = s.claude.runStreamed({
      prompt: "go slow",
      cwd: s.cwd,
      env: s.callEnv,
      tools: [slow.tool],
      signal: controller.signal,
    });
    const events = await collect(session.events);
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(slow.aborted()).toEqual(new Error("stop now"));
    const app = appEvents(events);
    expect(app.map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    expect(app[1]).toMatchObject({ status: "cancelled" });
    expect(events.indexOf(app[1]!)).toBeLessThan(events.length - 1);
    expect(processExists(pidOf(events))).toBe(false);
    expect(await rennetTmpDirs(s.home)).toEqual([]);
  });
});
