/**
 * App tools on the real codex, offline: the loopback model calls an app tool by name, the handler runs in this
 * process with the model's arguments, and its answer (or its error) is the function_call_output of the model's
 * next request; a cancel aborts a slow handler; nothing is left running. Codex before 0.100 has no dynamic
 * tools: the session fails before any thread work with CODEX_UNSUPPORTED_VERSION.
 */
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { processExists } from "../../src/process/process-exists.js";
import { appToolCall, functionCallOutputs, hang, sequence } from "../../src/testkit/model-scenarios.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { collect } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const supported = codexCapabilities(testCodexVersion()).dynamicTools;

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const ticketSchema = {
  type: "object",
  properties: { ticket: { type: "string" }, verbose: { type: "boolean" } },
  required: ["ticket"],
  additionalProperties: false,
} as const;

function appPair(events: HarnessEvent[]) {
  const started = events.filter((e) => e.type === "tool.started" && e.tool === "app");
  const completed = events.filter((e) => e.type === "tool.completed" && e.tool === "app");
  return { started, completed };
}

function pidOf(events: HarnessEvent[]): number | null {
  const started = events.find((e) => e.type === "session.started");
  return started?.type === "session.started" ? started.pid : null;
}

describe.runIf(supported)("real codex: app tools", () => {
  it("the model calls an app tool: the handler gets the arguments, its answer reaches the next request", async () => {
    const received: unknown[] = [];
    const lookup = defineTool({
      name: "lookup_ticket",
      description: "Look up a ticket",
      inputSchema: ticketSchema,
      handler: (args, { sessionId }) => {
        received.push({ args, sessionId });
        return { ticket: args.ticket, title: "Fix the flaky test" };
      },
    });
    fixture = await startRealCodex(
      appToolCall("lookup_ticket", { ticket: "T-42" }, { then: "looked it up" }),
    );
    const session = fixture.client.runStreamed({ prompt: "look up T-42", cwd: fixture.cwd, tools: [lookup] });
    const { events, terminal } = await collect(session);
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "looked it up" });
    expect(received).toEqual([{ args: { ticket: "T-42" }, sessionId: session.id }]);
    const requests = fixture.model.responsesRequests();
    expect(functionCallOutputs(requests.at(-1))).toEqual([
      { callId: "call_0", output: JSON.stringify({ ticket: "T-42", title: "Fix the flaky test" }) },
    ]);
    const { started, completed } = appPair(events);
    expect(started).toHaveLength(1);
    expect(completed).toHaveLength(1);
    expect(started[0]).toMatchObject({
      itemId: "call_0",
      app: { name: "lookup_ticket", arguments: { ticket: "T-42" } },
    });
    expect(completed[0]).toMatchObject({ status: "completed", app: { error: null } });
    expect(events.indexOf(completed[0]!)).toBeLessThan(events.length - 1);
    const pid = pidOf(events);
    expect(pid).not.toBeNull();
    expect(processExists(pid!)).toBe(false);
  });

  it("a handler's throw comes back to the model as a tool error; the turn completes", async () => {
    const failing = defineTool({
      name: "lookup_ticket",
      description: "Look up a ticket",
      inputSchema: ticketSchema,
      handler: () => {
        throw new Error("ticket service is down");
      },
    });
    fixture = await startRealCodex(appToolCall("lookup_ticket", { ticket: "T-1" }, { then: "sorry" }));
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "look up T-1", cwd: fixture.cwd, tools: [failing] }),
    );
    expect(terminal.outcome).toBe("completed");
    expect(functionCallOutputs(fixture.model.responsesRequests().at(-1))).toEqual([
      { callId: "call_0", output: "Error: ticket service is down" },
    ]);
    expect(appPair(events).completed[0]).toMatchObject({
      status: "failed",
      app: { error: "ticket service is down", result: null },
    });
  });

  it("arguments that do not fit the schema never reach the handler; the model is told why", async () => {
    let calls = 0;
    const strict = defineTool({
      name: "lookup_ticket",
      description: "Look up a ticket",
      inputSchema: ticketSchema,
      handler: () => ++calls,
    });
    fixture = await startRealCodex(appToolCall("lookup_ticket", { ticket: 7 }, { then: "retry later" }));
    const { terminal } = await collect(
      fixture.client.runStreamed({ prompt: "look up 7", cwd: fixture.cwd, tools: [strict] }),
    );
    expect(terminal.outcome).toBe("completed");
    expect(calls).toBe(0);
    const [output] = functionCallOutputs(fixture.model.responsesRequests().at(-1));
    expect(output?.output).toMatch(/^Error: invalid arguments for lookup_ticket: \/ticket must be string/);
  });

  it("a cancel aborts a slow handler through its signal, and no process is left", async () => {
    let aborted: unknown = null;
    const slow = defineTool({
      name: "slow_lookup",
      description: "Takes forever",
      inputSchema: { type: "object" },
      handler: (_args, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => {
            aborted = signal.reason;
            reject(signal.reason as Error);
          });
        }),
    });
    fixture = await startRealCodex(sequence([appToolCall("slow_lookup", {}, { then: "never" }), hang()]));
    const controller = new AbortController();
    const session = fixture.client.runStreamed({
      prompt: "go slow",
      cwd: fixture.cwd,
      tools: [slow],
      signal: controller.signal,
    });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) {
      events.push(event);
      if (event.type === "tool.started" && event.tool === "app") controller.abort(new Error("stop now"));
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(aborted).toEqual(new Error("stop now"));
    const { started, completed } = appPair(events);
    expect(started).toHaveLength(1);
    expect(completed).toEqual([expect.objectContaining({ status: "cancelled" })]);
    expect(events.indexOf(completed[0]!)).toBeLessThan(events.length - 1);
    expect(processExists(pidOf(events)!)).toBe(false);
  });
});

describe.runIf(!supported)("real codex without dynamic tools", () => {
  it("refuses a call with tools before any thread work", async () => {
    const tool = defineTool({
      name: "t",
      description: "d",
      inputSchema: { type: "object" },
      handler: () => "",
    });
    fixture = await startRealCodex(hang());
    const { terminal } = await collect(
      fixture.client.runStreamed({ prompt: "x", cwd: fixture.cwd, tools: [tool] }),
    );
    expect(terminal).toMatchObject({ outcome: "failed", failure: { code: "CODEX_UNSUPPORTED_VERSION" } });
    expect(fixture.sent("thread/start")).toEqual([]);
  });
});
