/**
 * App tools on the real codex, offline: the loopback model calls an app tool by name, the handler runs in this
 * process with the model's arguments, and its answer (or its error) is the function_call_output of the model's
 * next request; a cancel aborts a slow handler; nothing is left running. Codex before 0.100 has no dynamic
 * tools: the session fails before any thread work with CODEX_UNSUPPORTED_VERSION.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { processExists } from "../../src/process/process-exists.js";
import {
  appToolCall,
  command,
  functionCallOutputs,
  hang,
  sequence,
} from "../../src/testkit/model-scenarios.js";
import { defineTool } from "../../src/tools/define-tool.js";
import {
  failingTicketTool,
  LOOKUP_ANSWER,
  lookupTicketTool,
  slowToolCancelling,
  TICKET_SCHEMA,
} from "../helpers/app-tool-fixtures.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { collect } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const capabilities = codexCapabilities(testCodexVersion());
const supported = capabilities.dynamicTools || capabilities.appToolsOverMcp;

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

function appPair(events: HarnessEvent[]) {
  const started = events.filter((e) => e.type === "tool.started" && e.tool === "app");
  const completed = events.filter((e) => e.type === "tool.completed" && e.tool === "app");
  return { started, completed };
}

/**
 * The text the model got for a call: dynamic tools send the content items' text as it is; codex before 0.100
 * reaches the tools over MCP and sends the MCP result's content parts as JSON.
 */
function outputText(output: string | undefined): string | undefined {
  if (output === undefined || !output.startsWith("[")) return output;
  const parts = JSON.parse(output) as { type: string; text?: string }[];
  return parts.map((part) => part.text ?? "").join("");
}

function pidOf(events: HarnessEvent[]): number | null {
  const started = events.find((e) => e.type === "session.started");
  return started?.type === "session.started" ? started.pid : null;
}

describe.runIf(supported)("real codex: app tools", () => {
  it("the model calls an app tool: the handler gets the arguments, its answer reaches the next request", async () => {
    const lookup = lookupTicketTool();
    fixture = await startRealCodex(
      appToolCall("lookup_ticket", { ticket: "T-42" }, { then: "looked it up" }),
    );
    const session = fixture.client.runStreamed({
      prompt: "look up T-42",
      cwd: fixture.cwd,
      tools: [lookup.tool],
    });
    const { events, terminal } = await collect(session);
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "looked it up" });
    expect(lookup.calls).toEqual([
      { args: { ticket: "T-42" }, sessionId: session.id, callId: expect.any(String) },
    ]);
    const requests = fixture.model.responsesRequests();
    const outputs = functionCallOutputs(requests.at(-1));
    expect(outputs.map((o) => o.callId)).toEqual(["call_0"]);
    expect(outputText(outputs[0]?.output)).toBe(JSON.stringify(LOOKUP_ANSWER));
    const { started, completed } = appPair(events);
    expect(started).toHaveLength(1);
    expect(completed).toHaveLength(1);
    expect(started[0]).toMatchObject({ app: { name: "lookup_ticket", arguments: { ticket: "T-42" } } });
    // dynamic tools name the call by codex's call id; over MCP the call has Rennet's own id
    if (capabilities.dynamicTools) expect(started[0]).toMatchObject({ itemId: "call_0" });
    else expect(events.filter((e) => e.type === "tool.started")).toHaveLength(1);
    expect(completed[0]).toMatchObject({ status: "completed", app: { error: null } });
    expect(events.indexOf(completed[0]!)).toBeLessThan(events.length - 1);
    const pid = pidOf(events);
    expect(pid).not.toBeNull();
    expect(processExists(pid!)).toBe(false);
  });

  it("a handler's throw comes back to the model as a tool error; the turn completes", async () => {
    const failing = failingTicketTool();
    fixture = await startRealCodex(appToolCall("lookup_ticket", { ticket: "T-1" }, { then: "sorry" }));
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "look up T-1", cwd: fixture.cwd, tools: [failing] }),
    );
    expect(terminal.outcome).toBe("completed");
    const [failedOutput] = functionCallOutputs(fixture.model.responsesRequests().at(-1));
    expect(outputText(failedOutput?.output)).toBe("Error: ticket service is down");
    expect(appPair(events).completed[0]).toMatchObject({
      status: "failed",
      app: { error: "ticket service is down", result: null },
    });
  });

  it("an answer larger than the agent's output lines allow is cut and the turn completes", async () => {
    const dump = defineTool({
      name: "dump_log",
      description: "Dump the log",
      inputSchema: { type: "object" },
      handler: () => "x".repeat(20 * 1024 * 1024),
    });
    fixture = await startRealCodex(appToolCall("dump_log", {}, { then: "read it" }));
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "dump the log", cwd: fixture.cwd, tools: [dump] }),
    );
    // codex echoes the answer in one line of its output: uncut, that line is over Rennet's 16 MiB line cap
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "read it" });
    const result = appPair(events).completed[0];
    expect(result).toMatchObject({ status: "completed" });
    const parts = result?.type === "tool.completed" ? (result.app?.result ?? []) : [];
    expect(parts.at(-1)).toMatchObject({
      text: expect.stringContaining("Rennet cut this result to 4.0 MiB of its 20.0 MiB"),
    });
  });

  it("arguments that do not fit the schema never reach the handler; the model is told why", async () => {
    let calls = 0;
    const strict = defineTool({
      name: "lookup_ticket",
      description: "Look up a ticket",
      inputSchema: TICKET_SCHEMA,
      handler: () => ++calls,
    });
    fixture = await startRealCodex(appToolCall("lookup_ticket", { ticket: 7 }, { then: "retry later" }));
    const { terminal } = await collect(
      fixture.client.runStreamed({ prompt: "look up 7", cwd: fixture.cwd, tools: [strict] }),
    );
    expect(terminal.outcome).toBe("completed");
    expect(calls).toBe(0);
    const [output] = functionCallOutputs(fixture.model.responsesRequests().at(-1));
    expect(outputText(output?.output)).toMatch(
      /^Error: invalid arguments for lookup_ticket: \/ticket must be string/,
    );
  });

  it("a cancel aborts a slow handler through its signal, and no process is left", async () => {
    const controller = new AbortController();
    const slow = slowToolCancelling(controller);
    fixture = await startRealCodex(sequence([appToolCall("slow_lookup", {}, { then: "never" }), hang()]));
    const session = fixture.client.runStreamed({
      prompt: "go slow",
      cwd: fixture.cwd,
      tools: [slow.tool],
      signal: controller.signal,
    });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("cancelled");
    expect(slow.aborted()).toEqual(new Error("stop now"));
    const { started, completed } = appPair(events);
    expect(started).toHaveLength(1);
    expect(completed).toEqual([expect.objectContaining({ status: "cancelled" })]);
    expect(events.indexOf(completed[0]!)).toBeLessThan(events.length - 1);
    expect(processExists(pidOf(events)!)).toBe(false);
  });
});

