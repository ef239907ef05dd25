/**
 * App tools against the in-memory fake app-server: the tools offered at thread/start, each item/tool/call run
 * in this process and answered, the tool.* pair of kind app, tool errors (invalid arguments, a throw, an unknown
 * tool) that never fail the turn, and a cancel that aborts a slow handler.
 */
import { Server } from "node:net";
import { describe, expect, it, vi } from "vitest";

const realListen = Server.prototype.listen;
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { defineTool, type AppTool } from "../../src/tools/define-tool.js";
import { fakeSteps, type FakeStep } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { deployTool } from "../helpers/app-tool-fixtures.js";
import { collect, ofType } from "../helpers/collect.js";
import { commandStartedThenWaiting } from "../helpers/fake-codex-turns.js";

const lookup = defineTool({
  name: "lookup",
  description: "Look up a ticket by id",
  inputSchema: {
    type: "object",
    properties: { ticket: { type: "string" } },
    required: ["ticket"],
    additionalProperties: false,
  },
  handler: ({ ticket }) => ({ ticket, title: `Title of ${ticket}` }),
});

const failing = defineTool({
  name: "failing",
  description: "Always throws",
  inputSchema: { type: "object" },
  handler: () => {
    throw new Error("ticket service is down");
  },
});

function toolTurn(...calls: FakeStep[][]): FakeStep[] {
  const [started, ...rest] = fakeSteps.textTurn("done");
  return [started!, ...calls.flat(), ...rest];
}

function replyTo(fake: InMemoryAppServer, id: number): Record<string, unknown> | undefined {
  return fake.peer.received.find((f) => f.id === id && !("method" in f));
}

function run(fake: InMemoryAppServer, tools: readonly AppTool<never>[], signal?: AbortSignal) {
  return createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    tools,
    timeouts: { turnMs: 5_000 },
    ...(signal ? { signal } : {}),
  });
}

/** The loopback server's secret from `thread/start`'s config (its `Authorization` header). */
function secretOf(config: unknown): string {
  const header = JSON.stringify((config as { mcp_servers?: unknown }).mcp_servers ?? {});
  return /"Bearer ([0-9a-f]{64})"/.exec(header)?.[1] ?? "no secret";
}

function appEvents(events: HarnessEvent[]) {
  return events.filter((e) => (e.type === "tool.started" || e.type === "tool.completed") && e.tool === "app");
}

