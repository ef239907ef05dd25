/**
 * App tools on Claude Code against the in-memory fake claude: the `initialize` control request registers the
 * in-process server before the prompt, every `mcp_message` is answered (handshake, tools/list, tools/call),
 * each call is one `app` tool pair (the `mcp__rennet__*` block and its result add nothing), errors and
 * unknown tools come back as tool errors, a cancel aborts a running handler, and other servers' messages are
 * still refused.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript, FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { deployTool } from "../helpers/app-tool-fixtures.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

const echo = defineTool({
  name: "echo",
  description: "Echo the text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: ({ text }) => `echo:${text}`,
});

function start(script: FakeClaudeScript) {
  const fake = new InMemoryClaude(script);
  return { fake, claude: createClaudeCode({ launcher: fake.launcher, env: ENV, interruptGraceMs: 500 }) };
}

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** The handshake Claude makes with an in-process server before its `system/init`. */
function handshake(server = "rennet"): FakeClaudeStep[] {
  return [
    claudeSteps.mcpMessage("h1", server, {
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code" } },
      jsonrpc: "2.0",
      id: 0,
    }),
    { awaitControlResponse: "h1" },
    claudeSteps.mcpMessage("h2", server, { jsonrpc: "2.0", method: "notifications/initialized" }),
    { awaitControlResponse: "h2" },
    claudeSteps.mcpMessage("h3", server, { method: "tools/list", jsonrpc: "2.0", id: 1 }),
    { awaitControlResponse: "h3" },
  ];
}

function appEvents(events: HarnessEvent[]) {
  return events.filter((e) => (e.type === "tool.started" || e.type === "tool.completed") && e.tool === "app");
}

function mcpResponse(fake: InMemoryClaude, requestId: string): unknown {
  const line = fake.peer
    .linesOf("control_response")
    .find((l) => (l.response as { request_id?: string }).request_id === requestId);
  return (line?.response as { response?: { mcp_response?: unknown } } | undefined)?.response?.mcp_response;
}

