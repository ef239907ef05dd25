import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";
import { describe, expect, it } from "vitest";
import { versionFromUserAgent } from "../../src/codex/versions/version-text.js";
import type { TurnRunnerOptions } from "../../src/codex/turn/turn-runner-options.js";
import type { Transport } from "../../src/jsonl/transport.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import {
  FAKE_MODEL,
  FAKE_THREAD_ID,
  FAKE_TURN_ID,
  fakeSteps,
  type FakeScript,
  type FakeStep,
} from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { expectWellFormed } from "../helpers/well-formed.js";
import { collect, ofType } from "../helpers/collect.js";
import { startFakeSession, runnerOn } from "../helpers/fake-session.js";
import { waitFor } from "../helpers/wait.js";

const FIXED_NOW = new Date("2026-01-02T03:04:05.678Z");
/** What `start` stamps on every event. */
const STAMPS = { harness: "codex", sessionId: "sess-1", at: FIXED_NOW.toISOString() };

function start(script: FakeScript, options: Partial<TurnRunnerOptions> = {}) {
  return startFakeSession(script, { sessionId: "sess-1", now: () => FIXED_NOW, ...options });
}

const send = (frame: Record<string, unknown>): FakeStep => ({ send: frame });

const LIFECYCLE = new Set(["initialize", "initialized", "thread/start", "turn/start", "turn/interrupt"]);
/** The lifecycle frames the client sent, in order (without read-only look-ups such as config/read). */
const core = (received: Record<string, unknown>[]) =>
  received.filter((f) => LIFECYCLE.has(f.method as string));
const ids = { threadId: FAKE_THREAD_ID, turnId: FAKE_TURN_ID };

describe("stream invariants", () => {
  it("numbers events from 1 without gaps, stamps every event, and ends with exactly one terminal", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("Hello there", ["Hello", " there"]) });
    const { events, terminal } = await collect(session);
    expectWellFormed(events, STAMPS);
    expect(events.at(-1)).toEqual(terminal);
    expect(session.id).toBe("sess-1");
  });

  it("carries a null turnId before the turn id is known and the owned turn id afterwards", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("ok") });
    const { events } = await collect(session);
    const started = ofType(events, "session.started")[0];
    expect(started?.turnId).toBeNull();
    const afterAck = events.slice(events.findIndex((e) => e.type === "session.started") + 1);
    expect(afterAck.length).toBeGreaterThan(0);
    for (const e of afterAck) expect(e.turnId).toBe(FAKE_TURN_ID);
  });

  it("uses a random session id when none is given", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const a = runnerOn(fake.launcher);
    const b = runnerOn(fake.launcher);
    const [ea, eb] = await Promise.all([collect(a), collect(b)]);
    expect(a.id).not.toBe(b.id);
    expect(ea.events.every((e) => e.sessionId === a.id)).toBe(true);
    expect(eb.events.every((e) => e.sessionId === b.id)).toBe(true);
  });

  it("emits session.started with the thread, model, cwd, codex version and pid", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("ok") });
    const { events } = await collect(session);
    expect(ofType(events, "session.started")).toEqual([
      expect.objectContaining({
        threadId: FAKE_THREAD_ID,
        model: FAKE_MODEL,
        cwd: "/work/repo",
        harnessVersion: "0.171.0",
        pid: null,
      }),
    ]);
  });

  it("produces the documented event sequence for a text turn", async () => {
    const { session } = start({ turn: fakeSteps.textTurn("Hello there", ["Hello", " there"]) });
    const { events, terminal } = await collect(session);
    expect(events.map((e) => e.type)).toEqual([
      "session.started",
      "turn.started",
      "item",
      "item",
      "item",
      "text.delta",
      "text.delta",
      "text.completed",
      "usage",
      "rate-limits",
      "native",
      "terminal",
    ]);
    expect(terminal).toMatchObject({
      outcome: "completed",
      finalMessage: "Hello there",
      model: FAKE_MODEL,
      threadId: FAKE_THREAD_ID,
      failure: null,
      cancellation: null,
    });
  });
});

