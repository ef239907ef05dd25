/**
 * Approvals and questions of a Claude Code turn against the in-memory fake claude: each `can_use_tool` and
 * `elicitation` control request routed to the app's handler, the reply on the wire, the audit events, the
 * deadline, a throwing handler, a withdrawn request and a cancel while a handler is pending.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { ApprovalOptions, ApprovalRequest, TurnLimits } from "../../src/harness/approvals.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript, FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { PATH: process.env.PATH };

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** A turn whose tool call `toolu_1` first asks `can_use_tool` `perm-1`, then (once answered) runs `after`. */
function askingTurn(tool: string, input: Record<string, unknown>, extra = {}, after: FakeClaudeStep[] = []) {
  return [
    claudeSteps.init(),
    ...claudeSteps.toolUse("toolu_1", tool, input),
    claudeSteps.canUseTool("perm-1", "toolu_1", tool, input, extra),
    { awaitControlResponse: "perm-1" },
    ...after,
    ...claudeSteps.text("finished", { messageId: "msg_fake_2" }),
    claudeSteps.result({ result: "finished" }),
  ];
}

/** Without `IS_SANDBOX`: a prompting permission mode starts as root too (bypass would be refused). */
async function run(
  script: FakeClaudeScript,
  approvals?: ApprovalOptions,
  env: NodeJS.ProcessEnv = ENV,
  limits?: TurnLimits,
) {
  const fake = new InMemoryClaude(script);
  const claude = createClaudeCode({ launcher: fake.launcher, env });
  const session = claude.runStreamed({
    prompt: "go",
    ...(approvals ? { approvals } : {}),
    ...(limits ? { limits } : {}),
  });
  const events = await drain(session.events);
  const answers = fake.peer.linesOf("control_response").map((l) => l.response as Record<string, unknown>);
  return { fake, events, answers, terminal: events.at(-1) };
}

/** A turn whose Bash call asks `perm-1`, then runs until Claude is interrupted (while the tool is pending). */
function askingUntilInterrupted(): FakeClaudeScript {
  return {
    turn: [
      claudeSteps.init(),
      ...claudeSteps.toolUse("toolu_1", "Bash", { command: "x" }),
      claudeSteps.canUseTool("perm-1", "toolu_1", "Bash", { command: "x" }),
      { awaitControlResponse: "perm-1" },
      { delayMs: 5000 },
    ],
    onInterrupt: claudeSteps.interrupted({ duringTool: true }),
  };
}

