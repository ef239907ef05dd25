import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { ApprovalOptions, HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { fakeSteps, type FakeScript, type FakeStep } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { ofType } from "../helpers/collect.js";
import { commandStartedThenWaiting } from "../helpers/fake-codex-turns.js";

/** A turn that asks `request` (a server request with id 0), waits for the answer, then completes. */
function askingTurn(...requests: FakeStep[]): FakeStep[] {
  const ids = requests.map((r) => ("send" in r ? (r.send.id as number | string) : 0));
  return [
    fakeSteps.turnStarted(),
    ...requests.flatMap((r, i) => [r, { awaitReply: ids[i] ?? 0 }]),
    ...fakeSteps.textTurn("done").slice(1),
  ];
}

async function run(
  script: FakeScript,
  approvals: ApprovalOptions | undefined,
  extra: Record<string, unknown> = {},
): Promise<{ fake: InMemoryAppServer; events: HarnessEvent[]; terminal: TerminalEvent }> {
  const fake = new InMemoryAppServer(script);
  const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    timeouts: { turnMs: 5_000 },
    ...(approvals ? { approvals } : {}),
    ...extra,
  });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { fake, events, terminal: await session.result };
}

/** The client's reply to server request `id`. */
function replyTo(fake: InMemoryAppServer, id: number | string): unknown {
  const frame = fake.peer.received.find((f) => f.id === id && !("method" in f));
  return frame && ("result" in frame ? frame.result : { error: frame.error });
}

const command = fakeSteps.commandApproval(0, {
  command: "/bin/bash -c 'git status --short'",
  cwd: "/work/repo",
  reason: "check the tree",
});

describe("approval routing (fake app-server through the real framing)", () => {
  it("asks with policy untrusted in the workspace-write sandbox, and nothing changes without approvals", async () => {
    const withApprovals = await run({ turn: fakeSteps.textTurn("x") }, { onRequest: () => "accept" });
    const threadStart = withApprovals.fake.peer.requestsOf("thread/start")[0]?.params as Record<
      string,
      unknown
    >;
    const turnStart = withApprovals.fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(threadStart).toMatchObject({ approvalPolicy: "untrusted", sandbox: "workspace-write" });
    expect(turnStart.approvalPolicy).toBe("untrusted");
    expect(turnStart).not.toHaveProperty("sandboxPolicy");

    const onRequest = await run(
      { turn: fakeSteps.textTurn("x") },
      { onRequest: () => "accept", mode: "on-request" },
    );
    expect(onRequest.fake.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      approvalPolicy: "on-request",
    });

    const plain = await run({ turn: askingTurn(command) }, undefined);
    expect(plain.fake.peer.requestsOf("thread/start")[0]?.params).toMatchObject({
      approvalPolicy: "never",
      sandbox: "danger-full-access",
    });
    expect(plain.fake.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    expect(replyTo(plain.fake, 0)).toEqual({ decision: "accept" });
    expect(ofType(plain.events, "approval.requested")).toEqual([]);
    expect(ofType(plain.events, "request.answered")).toHaveLength(1);
  });

  it("gives the handler a typed command request with argv and cwd, and answers with its decision", async () => {
    const seen: unknown[] = [];
    const { fake, events, terminal } = await run(
      { turn: askingTurn(command) },
      {
        onRequest: (request, { signal }) => {
          seen.push(request, signal.aborted);
          return "acceptForSession";
        },
      },
    );
    expect(terminal.outcome).toBe("completed");
    expect(seen[0]).toMatchObject({
      kind: "command",
      id: "0",
      harness: "codex",
      command: "/bin/bash -c 'git status --short'",
      argv: ["git", "status", "--short"],
      cwd: "/work/repo",
      reason: "check the tree",
      decisions: ["accept", "acceptForSession", "decline", "cancel"],
      native: { method: "item/commandExecution/requestApproval" },
    });
    expect(seen[1]).toBe(false);
    expect(replyTo(fake, 0)).toEqual({ decision: "acceptForSession" });
    const requested = ofType(events, "approval.requested");
    const resolved = ofType(events, "approval.resolved");
    expect(requested).toHaveLength(1);
    expect(resolved).toEqual([
      expect.objectContaining({
        requestId: "0",
        kind: "command",
        decision: "acceptForSession",
        decidedBy: "handler",
      }),
    ]);
    expect(resolved[0]?.durationMs).toBeGreaterThanOrEqual(0);
    const [req, res, answered] = [requested[0]!, resolved[0]!, ofType(events, "request.answered")[0]!];
    expect(req.seq).toBeLessThan(res.seq);
    expect(res.seq).toBeLessThan(answered.seq);
    expect(answered.reply).toEqual({ result: { decision: "acceptForSession" } });
  });
});