describe("requests sent to codex", () => {
  it("launches `<command> <prefix…> app-server <args…>` with the merged environment and cwd", async () => {
    const { fake, session } = start(
      { turn: fakeSteps.textTurn("ok") },
      {
        codex: {
          type: "node-launcher",
          node: "/usr/bin/node",
          script: "/x/codex.js",
          env: { CODEX_HOME: "/tmp/ch" },
        },
        env: { PATH: "/bin", CODEX_HOME: "/ignored" },
        appServerArgs: ["--disable", "plugins"],
      },
    );
    await collect(session);
    expect(fake.launches).toHaveLength(1);
    expect(fake.launches[0]?.spec).toEqual({
      command: "/usr/bin/node",
      args: ["/x/codex.js", "app-server", ...APP_SERVER_BASE_ARGS, "--disable", "plugins"],
      env: { PATH: "/bin", CODEX_HOME: "/tmp/ch" },
      cwd: "/work/repo",
    });
  });

  it("sends initialize (clientInfo rennet), initialized, thread/start and turn/start exactly as specified", async () => {
    const { fake, session } = start(
      { turn: fakeSteps.textTurn("ok") },
      { model: "gpt-test", prompt: "Do the thing" },
    );
    await collect(session);
    const received = fake.peer.received;
    for (const frame of received) expect(frame).not.toHaveProperty("jsonrpc");
    // request ids: numeric, strictly increasing from 1
    const ids = received.filter((f) => "id" in f).map((f) => f.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    // the lifecycle, in order; read-only look-ups (config/read for the cwd's trust) may sit between them
    expect(core(received).map((f) => f.method)).toEqual([
      "initialize",
      "initialized",
      "thread/start",
      "turn/start",
    ]);
    expect(received.map((f) => f.method).filter((m) => !LIFECYCLE.has(m as string))).toEqual(
      received.some((f) => f.method === "config/read") ? ["config/read"] : [],
    );
    const [initialize, initialized, threadStart, turnStart] = core(received);
    expect(initialize?.params).toMatchObject({ clientInfo: { name: "rennet" } });
    expect(initialized).toEqual({ method: "initialized" });
    const { config, ...threadParams } = threadStart?.params as Record<string, unknown>;
    expect(threadParams).toEqual({
      cwd: "/work/repo",
      model: "gpt-test",
      approvalPolicy: "never",
      sandbox: "danger-full-access",
      ephemeral: true,
    });
    // a thread config, when sent, only states overrides (e.g. the cwd's trust level) as an object
    if (config !== undefined) expect(config).toEqual(expect.any(Object));
    expect(turnStart?.params).toEqual({
      threadId: FAKE_THREAD_ID,
      input: [{ type: "text", text: "Do the thing" }],
      cwd: "/work/repo",
      model: "gpt-test",
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
  });

  it("sends no effort, no model and no outputSchema on the agentic turn when none is given", async () => {
    const { fake, session } = start({ turn: fakeSteps.textTurn("ok") });
    await collect(session);
    const threadStart = fake.peer.requestsOf("thread/start")[0]?.params as Record<string, unknown>;
    const turnStart = fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(threadStart).not.toHaveProperty("model");
    expect(turnStart).not.toHaveProperty("effort");
    expect(turnStart).not.toHaveProperty("model");
    expect(turnStart).not.toHaveProperty("outputSchema");
  });

  it("adopts the thread id and model returned by thread/start", async () => {
    const { fake, session } = start({ threadId: "thr_custom", model: "served-model", turn: [] });
    // with no turn steps the turn never completes: cancel once the ack is in
    const done = collect(session);
    await waitFor(() => fake.launches[0]?.peer.requestsOf("turn/start").length === 1);
    session.cancel("stop");
    const { terminal } = await done;
    expect((fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>).threadId).toBe(
      "thr_custom",
    );
    expect(terminal.model).toBe("served-model");
    expect(terminal.threadId).toBe("thr_custom");
  });
});

describe("mapping through the runner", () => {
  it("streams command execution start, output and completion, and sums usage over two model requests", async () => {
    const cmd = {
      type: "commandExecution",
      id: "cmd_1",
      command: "echo hi",
      cwd: "/work/repo",
      status: "inProgress",
    };
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.tokenUsage({ inputTokens: 100, cachedInputTokens: 0, outputTokens: 20, totalTokens: 120 }),
        fakeSteps.item("started", cmd),
        fakeSteps.notify("item/commandExecution/outputDelta", { itemId: "cmd_1", delta: "hi\n", ...ids }),
        fakeSteps.item("completed", { ...cmd, status: "completed", exitCode: 0, aggregatedOutput: "hi\n" }),
        fakeSteps.tokenUsage(
          { inputTokens: 250, cachedInputTokens: 100, outputTokens: 30, totalTokens: 280 },
          { inputTokens: 150, cachedInputTokens: 100, outputTokens: 10, totalTokens: 160 },
        ),
        ...fakeSteps.agentMessage("msg_1", ["done"]),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events, STAMPS);
    expect(ofType(events, "tool.started")).toEqual([
      expect.objectContaining({ itemId: "cmd_1", tool: "command", title: "echo hi" }),
    ]);
    expect(ofType(events, "tool.output")).toEqual([
      expect.objectContaining({ itemId: "cmd_1", tool: "command", text: "hi\n" }),
    ]);
    expect(ofType(events, "tool.completed")).toEqual([
      expect.objectContaining({ itemId: "cmd_1", tool: "command", status: "completed", exitCode: 0 }),
    ]);
    const usages = ofType(events, "usage");
    expect(usages.map((u) => u.usage.totalTokens)).toEqual([120, 280]);
    expect(usages[1]?.last.totalTokens).toBe(160);
    expect(terminal.usage).toEqual({
      inputTokens: 250,
      cacheReadTokens: 100,
      cacheWriteTokens: 0,
      outputTokens: 30,
      reasoningTokens: 0,
      totalTokens: 280,
    });
    expect(terminal.finalMessage).toBe("done");
  });

  it("takes the final message from turn/completed items when nothing was streamed", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("completed", {
          items: [{ type: "agentMessage", id: "m", text: "only in items" }],
        }),
      ],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "text.delta")).toEqual([]);
    expect(terminal.finalMessage).toBe("only in items");
    expect(terminal.usage).toBeNull();
  });

  it("turns retrying errors into warnings without failing the turn", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("error", {
          error: { message: "Reconnecting... 1/5", codexErrorInfo: null },
          willRetry: true,
          ...ids,
        }),
        fakeSteps.notify("error", {
          error: { message: "Reconnecting... 2/5", codexErrorInfo: null },
          willRetry: true,
          ...ids,
        }),
        ...fakeSteps.agentMessage("m", ["fine"]),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "warning").map((w) => w.message)).toEqual([
      "Reconnecting... 1/5",
      "Reconnecting... 2/5",
    ]);
    expect(terminal.outcome).toBe("completed");
    expect(terminal.failure).toBeNull();
  });

  it("passes unknown methods through, never dropping them", async () => {
    const unknown = { method: "future/thing", params: { threadId: FAKE_THREAD_ID, x: 1 } };
    const { session } = start({
      turn: [fakeSteps.turnStarted(), send(unknown), ...fakeSteps.textTurn("ok").slice(1)],
    });
    const { events } = await collect(session);
    expect(ofType(events, "passthrough")).toEqual([
      expect.objectContaining({ reason: "unknown", native: unknown }),
    ]);
  });
});

