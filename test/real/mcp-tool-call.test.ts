import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { ApprovalRequest } from "../../src/harness/approvals.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { renderCodexHomeConfig } from "../../src/testkit/codex-home.js";
import { startLoopbackMcpServer, type LoopbackMcpServer } from "../../src/mcp/loopback-mcp-server.js";
import type { ModelScenario, RecordedRequest } from "../../src/testkit/model-response-plan.js";
import { hasToolOutputSinceLastUserMessage } from "../../src/testkit/model-scenarios.js";
import {
  assistantMessageEvents,
  modelUsage,
  responseCompleted,
  responseCreated,
  type ResponseStreamEvent,
} from "../../src/testkit/responses-stream-events.js";

import { testCodexVersion } from "../helpers/codex-bin.js";
import { collect, ofType } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

/*
 * A real turn in which the model calls a tool of a requested loopback MCP server. What codex does (verified
 * here):
 * - with `mcpNamespaceBare` (0.135+), each enabled MCP server is offered to the model as one
 *   `{type:"namespace", name:"mcp__<server>", tools:[{type:"function", name:<tool>, …}]}` entry of the
 *   request's `tools` (0.120–0.134: the namespace is `mcp__<server>__`; up to 0.118: flat functions
 *   `mcp__<server>__<tool>`), and the model calls it with a `function_call` item carrying the namespace and
 *   `name:<tool>`;
 * - with `mcpToolNamespaceRequired` (0.121+) the flat name `mcp__<server>__<tool>` is answered "unsupported
 *   call" without reaching the server; before, it is what routes.
 * How the model is offered a tool is codex's business; that exactly the requested server's tools are offered
 * and a call reaches the server is Rennet's, on every version. Also:
 * - the call becomes an `mcpToolCall` item whose id is the call id; under Rennet's approval policy `never`
 *   codex does not send `mcpServer/elicitation/request` for it (not even with `approval_mode = "prompt"`
 *   on the server's tools), so the turn runner's accept rule for MCP tool-call approvals is not exercised.
 */

const SERVER = "rennet_echo";
const NAMESPACE = `mcp__${SERVER}`;
const PING = "rennet-mcp-ping ✓";
const caps = codexCapabilities(testCodexVersion());

/** A `function_call` to an MCP tool, as the model sends it for a namespaced tool. */
function namespacedCall(index: number, name: string, namespace: string | null): ResponseStreamEvent {
  return {
    type: "response.output_item.done",
    item: {
      type: "function_call",
      id: `fc_${index}`,
      call_id: `call_${index}`,
      name,
      ...(namespace !== null ? { namespace } : {}),
      arguments: JSON.stringify({ text: PING }),
    },
  };
}

/** How this codex lets the model call `tool` of `server`: as offered in the request's `tools`. */
function offeredCall(
  request: RecordedRequest,
  server: string,
  tool: string,
): { name: string; namespace: string | null } {
  for (const entry of toolsOf(request)) {
    const inner = Array.isArray(entry.tools) ? (entry.tools as Array<Record<string, unknown>>) : [];
    if (entry.type === "namespace" && String(entry.name).startsWith(`mcp__${server}`)) {
      if (inner.some((t) => t.name === tool)) return { name: tool, namespace: String(entry.name) };
    }
  }
  return { name: `mcp__${server}__${tool}`, namespace: null };
}

/**
 * First request: the tool call (`name`/`namespace`, or with `null` the form the request offers); the request
 * carrying its output: a final message.
 */
function mcpCallScenario(
  call: { name: string; namespace: string | null } | null,
  then: string,
): ModelScenario {
  return (request) => {
    const id = `resp_${request.index}`;
    const { name, namespace } = call ?? offeredCall(request, SERVER, "echo");
    const events = hasToolOutputSinceLastUserMessage(request)
      ? assistantMessageEvents(`msg_${request.index}`, [then])
      : [namespacedCall(request.index, name, namespace)];
    return {
      type: "stream",
      events: [responseCreated(id), ...events, responseCompleted(id, modelUsage(100, 10))],
      end: "close",
    };
  };
}