/** An object that refers to itself: JSON cannot encode it. */
function circular(): object {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

describe("when the handler does not decide", () => {
  it.each([
    [
      "throws",
      () => {
        throw new Error("policy engine down");
      },
      "policy engine down",
    ],
    ["rejects", () => Promise.reject(new Error("no")), "no"],
    [
      "returns a decision the request does not offer",
      () => "approve" as never,
      "not one of this request's decisions",
    ],
    [
      "throws a value with no string form",
      () => {
        throw Object.create(null);
      },
      "[object Object]",
    ],
    ["returns a bigint", () => 10n as never, "the handler returned 10, not one of"],
    [
      "returns a circular object",
      () => circular() as never,
      "the handler returned [object Object], not one of",
    ],
  ])("declines when the handler %s", async (_, onRequest, error) => {
    const { fake, events, terminal } = await run({ turn: askingTurn(command) }, { onRequest });
    expect(terminal.outcome).toBe("completed");
    expect(replyTo(fake, 0)).toEqual({ decision: "decline" });
    const [resolved] = ofType(events, "approval.resolved");
    expect(resolved).toMatchObject({ decision: "decline", decidedBy: "default" });
    expect(resolved?.error).toContain(error);
  });

  it("a request whose id is already pending is answered with an error; the first keeps its handler's answer", async () => {
    const second = fakeSteps.commandApproval(0, { command: "/bin/bash -c 'rm -rf x'", cwd: "/work/repo" });
    const asked: string[] = [];
    const { fake, events, terminal } = await run(
      {
        turn: [
          fakeSteps.turnStarted(),
          command,
          second,
          { awaitReply: 0 },
          { delayMs: 150 },
          ...fakeSteps.textTurn("done").slice(1),
        ],
      },
      {
        onRequest: async (request) => {
          asked.push((request as { command?: string }).command ?? "");
          await new Promise((resolve) => setTimeout(resolve, 20));
          return "accept" as const;
        },
      },
    );
    expect(terminal.outcome).toBe("completed");
    expect(asked).toEqual(["/bin/bash -c 'git status --short'"]);
    const replies = fake.peer.received.filter((f) => f.id === 0 && !("method" in f));
    expect(replies).toHaveLength(2);
    expect(replies[0]).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/already/) } });
    expect(replies[1]).toMatchObject({ result: { decision: "accept" } });
    expect(ofType(events, "approval.resolved")).toMatchObject([{ decision: "accept", decidedBy: "handler" }]);
    expect(ofType(events, "request.answered").map((e) => e.reply)).toMatchObject([
      { error: { code: -32600 } },
      { result: { decision: "accept" } },
    ]);
  });

  it("declines at the deadline and aborts the handler's signal", async () => {
    let signal: AbortSignal | undefined;
    const { fake, events } = await run(
      { turn: askingTurn(command) },
      {
        timeoutMs: 50,
        onRequest: (_request, context) => {
          signal = context.signal;
          return new Promise(() => {});
        },
      },
    );
    expect(replyTo(fake, 0)).toEqual({ decision: "decline" });
    expect(ofType(events, "approval.resolved")[0]).toMatchObject({
      decision: "decline",
      decidedBy: "deadline",
    });
    expect(ofType(events, "approval.resolved")[0]?.durationMs).toBeGreaterThanOrEqual(45);
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as { code?: string }).code).toBe("APPROVAL_DEADLINE");
  });

  it("a late answer after the deadline changes nothing", async () => {
    const { fake, events } = await run(
      { turn: askingTurn(command) },
      { timeoutMs: 20, onRequest: () => new Promise((resolve) => setTimeout(() => resolve("accept"), 80)) },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const replies = fake.peer.received.filter((f) => f.id === 0 && !("method" in f));
    expect(replies).toHaveLength(1);
    expect(ofType(events, "approval.resolved")).toHaveLength(1);
  });
});