describe("ownership", () => {
  it("a turn/completed of another turn does not end the owned turn and changes nothing", async () => {
    const foreignCompleted = fakeSteps.turnCompleted("failed", {
      turnId: "turn_other",
      error: { message: "not ours", codexErrorInfo: "other" },
      items: [{ type: "agentMessage", id: "x", text: "foreign text" }],
    });
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.notify("item/agentMessage/delta", {
          itemId: "f",
          delta: "foreign delta",
          threadId: FAKE_THREAD_ID,
          turnId: "turn_other",
        }),
        fakeSteps.notify("thread/tokenUsage/updated", {
          threadId: FAKE_THREAD_ID,
          turnId: "turn_other",
          tokenUsage: { total: { totalTokens: 9999, inputTokens: 9999 }, last: { totalTokens: 9999 } },
        }),
        foreignCompleted,
        { delayMs: 5 },
        ...fakeSteps.agentMessage("msg_1", ["mine"]),
        fakeSteps.tokenUsage({ inputTokens: 3, totalTokens: 3 }),
        fakeSteps.turnCompleted("completed"),
      ],
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events, STAMPS);
    const foreign = ofType(events, "passthrough").filter((p) => p.reason === "foreign");
    expect(foreign).toHaveLength(3);
    expect(foreign[2]?.native).toEqual((foreignCompleted as { send: unknown }).send);
    expect(ofType(events, "text.delta").map((d) => d.text)).toEqual(["mine"]);
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("mine");
    expect(terminal.usage?.totalTokens).toBe(3);
  });

  it("notifications of another thread are foreign", async () => {
    const { session } = start({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("completed", {
          threadId: "thr_other",
          items: [{ type: "agentMessage", text: "x" }],
        }),
        ...fakeSteps.textTurn("mine").slice(1),
      ],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "passthrough").map((p) => p.reason)).toEqual(["foreign"]);
    expect(terminal.finalMessage).toBe("mine");
  });

  it("a response to an id this client never sent is a foreign passthrough; an unknown frame shape is unknown", async () => {
    const stray = { id: 4242, result: { hijack: true } };
    const odd = { neither: "request nor response" };
    const { session } = start({
      turn: [fakeSteps.turnStarted(), send(stray), send(odd), ...fakeSteps.textTurn("ok").slice(1)],
    });
    const { events, terminal } = await collect(session);
    expect(ofType(events, "passthrough")).toEqual([
      expect.objectContaining({ reason: "foreign", native: stray }),
      expect.objectContaining({ reason: "unknown", native: odd }),
    ]);
    expect(terminal.outcome).toBe("completed");
  });
});

