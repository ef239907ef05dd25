/**
 * Approvals, steering and limits against the real claude, offline (a loopback Messages API, a throw-away HOME):
 * an accepted Bash command runs, a declined one does not and the model reads why, a steer reaches the model's
 * next request within the same turn, a limit cancels with the partial text and leaves nothing running. The
 * approval turns run in permission mode `default` without `IS_SANDBOX` (as root too: only bypass needs it).
 * `RENNET_TEST_CLAUDE` points them at another release (2.1.112 and 2.0.77 were run too; 2.0.77, which would run
 * a declined command, is refused).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, type TestContext } from "vitest";
import type { ApprovalRequest, UserInputRequest } from "../../../src/harness/approvals.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { PIXEL_PNG } from "../../helpers/pixel-png.js";
import { steerAtFirstTool } from "../../helpers/collect.js";
import { ClaudeSetups, collect, ofType, processesWith, claudeUnderTest } from "./claude-helpers.js";

const setups = new ClaudeSetups();
const claude = claudeUnderTest();

afterEach(() => setups.dispose());

/** A release that would run a declined command unasked is refused (the decline test shows it): skip the rest. */
function needsHostPrompts(context: TestContext): void {
  if (!claude.capabilities().hostPermissionPrompts) context.skip();
}

/** Every text the model was sent in the last message of request `n` (tool results included). */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: { content?: unknown }[] }).messages ?? [];
  return JSON.stringify(messages.at(-1)?.content ?? "");
}

describe("approvals against the real claude", () => {
  it(
    "runs a Bash command the handler accepts, with the decision in the stream",
    { timeout: 60_000 },
    async (context) => {
      needsHostPrompts(context);
      const marker = `rennet-accept-${process.pid}`;
      const setup = await setups.create(scenarios.bash(`echo ${marker} > accepted.txt`, { then: "written" }));
      const seen: ApprovalRequest[] = [];
      const session = setup.claude.runStreamed({
        prompt: "write the file",
        cwd: setup.cwd,
        approvals: { onRequest: (request) => (seen.push(request), "accept"), timeoutMs: 30_000 },
      });
      const events = await collect(session.events);
      expect(events.at(-1)).toMatchObject({ outcome: "completed", finalMessage: "written" });
      expect(seen).toEqual([
        expect.objectContaining({
          kind: "command",
          argv: ["echo", marker, ">", "accepted.txt"],
          cwd: setup.cwd,
        }),
      ]);
      expect(ofType(events, "approval.resolved")).toEqual([
        expect.objectContaining({ kind: "command", decision: "accept", decidedBy: "handler" }),
      ]);
      expect(readFileSync(path.join(setup.cwd, "accepted.txt"), "utf8").trim()).toBe(marker);
    },
  );

  it("keeps a declined command from running and tells the model", { timeout: 60_000 }, async () => {
    const setup = await setups.create(scenarios.bash("echo no > declined.txt", { then: "understood" }));
    const session = setup.claude.runStreamed({
      prompt: "write the file",
      cwd: setup.cwd,
      approvals: { onRequest: () => "decline" },
    });
    const events = await collect(session.events);
    expect(existsSync(path.join(setup.cwd, "declined.txt"))).toBe(false);
    if (!claude.capabilities().hostPermissionPrompts) {
      // a release that would run the command unasked is refused at its init, before any tool call
      expect(events.at(-1)).toMatchObject({
        outcome: "failed",
        failure: { code: "CLAUDE_UNSUPPORTED_VERSION" },
      });
      return;
    }
    expect(events.at(-1)).toMatchObject({ outcome: "completed", finalMessage: "understood" });
    const requests = setup.model.messagesRequests();
    expect(lastUserText(requests.at(-1)?.body)).toContain("The user declined this tool call");
    expect(ofType(events, "tool.completed")[0]).toMatchObject({ status: "failed" });
  });

  it("acceptForSession writes no settings file into the repository", { timeout: 60_000 }, async (context) => {
    needsHostPrompts(context);
    const setup = await setups.create(scenarios.bash("echo s > session.txt", { then: "ok" }));
    await collect(
      setup.claude.runStreamed({
        prompt: "go",
        cwd: setup.cwd,
        approvals: { onRequest: () => "acceptForSession" },
      }).events,
    );
    expect(existsSync(path.join(setup.cwd, "session.txt"))).toBe(true);
    expect(existsSync(path.join(setup.cwd, ".claude"))).toBe(false);
  });
});

describe("questions against the real claude", () => {
  const askBranch = () =>
    scenarios.toolUse(
      "AskUserQuestion",
      {
        questions: [
          {
            question: "Which branch should I use?",
            header: "Branch",
            multiSelect: false,
            options: [
              { label: "main", description: "the main line" },
              { label: "dev", description: "the dev line" },
            ],
          },
        ],
      },
      { then: "ok" },
    );

  it("AskUserQuestion goes to onUserInput; the answer is the tool result the model reads", async (context) => {
    needsHostPrompts(context);
    const setup = await setups.create(askBranch());
    const asked: UserInputRequest[] = [];
    const session = setup.claude.runStreamed({
      prompt: "go",
      cwd: setup.cwd,
      env: setup.callEnv,
      approvals: {
        onRequest: () => "accept",
        onUserInput: (request) => (asked.push(request), { [request.questions[0]!.id]: ["dev"] }),
      },
    });
    const events = await collect(session.events);
    expect(events.at(-1)).toMatchObject({ outcome: "completed", finalMessage: "ok" });
    expect(asked).toEqual([
      expect.objectContaining({
        questions: [
          expect.objectContaining({
            question: "Which branch should I use?",
            header: "Branch",
            options: [
              { label: "main", description: "the main line" },
              { label: "dev", description: "the dev line" },
            ],
          }),
        ],
      }),
    ]);
    const results = setup.model.messagesRequests().flatMap((r) => scenarios.toolResults(r));
    expect(results).toEqual([
      expect.objectContaining({
        isError: false,
        text: expect.stringContaining('"Which branch should I use?"="dev"'),
      }),
    ]);
    expect(ofType(events, "approval.requested")).toEqual([]);
  });
});