describe("app tools over codex's dynamic tools", () => {
  it("a call codex sends while the turn is being cancelled never runs its handler; codex gets an error", async () => {
    const { tool: deploy, ran } = deployTool();
    // a limit stops the turn at a command's tool.started; the app tool's call is already on its way
    const fake = new InMemoryAppServer({
      turn: commandStartedThenWaiting(),
      onInterrupt: [
        ...fakeSteps.appToolCall(0, "deploy", {}, { items: false }),
        fakeSteps.turnCompleted("interrupted"),
      ],
    });
    const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
      prompt: "hi",
      tools: [deploy],
      limits: { maxToolCalls: 0 },
    });
    const { events, terminal } = await collect(session);
    expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name: "maxToolCalls" } });
    expect(ran()).toBe(0);
    expect(replyTo(fake, 0)).toMatchObject({ result: { success: false } });
    expect(appEvents(events).map((e) => [e.type, "status" in e ? e.status : null])).toEqual([
      ["tool.started", null],
      ["tool.completed", "cancelled"],
    ]);
  });

  it("offers the tools at thread/start with the experimental API declared, and serves a call", async () => {
    const fake = new InMemoryAppServer({
      turn: toolTurn(fakeSteps.appToolCall(0, "lookup", { ticket: "T-1" })),
    });
    const { events, terminal } = await collect(run(fake, [lookup]));
    expect(terminal.outcome).toBe("completed");
    const init = fake.peer.requestsOf("initialize")[0] as { params: Record<string, unknown> };
    expect(init.params.capabilities).toEqual({ experimentalApi: true });
    const start = fake.peer.requestsOf("thread/start")[0] as { params: Record<string, unknown> };
    expect(start.params.dynamicTools).toEqual([
      { type: "function", name: "lookup", description: lookup.description, inputSchema: lookup.inputSchema },
    ]);
    expect(replyTo(fake, 0)).toMatchObject({
      result: {
        contentItems: [{ type: "inputText", text: JSON.stringify({ ticket: "T-1", title: "Title of T-1" }) }],
        success: true,
      },
    });
    const [started, completed] = appEvents(events);
    expect(started).toMatchObject({ type: "tool.started", itemId: "call_0", title: "lookup" });
    expect(started).toMatchObject({ app: { name: "lookup", arguments: { ticket: "T-1" } } });
    expect(completed).toMatchObject({
      type: "tool.completed",
      itemId: "call_0",
      status: "completed",
      app: { name: "lookup", error: null, result: [{ type: "text", text: expect.stringContaining("T-1") }] },
    });
    expect(completed?.type === "tool.completed" && completed.app?.durationMs).toBeGreaterThanOrEqual(0);
    // codex's own dynamicToolCall items are kept as item events, not a second tool pair
    expect(ofType(events, "item").map((e) => e.itemType)).toContain("dynamicToolCall");
    expect(ofType(events, "request.answered").map((e) => e.method)).toContain("item/tool/call");
    expect(events.indexOf(completed!)).toBeLessThan(events.length - 1);
  });

  it("sends no capabilities and no dynamicTools without tools", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    await collect(run(fake, []));
    const init = fake.peer.requestsOf("initialize")[0] as { params: Record<string, unknown> };
    expect(init.params).not.toHaveProperty("capabilities");
    const start = fake.peer.requestsOf("thread/start")[0] as { params: Record<string, unknown> };
    expect(start.params).not.toHaveProperty("dynamicTools");
  });

  it("answers invalid arguments, a throw and an unknown tool as tool errors; the turn completes", async () => {
    let handled = 0;
    const counted = defineTool({ ...lookup, handler: () => ++handled });
    const fake = new InMemoryAppServer({
      turn: toolTurn(
        fakeSteps.appToolCall(0, "lookup", { ticket: 42 }),
        fakeSteps.appToolCall(1, "failing", {}),
        fakeSteps.appToolCall(2, "nope", {}, { items: false }),
      ),
    });
    const { events, terminal } = await collect(run(fake, [counted, failing]));
    expect(terminal.outcome).toBe("completed");
    expect(handled).toBe(0);
    const texts = [0, 1, 2].map((id) => {
      const reply = replyTo(fake, id) as { result: { success: boolean; contentItems: { text: string }[] } };
      expect(reply.result.success).toBe(false);
      return reply.result.contentItems[0]!.text;
    });
    expect(texts[0]).toMatch(/^Error: invalid arguments for lookup: \/ticket must be string/);
    expect(texts[1]).toBe("Error: ticket service is down");
    expect(texts[2]).toMatch(/^Error: no app tool named nope in this session \(tools: lookup, failing\)/);
    const completed = ofType(events, "tool.completed").filter((e) => e.tool === "app");
    expect(completed.map((e) => e.status)).toEqual(["failed", "failed", "failed"]);
    expect(completed.map((e) => e.app?.error)).toEqual(texts.map((t) => t.slice("Error: ".length)));
    expect(completed.every((e) => e.app?.result === null)).toBe(true);
  });

  it("a cancel aborts a slow handler through its signal, completes its tool, and answers codex", async () => {
    const { seen, fake, events, terminal } = await cancelWhileToolRuns(new Error("user stop"));
    expect(terminal).toMatchObject({ outcome: "cancelled", cancellation: { via: "interrupted" } });
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toEqual(new Error("user stop"));
    const [, completed] = appEvents(events);
    expect(completed).toMatchObject({
      status: "cancelled",
      app: { error: expect.stringContaining("user stop") },
    });
    expect(replyTo(fake, 0)).toMatchObject({ result: { success: false } });
  });
});

describe("a value with no string form (an object without a prototype)", () => {
  it("thrown by a handler is a tool error; the turn completes", async () => {
    const odd = defineTool({
      name: "odd",
      description: "Throws a value String() cannot convert",
      inputSchema: { type: "object" },
      handler: () => {
        throw Object.create(null);
      },
    });
    const fake = new InMemoryAppServer({ turn: toolTurn(fakeSteps.appToolCall(0, "odd", {})) });
    const { events, terminal } = await collect(run(fake, [odd]));
    expect(terminal.outcome).toBe("completed");
    expect(replyTo(fake, 0)).toMatchObject({
      result: { success: false, contentItems: [{ text: "Error: [object Object]" }] },
    });
    expect(appEvents(events)[1]).toMatchObject({ status: "failed", app: { error: "[object Object]" } });
  });

  it("as the reason of a cancel completes the running tool and ends the turn cancelled", async () => {
    const { events, terminal } = await cancelWhileToolRuns(Object.create(null));
    expect(terminal).toMatchObject({
      outcome: "cancelled",
      cancellation: { via: "interrupted", reason: "{}" },
    });
    expect(appEvents(events)[1]).toMatchObject({
      status: "cancelled",
      app: { error: "the session ended before the tool finished ([object Object])" },
    });
  });
});