describe.runIf(supported)("real codex: the app tools' secret", () => {
  it("no command the agent runs can read it, from its own environment or codex's", async () => {
    const lookup = lookupTicketTool();
    fixture = await startRealCodex(command("env; tr '\\0' '\\n' < /proc/$PPID/environ", { then: "listed" }));
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "list", cwd: fixture.cwd, tools: [lookup.tool] }),
    );
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "listed" });
    const run = events.find((e) => e.type === "tool.completed" && e.tool === "command");
    const output = run?.type === "tool.completed" ? String(run.item.aggregatedOutput) : "";
    // the command saw its environment and codex's (the walk's marker is in both)
    expect(output.match(/RENNET_TREE_ID=/g)).toHaveLength(2);
    expect(output).not.toMatch(/RENNET_APP_TOOLS_TOKEN|[0-9a-f]{64}/);
    // over MCP the secret travels in the thread's config on stdin, and codex keeps it in no file
    const [start] = fixture.sent("thread/start") as { config?: { mcp_servers?: Record<string, unknown> } }[];
    const secret = /Bearer ([0-9a-f]{64})/.exec(JSON.stringify(start?.config?.mcp_servers ?? {}))?.[1];
    expect(secret === undefined).toBe(capabilities.dynamicTools);
    if (secret !== undefined) expect(filesContaining(fixture.home, secret)).toEqual([]);
  });
});

/** The files under `dir` whose bytes contain `text`. */
function filesContaining(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile() && readFileSync(file).includes(text));
}

/** 127.0.0.1 ports this test process listens on (`ss`; the app tools' server runs in this process). */
function ownLoopbackPorts(): number[] {
  const out = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes(`pid=${process.pid},`))
    .map((line) => /127\.0\.0\.1:(\d+)/.exec(line)?.[1])
    .filter((port): port is string => port !== undefined)
    .map(Number);
}

async function statusOf(port: number, authorization?: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await response.body?.cancel();
  return response.status;
}

describe.runIf(!capabilities.dynamicTools && capabilities.appToolsOverMcp)(
  "real codex before dynamic tools: the app tools' loopback MCP server",
  () => {
    it("refuses a call without the secret or with a wrong one (401) and closes after the turn", async () => {
      const before = new Set(ownLoopbackPorts());
      const seen: { port: number; none: number; wrong: number }[] = [];
      const probe = defineTool({
        name: "probe",
        description: "Probes its own server",
        inputSchema: { type: "object" },
        handler: async () => {
          // the loopback model listens in this process too
          const model = Number(new URL(fixture!.model.url).port);
          for (const port of ownLoopbackPorts().filter((p) => !before.has(p) && p !== model))
            seen.push({ port, none: await statusOf(port), wrong: await statusOf(port, "Bearer wrong") });
          return "probed";
        },
      });
      fixture = await startRealCodex(appToolCall("probe", {}, { then: "done" }));
      const session = fixture.client.runStreamed({ prompt: "probe", cwd: fixture.cwd, tools: [probe] });
      const { events, terminal } = await collect(session);
      expect(terminal.outcome).toBe("completed");
      const app = events.filter((e) => e.type === "tool.completed" && e.tool === "app");
      expect(app).toEqual([expect.objectContaining({ status: "completed" })]);
      expect(seen).toEqual([{ port: expect.any(Number), none: 401, wrong: 401 }]);
      // the server is gone with the session: nothing listens there any more
      await expect(statusOf(seen[0]!.port)).rejects.toThrow();
      expect(ownLoopbackPorts()).not.toContain(seen[0]!.port);
    });
  },
);

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