/** An object that refers to itself: JSON cannot encode it. */
function circular(): object {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

const ofType = <T extends HarnessEvent["type"]>(events: HarnessEvent[], type: T) =>
  events.filter((e): e is Extract<HarnessEvent, { type: T }> => e.type === type);

describe("Claude Code approvals", () => {
  it("routes a Bash prompt to onRequest as a command and allows it on accept, in permission mode default", async () => {
    const seen: ApprovalRequest[] = [];
    const input = { command: "echo made > 'my file.txt'", description: "write a file" };
    const { fake, events, answers, terminal } = await run(
      { turn: askingTurn("Bash", input, { description: "write a file" }) },
      { onRequest: (request) => (seen.push(request), "accept") },
    );
    expect(fake.launches[0]!.spec.args).toEqual(
      expect.arrayContaining(["--permission-mode=default", "--permission-prompt-tool=stdio"]),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: "command",
      id: "perm-1",
      harness: "claude-code",
      itemId: "toolu_1",
      command: input.command,
      argv: ["echo", "made", ">", "my file.txt"],
      cwd: "/tmp/fake-cwd",
      reason: "write a file",
      decisions: ["accept", "acceptForSession", "decline", "cancel"],
      native: { method: "control_request/can_use_tool" },
    });
    expect(answers).toEqual([
      { subtype: "success", request_id: "perm-1", response: { behavior: "allow", updatedInput: input } },
    ]);
    const resolved = ofType(events, "approval.resolved");
    expect(resolved).toEqual([
      expect.objectContaining({
        requestId: "perm-1",
        kind: "command",
        decision: "accept",
        decidedBy: "handler",
      }),
    ]);
    const order = events.map((e) => e.type);
    expect(order.indexOf("approval.requested")).toBeLessThan(order.indexOf("approval.resolved"));
    expect(order.indexOf("approval.resolved")).toBeLessThan(order.indexOf("request.answered"));
    expect(terminal).toMatchObject({ outcome: "completed", finalMessage: "finished" });
  });

  it("declines with a message the model reads, and keeps the turn going", async () => {
    const { answers, terminal } = await run(
      { turn: askingTurn("Bash", { command: "rm -rf build" }) },
      { onRequest: () => "decline" },
    );
    expect(answers[0]).toMatchObject({
      request_id: "perm-1",
      response: { behavior: "deny", message: expect.stringContaining("declined") },
    });
    expect(answers[0]!.response).not.toHaveProperty("interrupt");
    expect(terminal).toMatchObject({ outcome: "completed" });
  });

  it("acceptForSession sends Claude's suggestions scoped to the session, never to a settings file", async () => {
    const suggestions = [
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "echo made *" }],
        behavior: "allow",
        destination: "localSettings",
      },
      { type: "addDirectories", directories: ["/tmp/fake-cwd"], destination: "projectSettings" },
      { type: "setMode", mode: "bypassPermissions", destination: "userSettings" },
    ];
    const { answers } = await run(
      { turn: askingTurn("Bash", { command: "echo made > x" }, { permission_suggestions: suggestions }) },
      { onRequest: () => "acceptForSession" },
    );
    const response = answers[0]!.response as Record<string, unknown>;
    expect(response.updatedPermissions).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "echo made *" }],
        behavior: "allow",
        destination: "session",
      },
      { type: "addDirectories", directories: ["/tmp/fake-cwd"], destination: "session" },
    ]);
    const fallback = await run(
      { turn: askingTurn("Bash", { command: "make test" }) },
      { onRequest: () => "acceptForSession" },
    );
    expect((fallback.answers[0]!.response as Record<string, unknown>).updatedPermissions).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "make test" }],
        behavior: "allow",
        destination: "session",
      },
    ]);
  });

  it("cancel denies with interrupt and the turn ends cancelled", async () => {
    const { answers, terminal } = await run(
      { turn: askingTurn("Bash", { command: "deploy" }, {}, claudeSteps.interrupted({ duringTool: true })) },
      { onRequest: () => "cancel" },
    );
    expect(answers[0]).toMatchObject({ response: { behavior: "deny", interrupt: true } });
    expect(terminal).toMatchObject({
      outcome: "cancelled",
      cancellation: { reason: expect.stringContaining("approval handler cancelled") },
    });
  });

  it("maps Edit and Write to fileChange, mcp__ tools to mcpToolCall, WebFetch to permissions, others to tool", async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        "Edit",
        { file_path: "/r/a.txt", old_string: "beta", new_string: "BETA" },
        {
          kind: "fileChange",
          paths: ["/r/a.txt"],
          diff: "--- a//r/a.txt\n+++ b//r/a.txt\n@@ @@\n-beta\n+BETA",
        },
      ],
      [
        "Write",
        { file_path: "/r/new.txt", content: "one\ntwo" },
        { kind: "fileChange", paths: ["/r/new.txt"], changes: [expect.objectContaining({ kind: "add" })] },
      ],
      [
        "mcp__app__echo",
        { text: "hi" },
        { kind: "mcpToolCall", server: "app", tool: "echo", arguments: { text: "hi" } },
      ],
      [
        "WebFetch",
        { url: "https://example.com/x", prompt: "read" },
        { kind: "permissions", network: { host: "example.com", protocol: "https" } },
      ],
      [
        "Read",
        { file_path: "/etc/hosts" },
        { kind: "tool", tool: "Read", title: "/etc/hosts", input: { file_path: "/etc/hosts" } },
      ],
    ];
    for (const [tool, input, expected] of cases) {
      const seen: ApprovalRequest[] = [];
      await run({ turn: askingTurn(tool, input) }, { onRequest: (r) => (seen.push(r), "accept") });
      expect(seen[0], tool).toMatchObject(expected);
    }
  });

  it("a throwing handler and a handler past the deadline decline; the deadline aborts the handler's signal", async () => {
    const thrown = await run(
      { turn: askingTurn("Bash", { command: "x" }) },
      {
        onRequest: () => {
          throw new Error("policy broke");
        },
      },
    );
    expect(ofType(thrown.events, "approval.resolved")[0]).toMatchObject({
      decision: "decline",
      decidedBy: "default",
      error: "policy broke",
    });
    expect(thrown.answers[0]).toMatchObject({ response: { behavior: "deny" } });
    let reason: unknown;
    const late = await run(
      { turn: askingTurn("Bash", { command: "x" }) },
      {
        timeoutMs: 50,
        onRequest: (_r, { signal }) =>
          new Promise((resolve) =>
            signal.addEventListener("abort", () => {
              reason = signal.reason;
              resolve("accept");
            }),
          ),
      },
    );
    expect(ofType(late.events, "approval.resolved")[0]).toMatchObject({
      decision: "decline",
      decidedBy: "deadline",
    });
    expect(late.answers[0]).toMatchObject({ response: { behavior: "deny" } });
    expect(reason).toMatchObject({ code: "APPROVAL_DEADLINE" });
    const invalid = await run(
      { turn: askingTurn("Bash", { command: "x" }) },
      { onRequest: () => "maybe" as never },
    );
    expect(ofType(invalid.events, "approval.resolved")[0]).toMatchObject({
      decidedBy: "default",
      decision: "decline",
    });
  });

  it.each([
    ["returns a bigint", () => 10n as never, "the handler returned 10, not one of"],
    [
      "returns a circular object",
      () => circular() as never,
      "the handler returned [object Object], not one of",
    ],
    [
      "throws a value with no string form",
      () => {
        throw Object.create(null);
      },
      "[object Object]",
    ],
  ])(
    "a handler that %s declines",
    async (_, onRequest, error) => {
      const { events, answers } = await run({ turn: askingTurn("Bash", { command: "x" }) }, { onRequest });
      const [resolved] = ofType(events, "approval.resolved");
      expect(resolved).toMatchObject({ decision: "decline", decidedBy: "default" });
      expect(resolved?.error).toContain(error);
      expect(answers[0]).toMatchObject({ response: { behavior: "deny" } });
      expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "completed" });
    },
    10_000,
  );

  it("a control_cancel_request aborts the pending handler and nothing is answered for it", async () => {
    let reason: unknown;
    const { events, answers } = await run(
      {
        turn: [
          claudeSteps.init(),
          ...claudeSteps.toolUse("toolu_1", "Bash", { command: "x" }),
          claudeSteps.canUseTool("perm-1", "toolu_1", "Bash", { command: "x" }),
          { delayMs: 30 },
          claudeSteps.controlCancel("perm-1"),
          ...claudeSteps.interrupted({ duringTool: true }),
        ],
      },
      {
        onRequest: (_r, { signal }) =>
          new Promise(() => signal.addEventListener("abort", () => (reason = signal.reason))),
      },
    );
    expect(reason).toMatchObject({ code: "APPROVAL_WITHDRAWN" });
    expect(answers.filter((a) => a.request_id === "perm-1")).toEqual([]);
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision: "cancel", decidedBy: "cancel" }),
    ]);
  });

  it("a can_use_tool whose request_id is already pending is answered with an error; the first keeps its answer", async () => {
    const asked: unknown[] = [];
    const { events, answers, terminal } = await run(
      {
        turn: [
          claudeSteps.init(),
          ...claudeSteps.toolUse("toolu_1", "Bash", { command: "x" }),
          claudeSteps.canUseTool("perm-1", "toolu_1", "Bash", { command: "x" }),
          claudeSteps.canUseTool("perm-1", "toolu_2", "Bash", { command: "rm -rf y" }),
          { delayMs: 150 },
          ...claudeSteps.text("finished", { messageId: "msg_fake_2" }),
          claudeSteps.result({ result: "finished" }),
        ],
      },
      {
        onRequest: async (request) => {
          asked.push((request as { command?: string }).command);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return "accept" as const;
        },
      },
    );
    expect(terminal).toMatchObject({ outcome: "completed" });
    expect(asked).toEqual(["x"]);
    const replies = answers.filter((a) => a.request_id === "perm-1");
    expect(replies).toMatchObject([
      { subtype: "error", error: expect.stringMatching(/already waiting/) },
      { subtype: "success", response: { behavior: "allow" } },
    ]);
    expect(ofType(events, "approval.resolved")).toMatchObject([{ decision: "accept", decidedBy: "handler" }]);
  });

  it("cancelling the turn answers a pending request cancel, aborts its signal with the reason, then interrupts", async () => {
    const fake = new InMemoryClaude(askingUntilInterrupted());
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    let reason: unknown;
    const session = claude.runStreamed({
      prompt: "go",
      approvals: {
        onRequest: (_r, { signal }) => {
          signal.addEventListener("abort", () => (reason = signal.reason));
          setTimeout(() => session.cancel("stop now"), 10);
          return new Promise(() => undefined);
        },
      },
    });
    const events = await drain(session.events);
    expect(reason).toBe("stop now");
    const written = fake.peer.received.filter((l) => l.type !== "user");
    expect(written[0]).toMatchObject({
      type: "control_response",
      response: { request_id: "perm-1", response: { behavior: "deny", interrupt: true } },
    });
    expect(written[1]).toMatchObject({ type: "control_request", request: { subtype: "interrupt" } });
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision: "cancel", decidedBy: "cancel" }),
    ]);
    expect(events.at(-1)).toMatchObject({ outcome: "cancelled", cancellation: { reason: "stop now" } });
  });

  it("a limit reached while a handler is pending aborts its signal with LIMIT_REACHED; cancel() without a reason with an AbortError", async () => {
    const reasonOf = async (limits: { maxDurationMs: number } | undefined) => {
      const claude = createClaudeCode({
        launcher: new InMemoryClaude(askingUntilInterrupted()).launcher,
        env: ENV,
      });
      let reason: unknown;
      const session = claude.runStreamed({
        prompt: "go",
        ...(limits ? { limits } : {}),
        approvals: {
          onRequest: (_r, { signal }) => {
            signal.addEventListener("abort", () => (reason = signal.reason));
            if (!limits) setTimeout(() => session.cancel(), 10);
            return new Promise(() => undefined);
          },
        },
      });
      const events = await drain(session.events);
      return { reason, terminal: events.at(-1) };
    };
    const limited = await reasonOf({ maxDurationMs: 50 });
    expect(limited.terminal).toMatchObject({
      cancellation: { reason: "limit", limit: { name: "maxDurationMs" } },
    });
    expect(limited.reason).toMatchObject({
      code: "LIMIT_REACHED",
      details: { limit: { name: "maxDurationMs" } },
    });
    const cancelled = await reasonOf(undefined);
    expect(cancelled.reason).toBeInstanceOf(Error);
    expect(cancelled.reason).toMatchObject({ name: "AbortError" });
  });

  it("a prompt that arrives while the turn is being cancelled is answered cancel without its handler", async () => {
    // a limit stops the turn at the tool call; Claude's permission prompt for it is already on its way
    const asked: string[] = [];
    const { events, answers } = await run(
      {
        turn: [
          claudeSteps.init(),
          ...claudeSteps.toolUse("toolu_1", "Bash", { command: "x" }),
          { delayMs: 5000 },
        ],
        onInterrupt: [
          claudeSteps.canUseTool("perm-1", "toolu_1", "Bash", { command: "x" }),
          { awaitControlResponse: "perm-1" },
          ...claudeSteps.interrupted({ duringTool: true }),
        ],
      },
      { onRequest: (request) => (asked.push(request.id), "accept") },
      ENV,
      { maxToolCalls: 0 },
    );
    expect(events.at(-1)).toMatchObject({
      cancellation: { reason: "limit", limit: { name: "maxToolCalls" } },
    });
    expect(asked).toEqual([]);
    expect(answers.find((a) => a.request_id === "perm-1")?.response).toMatchObject({
      behavior: "deny",
      interrupt: true,
    });
    expect(ofType(events, "approval.requested")).toHaveLength(1);
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision: "cancel", decidedBy: "cancel" }),
    ]);
  });

  it("questions: elicitation to onElicitation (default decline), AskUserQuestion to onUserInput (default no answers)", async () => {
    const elicit = {
      turn: [
        claudeSteps.init(),
        claudeSteps.elicitation("el-1", "docs", "Pick a branch", { type: "object" }),
        { awaitControlResponse: "el-1" },
        claudeSteps.result(),
      ],
    };
    const handled = await run(elicit, {
      onRequest: () => "accept",
      onElicitation: (r) => ({ action: "accept", content: { branch: r.server } }),
    });
    expect(handled.answers[0]).toMatchObject({
      request_id: "el-1",
      response: { action: "accept", content: { branch: "docs" } },
    });
    const unhandled = await run(elicit, { onRequest: () => "accept" });
    expect(unhandled.answers[0]).toMatchObject({ request_id: "el-1", response: { action: "decline" } });
    // content JSON cannot encode is no answer: the default
    const unencodable = await run(elicit, {
      onRequest: () => "accept",
      onElicitation: () => ({ action: "accept", content: { size: 10n } }),
    });
    expect(unencodable.answers[0]).toMatchObject({ request_id: "el-1", response: { action: "decline" } });
    const question = {
      questions: [
        {
          question: "Which DB?",
          header: "DB",
          options: [
            { label: "pg", description: "Postgres" },
            { label: "sqlite", description: "file" },
          ],
          multiSelect: false,
        },
      ],
    };
    const asked = await run(
      { turn: askingTurn("AskUserQuestion", question) },
      {
        onRequest: () => "decline",
        onUserInput: (r) => ({ [r.questions[0]!.id]: ["pg"] }),
      },
    );
    expect(asked.answers[0]).toMatchObject({
      response: { behavior: "allow", updatedInput: { ...question, answers: { "Which DB?": "pg" } } },
    });
    expect(ofType(asked.events, "approval.requested")).toEqual([]);
    const silent = await run(
      { turn: askingTurn("AskUserQuestion", question) },
      { onRequest: () => "accept" },
    );
    expect(silent.answers[0]).toMatchObject({ response: { behavior: "deny" } });
  });

  it("without approvals nothing asks: bypassPermissions, can_use_tool allowed at once, no approval events", async () => {
    const { fake, events, answers } = await run({ turn: askingTurn("Bash", { command: "x" }) }, undefined, {
      ...ENV,
      IS_SANDBOX: "1",
    });
    expect(fake.launches[0]!.spec.args).toContain("--permission-mode=bypassPermissions");
    expect(fake.launches[0]!.spec.args).not.toContain("--permission-prompt-tool=stdio");
    expect(answers[0]).toMatchObject({ response: { behavior: "allow" } });
    expect(events.some((e) => e.type.startsWith("approval."))).toBe(false);
  });

  it("mode on-request runs acceptEdits", async () => {
    const { fake } = await run(
      { turn: claudeSteps.textTurn("ok") },
      { mode: "on-request", onRequest: () => "accept" },
    );
    expect(fake.launches[0]!.spec.args).toEqual(
      expect.arrayContaining(["--permission-mode=acceptEdits", "--permission-prompt-tool=stdio"]),
    );
  });
});

describe("Claude Code approvals on an old release", () => {
  it("fails the turn at its init when the release would run tool calls without asking (before 2.1.112)", async () => {
    const { events, answers } = await run(
      { turn: [claudeSteps.init({ version: "2.0.77" }), ...askingTurn("Bash", { command: "x" }).slice(1)] },
      { onRequest: () => "decline" },
    );
    expect(events.at(-1)).toMatchObject({
      outcome: "failed",
      failure: { code: "CLAUDE_UNSUPPORTED_VERSION", message: expect.stringContaining("approvals") },
    });
    expect(answers.filter((a) => a.request_id === "perm-1")).toEqual([]);
  });
});