describe("Claude Code app tools over the control channel (fake claude)", () => {
  it("registers the server before the prompt, answers the handshake, runs the call as one app pair", async () => {
    const { fake, claude } = start({
      turn: [
        ...handshake(),
        claudeSteps.init(),
        ...claudeSteps.mcpToolCall("toolu_1", "echo", { text: "hi" }, { messageId: "msg_1" }),
        ...claudeSteps.text("done", { messageId: "msg_2" }),
        claudeSteps.result({ result: "done" }),
      ],
    });
    const session = claude.runStreamed({ prompt: "call echo", tools: [echo] });
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "completed", finalMessage: "done" });
    const lines = fake.peer.received;
    expect(lines[0]).toMatchObject({
      type: "control_request",
      request: { subtype: "initialize", sdkMcpServers: ["rennet"] },
    });
    expect(lines[1]).toMatchObject({ type: "user" });
    expect(mcpResponse(fake, "h1")).toMatchObject({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "rennet" } },
    });
    expect(mcpResponse(fake, "h2")).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
    expect(mcpResponse(fake, "h3")).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [{ name: "echo", description: "Echo the text", inputSchema: echo.inputSchema }] },
    });
    expect(mcpResponse(fake, "mcp-toolu_1")).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "echo:hi" }], isError: false },
    });
    const app = appEvents(events);
    expect(app).toEqual([
      expect.objectContaining({
        type: "tool.started",
        itemId: "toolu_1",
        title: "echo",
        app: { name: "echo", arguments: { text: "hi" } },
        item: expect.objectContaining({ type: "tool_use", name: "mcp__rennet__echo" }),
      }),
      expect.objectContaining({
        type: "tool.completed",
        itemId: "toolu_1",
        status: "completed",
        app: expect.objectContaining({ result: [{ type: "text", text: "echo:hi" }], error: null }),
      }),
    ]);
    // the block and its result are the call's: no mcp tool events besides the app pair
    expect(
      events.filter((e) => e.type.startsWith("tool.") && "itemId" in e && e.itemId === "toolu_1"),
    ).toHaveLength(2);
    const answered = events.filter(
      (e) => e.type === "request.answered" && e.method === "control_request/mcp_message",
    );
    expect(answered).toHaveLength(4);
  });

  it("a throw and invalid arguments are tool errors (isError); the turn completes", async () => {
    const failing = defineTool({
      name: "fail",
      description: "Always throws",
      inputSchema: { type: "object" },
      handler: () => {
        throw new Error("service down");
      },
    });
    const { fake, claude } = start({
      turn: [
        claudeSteps.init(),
        ...claudeSteps.mcpToolCall("toolu_1", "fail", {}, { messageId: "msg_1" }),
        ...claudeSteps.mcpToolCall("toolu_2", "echo", { text: 7 }, { messageId: "msg_2" }),
        claudeSteps.result({ result: "sorry" }),
      ],
    });
    const events = await drain(claude.runStreamed({ prompt: "x", tools: [echo, failing] }).events);
    expect(events.at(-1)).toMatchObject({ outcome: "completed" });
    expect(mcpResponse(fake, "mcp-toolu_1")).toMatchObject({
      result: { content: [{ type: "text", text: "Error: service down" }], isError: true },
    });
    expect(mcpResponse(fake, "mcp-toolu_2")).toMatchObject({ result: { isError: true } });
    const completed = appEvents(events).filter((e) => e.type === "tool.completed");
    expect(completed).toEqual([
      expect.objectContaining({ status: "failed", app: expect.objectContaining({ error: "service down" }) }),
      expect.objectContaining({
        status: "failed",
        app: expect.objectContaining({ error: expect.stringMatching(/invalid arguments for echo/) }),
      }),
    ]);
  });

  it("a block Claude never called the server for is still one app pair (failed, with Claude's text)", async () => {
    const { claude } = start({
      turn: [
        claudeSteps.init(),
        ...claudeSteps.toolUse("toolu_9", "mcp__rennet__nope", {}, { messageId: "msg_1" }),
        claudeSteps.toolResult("toolu_9", "No such tool available: mcp__rennet__nope", { isError: true }),
        claudeSteps.result({ result: "ok" }),
      ],
    });
    const events = await drain(claude.runStreamed({ prompt: "x", tools: [echo] }).events);
    expect(appEvents(events)).toEqual([
      expect.objectContaining({ type: "tool.started", itemId: "toolu_9", title: "nope" }),
      expect.objectContaining({
        type: "tool.completed",
        status: "failed",
        app: expect.objectContaining({ error: "No such tool available: mcp__rennet__nope" }),
      }),
    ]);
  });

  it("a cancel aborts a running handler; its pair completes (cancelled) before the terminal frame", async () => {
    let reason: unknown = null;
    const slow = defineTool({
      name: "slow",
      description: "Never finishes by itself",
      inputSchema: { type: "object" },
      handler: (_args, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            reason = signal.reason;
            reject(signal.reason as Error);
          }),
        ),
    });
    const { fake, claude } = start({
      turn: [claudeSteps.init(), ...claudeSteps.mcpToolCall("toolu_s", "slow", {}, { messageId: "msg_1" })],
      onInterrupt: claudeSteps.interrupted({ duringTool: true }),
    });
    const session = claude.runStreamed({ prompt: "x", tools: [slow] });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) {
      events.push(event);
      if (event.type === "tool.started" && event.tool === "app") session.cancel(new Error("stop"));
    }
    expect(events.at(-1)).toMatchObject({ outcome: "cancelled" });
    expect(reason).toEqual(new Error("stop"));
    const app = appEvents(events);
    expect(app.map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    expect(app[1]).toMatchObject({ status: "cancelled" });
    expect(
      fake.peer.linesOf("control_request").map((l) => (l.request as { subtype: string }).subtype),
    ).toEqual(["initialize", "interrupt", "end_session"]);
  });

  it("a call past maxToolCalls never runs its handler: the agent gets an error, the pair completes cancelled", async () => {
    const { tool: counted, ran } = deployTool();
    const { claude } = start({
      turn: [claudeSteps.init(), ...claudeSteps.mcpToolCall("toolu_d", "deploy", {}, { messageId: "msg_1" })],
      onInterrupt: claudeSteps.interrupted({ duringTool: true }),
    });
    const session = claude.runStreamed({ prompt: "x", tools: [counted], limits: { maxToolCalls: 0 } });
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: "limit", limit: { name: "maxToolCalls", value: 0, reached: 1 } },
    });
    expect(ran()).toBe(0);
    const app = appEvents(events);
    expect(app.map((e) => e.type)).toEqual(["tool.started", "tool.completed"]);
    expect(app[1]).toMatchObject({
      status: "cancelled",
      app: { error: expect.stringContaining("the turn ended before the tool ran") },
    });
  });

  it("the prompt waits for Claude's answer to initialize; a refused initialize fails the turn", async () => {
    const { fake, claude } = start({ controlReplies: { initialize: { error: "no sdk servers here" } } });
    const terminal = await claude.runStreamed({ prompt: "x", tools: [echo] }).result;
    expect(terminal).toMatchObject({
      outcome: "failed",
      failure: { source: "turn", message: expect.stringContaining("no sdk servers here") },
    });
    expect(fake.peer.linesOf("user")).toEqual([]);
  });

  it("without tools no initialize is sent and an mcp_message is refused", async () => {
    const { fake, claude } = start({
      turn: [...handshake().slice(0, 2), claudeSteps.init(), claudeSteps.result()],
    });
    await claude.run({ prompt: "x" });
    expect(fake.peer.linesOf("control_request").map((l) => l.request)).toEqual([
      expect.objectContaining({ subtype: "end_session" }),
    ]);
    expect(mcpResponse(fake, "h1")).toMatchObject({ error: { code: -32601 } });
  });

  it("another server's messages are refused; a policy server named rennet is refused with tools", async () => {
    const { fake, claude } = start({
      turn: [...handshake("other").slice(0, 2), claudeSteps.init(), claudeSteps.result()],
    });
    await claude.run({ prompt: "x", tools: [echo] });
    expect(mcpResponse(fake, "h1")).toMatchObject({ error: { code: -32601 } });
    expect(() =>
      claude.runStreamed({
        prompt: "x",
        tools: [echo],
        mcp: { servers: [{ name: "rennet", url: "http://127.0.0.1:9/mcp" }] },
      }),
    ).toThrow(expect.objectContaining({ code: "TOOL_INVALID" }));
    expect(() => claude.runStreamed({ prompt: "x", tools: ["Bash"] as never })).toThrow(
      expect.objectContaining({ code: "TOOL_INVALID" }),
    );
  });

  it("with approvals, Claude's permission prompt for the app's own tool is allowed; the handler is asked once, about the call", async () => {
    const { fake, claude } = start({
      turn: [
        ...handshake(),
        claudeSteps.init(),
        claudeSteps.canUseTool("perm-app", "toolu_1", "mcp__rennet__echo", { text: "hi" }),
        { awaitControlResponse: "perm-app" },
        ...claudeSteps.mcpToolCall("toolu_1", "echo", { text: "hi" }, { messageId: "msg_1" }),
        claudeSteps.result({ result: "done" }),
      ],
    });
    const asked: { kind: string }[] = [];
    const session = claude.runStreamed({
      prompt: "call echo",
      tools: [echo],
      approvals: { onRequest: (request) => (asked.push(request), "decline") },
    });
    const events = await drain(session.events);
    expect(events.at(-1)).toMatchObject({ outcome: "completed" });
    expect(asked.map((request) => request.kind)).toEqual(["appTool"]);
    expect(appEvents(events).at(-1)).toMatchObject({
      status: "failed",
      app: { error: "the app declined this call" },
    });
    const answer = fake.peer
      .linesOf("control_response")
      .find((l) => (l.response as { request_id?: string }).request_id === "perm-app");
    expect(answer).toMatchObject({ response: { response: { behavior: "allow" } } });
  });
});