describe("cancel while a handler is pending", () => {
  it("answers cancel, aborts the handler's signal with the reason, and ends cancelled with the record first", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted(), command, { awaitReply: 0 }] });
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
      prompt: "hi",
      signal: controller.signal,
      approvals: {
        onRequest: (_request, context) => {
          signal = context.signal;
          queueMicrotask(() => controller.abort(new Error("user closed the tab")));
          return new Promise(() => {});
        },
      },
    });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) events.push(event);
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toMatchObject({ via: "interrupted", reason: "user closed the tab" });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).message).toBe("user closed the tab");
    expect(replyTo(fake, 0)).toEqual({ decision: "cancel" });
    const resolved = ofType(events, "approval.resolved");
    expect(resolved).toEqual([expect.objectContaining({ decision: "cancel", decidedBy: "cancel" })]);
    const interrupt = fake.peer.received.findIndex((f) => f.method === "turn/interrupt");
    const reply = fake.peer.received.findIndex((f) => f.id === 0 && !("method" in f));
    expect(reply).toBeGreaterThanOrEqual(0);
    expect(reply).toBeLessThan(interrupt);
  });

  it("a limit reached while a handler is pending aborts its signal with a LIMIT_REACHED error naming it", async () => {
    let signal: AbortSignal | undefined;
    const { terminal } = await run(
      { turn: [fakeSteps.turnStarted(), command, { awaitReply: 0 }] },
      {
        onRequest: (_request, context) => {
          signal = context.signal;
          return new Promise(() => {});
        },
      },
      { limits: { maxDurationMs: 50 } },
    );
    expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name: "maxDurationMs" } });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(Error);
    expect(signal?.reason).toMatchObject({
      code: "LIMIT_REACHED",
      message: expect.stringMatching(/^the turn stopped at its limit maxDurationMs 50 \(reached \d+\)$/),
      details: { limit: { name: "maxDurationMs", value: 50 } },
    });
  });
  it("a session that fails while a handler is pending records the request as cancelled before the terminal", async () => {
    const { events, terminal } = await run(
      { turn: [fakeSteps.turnStarted(), command, { delayMs: 20 }, { exit: { code: 1 } }] },
      { onRequest: () => new Promise(() => {}) },
    );
    expect(terminal.outcome).toBe("failed");
    const types = events.map((e) => e.type);
    expect(types.indexOf("approval.resolved")).toBeLessThan(types.indexOf("terminal"));
    expect(ofType(events, "approval.resolved")[0]).toMatchObject({ decidedBy: "cancel", decision: "cancel" });
  });
  it("a request that arrives while the turn is being cancelled is answered cancel without its handler", async () => {
    // a limit stops the turn at the command's tool.started; codex's approval for it is already on its way
    const asked: string[] = [];
    const { fake, events, terminal } = await run(
      {
        turn: commandStartedThenWaiting(),
        onInterrupt: [command, { awaitReply: 0 }, fakeSteps.turnCompleted("interrupted")],
      },
      { onRequest: (request) => (asked.push(request.id), "accept") },
      { limits: { maxToolCalls: 0 } },
    );
    expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name: "maxToolCalls" } });
    expect(asked).toEqual([]);
    expect(replyTo(fake, 0)).toEqual({ decision: "cancel" });
    expect(ofType(events, "approval.requested")).toHaveLength(1);
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision: "cancel", decidedBy: "cancel" }),
    ]);
  });
});