describe("app tools on codex before dynamic tools (loopback MCP)", () => {
  it("puts a loopback MCP server with its secret only in the thread config; 401 without it; closed after", async () => {
    const [started, ...rest] = fakeSteps.textTurn("ok");
    const fake = new InMemoryAppServer({
      replies: { initialize: { result: { userAgent: "codex_cli_rs/0.90.0 (fake)" } } },
      // the turn stays open while the test calls the server as codex would
      turn: [started!, { delayMs: 1_500 }, ...rest],
    });
    const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
      prompt: "hi",
      tools: [lookup],
      timeouts: { turnMs: 10_000 },
    });
    const events: HarnessEvent[] = [];
    let url = "";
    const statuses: number[] = [];
    let answer: unknown = null;
    for await (const event of session.events) {
      events.push(event);
      if (event.type !== "session.started") continue;
      const start = fake.peer.requestsOf("thread/start")[0] as { params: Record<string, unknown> };
      url = (start.params.config as { mcp_servers: Record<string, { url: string }> }).mcp_servers.rennet!.url;
      const secret = secretOf(start.params.config);
      const post = (auth: string | null, body: unknown) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
          body: JSON.stringify(body),
        });
      const call = {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "lookup", arguments: { ticket: "T-9" } },
      };
      statuses.push((await post(null, call)).status, (await post("Bearer wrong", call)).status);
      const right = await post(`Bearer ${secret}`, call);
      statuses.push(right.status);
      answer = await right.json();
    }
    expect((await session.result).outcome).toBe("completed");
    const start = fake.peer.requestsOf("thread/start")[0] as { params: Record<string, unknown> };
    expect(start.params).not.toHaveProperty("dynamicTools");
    expect((start.params.config as Record<string, unknown>).mcp_servers).toEqual({
      rennet: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
        http_headers: { Authorization: expect.stringMatching(/^Bearer [0-9a-f]{64}$/) },
        // codex's own 60 s would fail a call whose handler or approval takes longer
        tool_timeout_sec: 365 * 24 * 60 * 60,
      },
    });
    const spec = fake.launches[0]!.spec;
    const secret = secretOf(start.params.config);
    // the child's environment goes on to every command the agent runs: the secret is in neither it nor argv
    expect(JSON.stringify(spec.args)).not.toContain(secret);
    expect(JSON.stringify(spec.env)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(statuses).toEqual([401, 401, 200]);
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        content: [{ type: "text", text: JSON.stringify({ ticket: "T-9", title: "Title of T-9" }) }],
        isError: false,
      },
    });
    // exactly one app pair for the call, and the server is gone with the session
    expect(appEvents(events).map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });
});

describe("the app tools' loopback MCP server and the session's end", () => {
  it("a session cancelled while the server starts to listen leaves nothing listening", async () => {
    const controller = new AbortController();
    const servers: Server[] = [];
    const listen = vi.spyOn(Server.prototype, "listen").mockImplementation(function (this: Server, ...args) {
      servers.push(this);
      // the cancel arrives while the server is on its way to listening
      controller.abort(new Error("stop"));
      return realListen.apply(this, args);
    });
    try {
      const fake = new InMemoryAppServer({
        replies: { initialize: { result: { userAgent: "codex_cli_rs/0.90.0 (fake)" } } },
        turn: fakeSteps.textTurn("ok"),
      });
      const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
        prompt: "hi",
        tools: [lookup],
        signal: controller.signal,
      });
      const { terminal } = await collect(session);
      expect(terminal.outcome).toBe("cancelled");
    } finally {
      listen.mockRestore();
    }
    expect(servers).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const listening = servers[0]!.listening;
    servers[0]!.close();
    expect(listening).toBe(false);
  });
});

/** A turn whose app tool waits until aborted, cancelled through the caller's signal with `reason` once it runs. */
async function cancelWhileToolRuns(reason: unknown) {
  let seen: AbortSignal | undefined;
  const slow = defineTool({
    name: "slow",
    description: "Waits until aborted",
    inputSchema: { type: "object" },
    handler: (_args, { signal }) => {
      seen = signal;
      return new Promise(() => {});
    },
  });
  const controller = new AbortController();
  const fake = new InMemoryAppServer({
    turn: [fakeSteps.turnStarted(), ...fakeSteps.appToolCall(0, "slow", {})],
    onInterrupt: [{ awaitReply: 0 }, fakeSteps.turnCompleted("interrupted")],
  });
  const session = run(fake, [slow], controller.signal);
  const events: HarnessEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    if (event.type === "tool.started" && event.tool === "app") controller.abort(reason);
  }
  return { seen, fake, events, terminal: await session.result };
}