function toolsOf(request: RecordedRequest | undefined): Array<Record<string, unknown>> {
  const tools = (request?.body as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? (tools as Array<Record<string, unknown>>) : [];
}

function inputOf(request: RecordedRequest | undefined): Array<Record<string, unknown>> {
  const input = (request?.body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) ? (input as Array<Record<string, unknown>>) : [];
}

let fixture: RealCodexFixture | null = null;
let mcp: LoopbackMcpServer | null = null;
let markers: string | null = null;
afterEach(async () => {
  await fixture?.dispose();
  await mcp?.close();
  if (markers) await rm(markers, { recursive: true, force: true });
  fixture = null;
  mcp = null;
  markers = null;
});

/**
 * The real codex offline, with a user-configured stdio MCP server `user_marker` that writes a file if it is
 * ever launched (the policy must disable it), and a loopback MCP server offering `echo`.
 */
async function start(
  scenario: ModelScenario,
): Promise<{ fixture: RealCodexFixture; mcp: LoopbackMcpServer; marker: string }> {
  mcp = await startLoopbackMcpServer();
  markers = await mkdtemp(path.join(os.tmpdir(), "rennet-mcp-markers-"));
  const marker = path.join(markers, "user_marker.pid");
  fixture = await startRealCodex(scenario);
  await writeFile(
    path.join(fixture.home, "config.toml"),
    renderCodexHomeConfig({
      modelUrl: fixture.model.url,
      extraToml: {
        mcp_servers: {
          user_marker: {
            command: "sh",
            args: ["-c", `echo $$ > '${marker}'; exec sleep 30`],
            startup_timeout_sec: 3,
          },
        },
      },
    }),
  );
  return { fixture, mcp, marker };
}

function elicitationReplies(events: HarnessEvent[]) {
  return ofType(events, "request.answered").filter(
    (event) => event.method === "mcpServer/elicitation/request",
  );
}

describe("real codex: a tool call to a requested loopback MCP server", () => {
  it("reaches the server, streams tool.started/tool.completed (mcp, completed) and completes the turn", async () => {
    const world = await start(mcpCallScenario(null, "the echo answered"));
    const session = world.fixture.client.runStreamed({
      prompt: "call the echo tool",
      cwd: world.fixture.cwd,
      mcp: { servers: [{ name: SERVER, url: world.mcp.url }] },
    });
    const { events, terminal } = await collect(session);

    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(terminal.finalMessage).toBe("the echo answered");
    expect(world.mcp.toolCalls).toEqual([{ tool: "echo", arguments: { text: PING } }]);

    // the model saw the requested server's tools, and no other MCP server's
    const [first, followUp] = world.fixture.model.responsesRequests();
    const mcpTools = toolsOf(first).filter((tool) => String(tool.name).startsWith("mcp__"));
    if (caps.mcpNamespaceBare) {
      expect(mcpTools.map((tool) => [tool.type, tool.name])).toEqual([["namespace", NAMESPACE]]);
      expect(
        (mcpTools[0]?.tools as Array<{ type: string; name: string }>).map(({ type, name }) => ({
          type,
          name,
        })),
      ).toEqual([{ type: "function", name: "echo" }]);
    } else {
      // flat `mcp__<server>__<tool>` names, or the 0.120–0.134 namespace `mcp__<server>__` + short name
      const flat = mcpTools.flatMap((tool) =>
        tool.type === "namespace"
          ? (tool.tools as Array<{ name: string }>).map((inner) => `${String(tool.name)}${inner.name}`)
          : [String(tool.name)],
      );
      expect(flat).toEqual([`${NAMESPACE}__echo`]);
    }
    expect(existsSync(world.marker)).toBe(false);

    const started = ofType(events, "tool.started");
    const completed = ofType(events, "tool.completed");
    expect(started).toHaveLength(1);
    expect(completed).toHaveLength(1);
    expect(started[0]).toMatchObject({ tool: "mcp", title: `${SERVER}.echo`, itemId: "call_0" });
    expect(completed[0]).toMatchObject({
      tool: "mcp",
      title: `${SERVER}.echo`,
      status: "completed",
      itemId: "call_0",
    });
    expect(completed[0]?.item).toMatchObject({
      type: "mcpToolCall",
      server: SERVER,
      tool: "echo",
      arguments: { text: PING },
      error: null,
      result: { content: [{ type: "text", text: PING }] },
    });
    const seqOf = (event: HarnessEvent | undefined): number => event?.seq ?? -1;
    expect(seqOf(started[0])).toBeLessThan(seqOf(completed[0]));

    // any MCP approval codex asks for is accepted (0.171.0 asks none under approval policy `never`)
    for (const reply of elicitationReplies(events)) {
      expect(reply.reply).toMatchObject({ result: { action: "accept" } });
    }

    // the tool's result went back to the model
    const output = inputOf(followUp).find(
      (item) => item.type === "function_call_output" && item.call_id === "call_0",
    );
    expect(JSON.stringify(output?.output)).toContain(JSON.stringify(PING).slice(1, -1));
  });

  it.skipIf(!caps.mcpToolNamespaceRequired)(
    `a flat \`mcp__<server>__<tool>\` name is not routed to the server (the namespace field is required)${
      caps.mcpToolNamespaceRequired
        ? ""
        : ` [skipped: codex ${caps.version} lacks mcpToolNamespaceRequired, the flat name is its route]`
    }`,
    async () => {
      const world = await start(mcpCallScenario({ name: `${NAMESPACE}__echo`, namespace: null }, "done"));
      const { events, terminal } = await collect(
        world.fixture.client.runStreamed({
          prompt: "call it by its flat name",
          cwd: world.fixture.cwd,
          mcp: { servers: [{ name: SERVER, url: world.mcp.url }] },
        }),
      );
      expect(terminal.outcome).toBe("completed");
      expect(world.mcp.toolCalls).toEqual([]);
      expect(ofType(events, "tool.started")).toEqual([]);
      const output = inputOf(world.fixture.model.responsesRequests()[1]).find(
        (item) => item.type === "function_call_output",
      );
      expect(output?.output).toBe(`unsupported call: ${NAMESPACE}__echo`);
    },
  );
});

/** A turn whose model calls the requested server's echo tool, with approvals routed to a handler answering `decision`. */
async function echoCallWithApprovals(decision: "accept" | "decline") {
  const world = await start(mcpCallScenario(null, "done"));
  const asked: ApprovalRequest[] = [];
  const { events, terminal } = await collect(
    world.fixture.client.runStreamed({
      prompt: "call the echo tool",
      cwd: world.fixture.cwd,
      mcp: { servers: [{ name: SERVER, url: world.mcp.url }] },
      approvals: { onRequest: (request) => (asked.push(request), decision) },
    }),
  );
  return { world, asked, events, terminal };
}

describe.skipIf(!caps.mcpToolCallApprovals)(
  "real codex: an MCP tool call with approvals routed to the app",
  () => {
    it.each([
      ["accept", 1],
      ["decline", 0],
    ] as const)(
      "codex asks through mcpServer/elicitation/request (codex_approval_kind mcp_tool_call); %s",
      async (decision, reached) => {
        const { world, asked, events, terminal } = await echoCallWithApprovals(decision);
        expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
        // codex sends serverName, message, _meta {codex_approval_kind, tool_params, …}; tool_name from 0.155–0.171
        // (before, the tool's name is read from the message)
        expect(asked).toEqual([
          expect.objectContaining({
            kind: "mcpToolCall",
            server: SERVER,
            tool: "echo",
            arguments: { text: PING },
            message: expect.stringContaining("echo"),
            native: expect.objectContaining({ method: "mcpServer/elicitation/request" }),
          }),
        ]);
        expect(world.mcp.toolCalls).toHaveLength(reached);
        expect(ofType(events, "approval.resolved")).toEqual([
          expect.objectContaining({ kind: "mcpToolCall", decision, decidedBy: "handler" }),
        ]);
      },
    );
  },
);

describe("real codex: approvals routed to the app, and MCP tool calls it is not asked about", () => {
  it.skipIf(caps.mcpToolCallApprovals)(
    "a codex before 0.117 calls the tool unasked, and the session says so in a warning",
    async () => {
      const { world, asked, events, terminal } = await echoCallWithApprovals("decline");
      expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
      expect(asked).toEqual([]);
      expect(world.mcp.toolCalls).toHaveLength(1);
      expect(ofType(events, "warning").map((event) => event.method)).toContain("rennet/mcpToolCallsUnasked");
    },
  );

  it("no warning where no MCP server may start (an explicit policy of none), on any codex", async () => {
    const world = await start(mcpCallScenario(null, "done"));
    const { events, terminal } = await collect(
      world.fixture.client.runStreamed({
        prompt: "call the echo tool",
        cwd: world.fixture.cwd,
        mcp: { servers: [] },
        approvals: { onRequest: () => "decline" },
      }),
    );
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(ofType(events, "warning").map((event) => event.method)).not.toContain(
      "rennet/mcpToolCallsUnasked",
    );
  });
});