describe("ordering", () => {
  /** Holds back the turn/start acknowledgement until the owned turn/completed was delivered. */
  function ackAfterCompletion(fake: InMemoryAppServer): Launcher {
    return (spec) => {
      const proc = fake.launcher(spec);
      const inner = proc.transport;
      let held: Record<string, unknown> | null = null;
      let turnStartId: unknown = undefined;
      const transport: Transport = {
        start: (listener) =>
          inner.start({
            ...listener,
            frame: (frame) => {
              if (turnStartId !== undefined && frame.id === turnStartId && "result" in frame) {
                held = frame;
                return;
              }
              listener.frame(frame);
              if (frame.method === "turn/completed" && held) listener.frame(held);
            },
          }),
        send: (frame) => {
          const f = frame as Record<string, unknown>;
          if (f.method === "turn/start") turnStartId = f.id;
          return inner.send(frame);
        },
        endOutput: () => inner.endOutput(),
        close: () => inner.close(),
        get isClosed() {
          return inner.isClosed;
        },
      };
      return { ...proc, transport };
    };
  }

  it("a whole turn streamed before the turn/start acknowledgement still completes, owned via turn/started", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("fast", ["fa", "st"]) });
    const session = runnerOn(ackAfterCompletion(fake), {
      sessionId: "sess-1",
      now: () => FIXED_NOW,
      timeouts: { turnMs: 50 },
    });
    const { events, terminal } = await collect(session);
    expectWellFormed(events, STAMPS);
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "fast", turnId: FAKE_TURN_ID });
    expect(ofType(events, "text.delta").map((e) => e.turnId)).toEqual([FAKE_TURN_ID, FAKE_TURN_ID]);
  });

  it("answers a server request that arrives during the handshake", async () => {
    const { fake, session } = start({
      afterInitialize: [send({ id: 0, method: "item/tool/requestUserInput", params: {} }), { awaitReply: 0 }],
      turn: fakeSteps.textTurn("ok"),
    });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(fake.peer.received).toContainEqual({ id: 0, result: { answers: {} } });
    expect(ofType(events, "request.answered")[0]).toMatchObject({ turnId: null, requestId: 0 });
  });

  it("unsolicited notifications during the handshake are kept, not dropped", async () => {
    const { session } = start({
      afterInitialize: [
        fakeSteps.notify("configWarning", { summary: "unknown key foo" }),
        fakeSteps.notify("remoteControl/status/changed", {}),
      ],
      turn: fakeSteps.textTurn("ok"),
    });
    const { events } = await collect(session);
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(["warning", "native"]);
  });
});