describe("every request kind", () => {
  it("a file change carries the item's paths and diff", async () => {
    const item = {
      type: "fileChange",
      id: "patch_1",
      status: "inProgress",
      changes: [
        { path: "/etc/hosts", kind: { type: "update" }, diff: "@@ -1 +1 @@\n-a\n+b\n" },
        { path: "/work/repo/new.txt", kind: { type: "add" }, diff: "hello\n" },
        { path: "/work/repo/old.txt", kind: { type: "delete" }, diff: "bye\nnow" },
      ],
    };
    let seen: unknown;
    const { fake } = await run(
      {
        turn: askingTurn(
          fakeSteps.item("started", item),
          fakeSteps.fileChangeApproval(7, { itemId: "patch_1", reason: "write outside" }),
        ).filter((s) => !("awaitReply" in s && s.awaitReply === 0)),
      },
      {
        onRequest: (request) => {
          seen = request;
          return request.kind === "fileChange" && request.paths.some((p) => !p.startsWith("/work/repo/"))
            ? "decline"
            : "accept";
        },
      },
    );
    expect(seen).toMatchObject({
      kind: "fileChange",
      itemId: "patch_1",
      paths: ["/etc/hosts", "/work/repo/new.txt", "/work/repo/old.txt"],
      // codex sends an added or deleted file's content as its `diff`: each change is a unified diff, and the
      // request's diff has every file's headers
      diff: [
        "--- /etc/hosts\n+++ /etc/hosts\n@@ -1 +1 @@\n-a\n+b\n",
        "--- /dev/null\n+++ /work/repo/new.txt\n@@ -0,0 +1,1 @@\n+hello\n",
        "--- /work/repo/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n\\ No newline at end of file\n",
      ].join(""),
      reason: "write outside",
      changes: [
        { path: "/etc/hosts", kind: "update", diff: "@@ -1 +1 @@\n-a\n+b\n" },
        { path: "/work/repo/new.txt", kind: "add", diff: "@@ -0,0 +1,1 @@\n+hello\n" },
        {
          path: "/work/repo/old.txt",
          kind: "delete",
          diff: "@@ -1,2 +0,0 @@\n-bye\n-now\n\\ No newline at end of file\n",
        },
      ],
    });
    expect(replyTo(fake, 7)).toEqual({ decision: "decline" });
  });

  it("permissions: accept grants what was asked for the turn, acceptForSession for the session, decline nothing", async () => {
    const perms = { network: { enabled: true }, fileSystem: null };
    for (const [decision, reply] of [
      ["accept", { permissions: perms, scope: "turn" }],
      ["acceptForSession", { permissions: perms, scope: "session" }],
      ["decline", { permissions: {}, scope: "turn" }],
    ] as const) {
      let seen: unknown;
      const { fake } = await run(
        { turn: askingTurn(fakeSteps.permissionsApproval(3, { reason: "fetch deps", permissions: perms })) },
        { onRequest: (request) => ((seen = request), decision) },
      );
      expect(seen).toMatchObject({ kind: "permissions", permissions: perms, reason: "fetch deps" });
      expect(replyTo(fake, 3)).toEqual(reply);
    }
  });

  it("an MCP tool call approval (elicitation with codex_approval_kind)", async () => {
    let seen: unknown;
    const { fake } = await run(
      {
        turn: askingTurn(
          fakeSteps.mcpToolCallApproval(4, { server: "docs", tool: "search", arguments: { q: "x" } }),
        ),
      },
      { onRequest: (request) => ((seen = request), "decline") },
    );
    expect(seen).toMatchObject({
      kind: "mcpToolCall",
      server: "docs",
      tool: "search",
      arguments: { q: "x" },
      decisions: ["accept", "decline", "cancel"],
    });
    expect(replyTo(fake, 4)).toEqual({ action: "decline", content: null, _meta: null });
  });

  it("an MCP tool call approval without _meta.tool_name (codex 0.117–0.150) names the tool from its message", async () => {
    const step = fakeSteps.mcpToolCallApproval(4, {
      server: "docs",
      tool: "search",
      message: 'Allow the docs MCP server to run tool "search"?',
    });
    delete (step.send as { params: { _meta: Record<string, unknown> } }).params._meta.tool_name;
    let seen: unknown;
    await run({ turn: askingTurn(step) }, { onRequest: (request) => ((seen = request), "accept") });
    expect(seen).toMatchObject({ kind: "mcpToolCall", server: "docs", tool: "search" });
  });

  it("codex's availableDecisions narrow a command's decisions (decline always offered)", async () => {
    let seen: { decisions?: readonly string[] } = {};
    await run(
      {
        turn: askingTurn(
          fakeSteps.commandApproval(0, {
            command: "ls",
            availableDecisions: [
              "accept",
              { acceptWithExecpolicyAmendment: { execpolicy_amendment: ["ls"] } },
              "cancel",
            ],
          }),
        ),
      },
      { onRequest: (request) => ((seen = request), "accept") },
    );
    expect(seen.decisions).toEqual(["accept", "decline", "cancel"]);
  });
});