describe("steering and limits against the real claude", () => {
  it(
    "a steer during a tool call reaches the model's next request in the same turn",
    { timeout: 60_000 },
    async () => {
      const setup = await setups.create(
        scenarios.bash("echo waiting && sleep 2 && echo done", { then: "steered" }),
      );
      const session = setup.claude.runStreamed({ prompt: "run it", cwd: setup.cwd, env: setup.callEnv });
      let steered: Promise<void> | null = null;
      const events = [];
      for await (const event of session.events) {
        events.push(event);
        if (event.type === "tool.started" && steered === null) {
          steered = session.steer("STEER-TEXT-4242 keep it short");
          steered.catch(() => undefined);
        }
      }
      if (!claude.capabilities().commandLifecycle) {
        await expect(steered).rejects.toMatchObject({ code: "STEER_UNSUPPORTED" });
        return;
      }
      await expect(steered).resolves.toBeUndefined();
      expect(events.at(-1)).toMatchObject({ outcome: "completed" });
      expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
      const requests = setup.model.messagesRequests();
      expect(lastUserText(requests.at(-1)?.body)).toContain("STEER-TEXT-4242");
    },
  );

  it(
    "a steer's image reaches the model's next request as an image block of its type",
    { timeout: 60_000 },
    async (context) => {
      if (!claude.capabilities().commandLifecycle) context.skip();
      const setup = await setups.create(
        scenarios.bash("echo waiting && sleep 2 && echo done", { then: "seen" }),
      );
      writeFileSync(path.join(setup.cwd, "pixel.png"), PIXEL_PNG);
      const session = setup.claude.runStreamed({ prompt: "run it", cwd: setup.cwd, env: setup.callEnv });
      const { steered } = await steerAtFirstTool(session, [
        { type: "text", text: "STEER-IMAGE" },
        { type: "localImage", path: "pixel.png" },
      ]);
      await expect(steered).resolves.toBeUndefined();
      const requests = setup.model.messagesRequests();
      expect(JSON.stringify(requests[0]?.body)).not.toContain('"type":"image"');
      const last = lastUserText(requests.at(-1)?.body);
      expect(last).toContain("STEER-IMAGE");
      expect(last).toContain(
        JSON.stringify({ type: "base64", media_type: "image/png", data: PIXEL_PNG.toString("base64") }),
      );
    },
  );

  it(
    "maxToolCalls cancels at the first tool call with the text so far, leaving nothing running",
    { timeout: 60_000 },
    async () => {
      const marker = `rennet-limit-${process.pid}-${Date.now()}`;
      const setup = await setups.create(
        scenarios.bash(`echo ${marker} && sleep 20`, { before: "Let me check.", then: "never" }),
      );
      const session = setup.claude.runStreamed({
        prompt: "go",
        cwd: setup.cwd,
        env: setup.callEnv,
        limits: { maxToolCalls: 0 },
      });
      const events = await collect(session.events);
      await session.result;
      expect(events.at(-1)).toMatchObject({
        outcome: "cancelled",
        finalMessage: "Let me check.",
        cancellation: { reason: "limit", limit: { name: "maxToolCalls", value: 0, reached: 1 } },
      });
      expect(processesWith(marker)).toEqual([]);
    },
  );

  it(
    "a permission prompt claude sends after a limit stopped the turn is answered cancel, never asking the handler",
    { timeout: 60_000 },
    async (context) => {
      needsHostPrompts(context);
      const setup = await setups.create(scenarios.bash("echo x > limited.txt", { then: "never" }));
      let asked = 0;
      const session = setup.claude.runStreamed({
        prompt: "write the file",
        cwd: setup.cwd,
        limits: { maxToolCalls: 0 },
        approvals: { onRequest: () => (asked++, "accept") },
      });
      const events = await collect(session.events);
      expect(events.at(-1)).toMatchObject({
        outcome: "cancelled",
        cancellation: { reason: "limit", limit: { name: "maxToolCalls" } },
      });
      // claude asks after the tool_use block whose tool.started stopped the turn
      expect(asked).toBe(0);
      expect(ofType(events, "approval.resolved")).toEqual(
        ofType(events, "approval.requested").map(() =>
          expect.objectContaining({ decision: "cancel", decidedBy: "cancel" }),
        ),
      );
      expect(existsSync(path.join(setup.cwd, "limited.txt"))).toBe(false);
    },
  );

  it.each([
    ["maxTokens", { maxTokens: 1 }],
    ["maxDurationMs", { maxDurationMs: 4_000 }],
  ] as const)(
    "%s cancels a turn whose command runs on, naming the limit, leaving nothing running",
    { timeout: 60_000 },
    async (name, limits) => {
      const marker = `rennet-limit-${name}-${process.pid}-${Date.now()}`;
      const setup = await setups.create(
        scenarios.bash(`echo ${marker} && sleep 20`, { before: "Let me check.", then: "never" }),
      );
      const session = setup.claude.runStreamed({ prompt: "go", cwd: setup.cwd, env: setup.callEnv, limits });
      const events = await collect(session.events);
      const terminal = await session.result;
      expect(terminal).toMatchObject({
        outcome: "cancelled",
        cancellation: { reason: "limit", limit: { name } },
      });
      expect(ofType(events, "terminal")).toHaveLength(1);
      expect(processesWith(marker)).toEqual([]);
    },
  );
});