describe("versionFromUserAgent", () => {
  it("extracts the codex version from the initialize user agent", () => {
    expect(versionFromUserAgent("codex_cli_rs/0.171.0 (Debian 12; x86_64) xterm (rennet; 0.1.0)")).toBe(
      "0.171.0",
    );
    expect(versionFromUserAgent("codex_cli_rs/0.172.0-alpha.3 (Mac OS 15)")).toBe("0.172.0-alpha.3");
    expect(versionFromUserAgent("no version here")).toBeNull();
    expect(versionFromUserAgent(42)).toBeNull();
  });
});

describe("server requests", () => {
  const requests: { method: string; params: Record<string, unknown>; reply: Record<string, unknown> }[] = [
    {
      method: "item/commandExecution/requestApproval",
      params: { itemId: "c", command: "rm x", ...ids },
      reply: { result: { decision: "accept" } },
    },
    {
      method: "item/fileChange/requestApproval",
      params: { itemId: "f", ...ids },
      reply: { result: { decision: "accept" } },
    },
    {
      method: "item/permissions/requestApproval",
      params: { ...ids, permissions: { network: true } },
      reply: { result: { permissions: {}, scope: "turn" } },
    },
    {
      method: "execCommandApproval",
      params: { command: ["ls"] },
      reply: { result: { decision: "approved" } },
    },
    {
      method: "applyPatchApproval",
      params: { fileChanges: {} },
      reply: { result: { decision: "approved" } },
    },
    {
      method: "item/tool/requestUserInput",
      params: { questions: [{ id: "q1" }] },
      reply: { result: { answers: {} } },
    },
    {
      method: "mcpServer/elicitation/request",
      params: { serverName: "docs", message: "Allow?", _meta: { codex_approval_kind: "mcp_tool_call" } },
      reply: { result: { action: "accept", content: null, _meta: null } },
    },
    {
      method: "mcpServer/elicitation/request",
      params: { serverName: "docs", message: "Your email?", requestedSchema: {} },
      reply: { result: { action: "decline", content: null, _meta: null } },
    },
    { method: "item/tool/call", params: { tool: "x", arguments: {} }, reply: { error: { code: -32000 } } },
    { method: "account/chatgptAuthTokens/refresh", params: {}, reply: { error: { code: -32000 } } },
    { method: "attestation/generate", params: {}, reply: { error: { code: -32000 } } },
    { method: "some/futureRequest", params: {}, reply: { error: { code: -32601 } } },
  ];

  it("answers every server request at once, before codex goes on, and reports each as request.answered", async () => {
    const steps: FakeStep[] = [fakeSteps.turnStarted()];
    requests.forEach((r, id) => {
      steps.push(send({ id, method: r.method, params: r.params }), { awaitReply: id });
    });
    steps.push(...fakeSteps.textTurn("ok").slice(1));
    const { fake, session } = start({ turn: steps });
    const { events, terminal } = await collect(session);
    expectWellFormed(events, STAMPS);
    expect(terminal.outcome).toBe("completed");

    const replies = fake.peer.received.filter((f) => !("method" in f));
    expect(replies.map((r) => r.id)).toEqual(requests.map((_, i) => i));
    replies.forEach((reply, i) => {
      const expected = requests[i]!.reply;
      expect(reply, requests[i]!.method).toMatchObject(expected);
      if ("error" in expected)
        expect((reply.error as { message: unknown }).message).toEqual(expect.any(String));
    });

    const answered = ofType(events, "request.answered");
    expect(answered.map((a) => [a.requestId, a.method])).toEqual(requests.map((r, i) => [i, r.method]));
    answered.forEach((a, i) => {
      expect(a.params).toEqual(requests[i]!.params);
      const reply = replies[i]!;
      expect(a.reply).toEqual("error" in reply ? { error: reply.error } : { result: reply.result });
    });
  }, 10_000);

  it("answers a server request that uses a string id", async () => {
    const { fake, session } = start({
      turn: [
        fakeSteps.turnStarted(),
        send({ id: "req-a", method: "item/fileChange/requestApproval", params: {} }),
        { awaitReply: "req-a" },
        ...fakeSteps.textTurn("ok").slice(1),
      ],
    });
    const { events } = await collect(session);
    expect(fake.peer.received).toContainEqual({ id: "req-a", result: { decision: "accept" } });
    expect(ofType(events, "request.answered")[0]?.requestId).toBe("req-a");
  });
});