describe("questions", () => {
  const question = fakeSteps.userInput(5, [
    { id: "q1", question: "Which database?", options: ["pg", "sqlite"] },
  ]);
  const elicit = fakeSteps.elicitation(6, { server: "jira", message: "Project key?" });

  it("default answers without handlers: no answers, decline", async () => {
    const { fake, events } = await run({ turn: askingTurn(question, elicit) }, { onRequest: () => "accept" });
    expect(replyTo(fake, 5)).toEqual({ answers: {} });
    expect(replyTo(fake, 6)).toEqual({ action: "decline", content: null, _meta: null });
    expect(ofType(events, "approval.requested")).toEqual([]);
  });

  it("onUserInput and onElicitation answer them", async () => {
    const { fake } = await run(
      { turn: askingTurn(question, elicit) },
      {
        onRequest: () => "accept",
        onUserInput: (request) => {
          expect(request.questions[0]).toMatchObject({ id: "q1", question: "Which database?" });
          expect(request.questions[0]?.options?.map((o) => o.label)).toEqual(["pg", "sqlite"]);
          return { q1: ["sqlite"] };
        },
        onElicitation: (request) => {
          expect(request).toMatchObject({ server: "jira", message: "Project key?", mode: "form" });
          return { action: "accept", content: { key: "RN" } };
        },
      },
    );
    expect(replyTo(fake, 5)).toEqual({ answers: { q1: { answers: ["sqlite"] } } });
    expect(replyTo(fake, 6)).toEqual({ action: "accept", content: { key: "RN" }, _meta: null });
  });

  it("a throwing question handler gives the default answer", async () => {
    const { fake } = await run(
      { turn: askingTurn(question, elicit) },
      {
        onRequest: () => "accept",
        onUserInput: () => {
          throw new Error("x");
        },
        onElicitation: () => Promise.reject(new Error("y")),
      },
    );
    expect(replyTo(fake, 5)).toEqual({ answers: {} });
    expect(replyTo(fake, 6)).toEqual({ action: "decline", content: null, _meta: null });
  });
});

describe("an elicitation answer whose content JSON cannot encode", () => {
  const elicit = fakeSteps.elicitation(6, { server: "jira", message: "Project key?" });

  it.each([
    ["a bigint", () => 10n],
    ["a circular object", circular],
  ])("(%s) declines; the turn completes", async (_, content) => {
    const { fake, terminal } = await run(
      { turn: askingTurn(elicit) },
      { onRequest: () => "accept", onElicitation: () => ({ action: "accept", content: content() }) },
    );
    expect(terminal.outcome).toBe("completed");
    expect(replyTo(fake, 6)).toEqual({ action: "decline", content: null, _meta: null });
  });
});

describe("older codex", () => {
  it("a command request without command or cwd (before 0.100) takes them from its item", async () => {
    let seen: unknown;
    await run(
      {
        turn: askingTurn(
          fakeSteps.item("started", {
            type: "commandExecution",
            id: "call_9",
            command: "bash -lc 'npm test'",
            cwd: "/repo",
            status: "inProgress",
          }),
          {
            send: {
              id: 9,
              method: "item/commandExecution/requestApproval",
              params: {
                itemId: "call_9",
                threadId: "0199f0fa-4e00-7000-8000-000000000001",
                turnId: "turn_fake_0001",
                reason: null,
              },
            },
          },
        ).filter((s) => !("awaitReply" in s && s.awaitReply === 0)),
      },
      { onRequest: (request) => ((seen = request), "accept") },
    );
    expect(seen).toMatchObject({
      kind: "command",
      command: "bash -lc 'npm test'",
      argv: ["npm", "test"],
      cwd: "/repo",
    });
  });
});
