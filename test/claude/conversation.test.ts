/**
 * `claude.conversation()` against the in-memory fake claude: every turn keeps its thread, each after the first
 * resumes it in a fresh child; one turn at a time; the options checked as Codex's conversation checks them; the
 * thread kept only once Claude started the turn (its `system/init`).
 */
import { describe, expect, it } from "vitest";
import { ConversationBusyError } from "../../src/call/conversation.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { TurnCancelledError, TurnFailedError } from "../../src/harness/errors.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import type { FakeClaudeScript, FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { thrownBy } from "../helpers/thrown.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };
const OTHER_SESSION = "0b9a5e1c-7d2f-4c3b-9a8e-6f5d4c3b2a19";

/** A fake per launch, in order (the last one for every later launch), and what each was started with. */
function fakes(...scripts: FakeClaudeScript[]): { launcher: Launcher; args: () => string[][] } {
  const all = scripts.map((script) => new InMemoryClaude(script));
  let launched = 0;
  return {
    launcher: (spec) => (all[launched++] ?? (all.at(-1) as InMemoryClaude)).launcher(spec),
    args: () => all.flatMap((fake) => fake.launches.map((launch) => launch.spec.args)),
  };
}

const textTurn = (text: string, sessionId = FAKE_CLAUDE_SESSION_ID): FakeClaudeStep[] => [
  claudeSteps.init({ sessionId }),
  ...claudeSteps.text(text),
  claudeSteps.result({ result: text, sessionId }),
];

function resumeOf(args: readonly string[]): string | null {
  return args.find((arg) => arg.startsWith("--resume="))?.slice("--resume=".length) ?? null;
}

describe("claude.conversation() (in-memory fake claude)", () => {
  it("keeps the thread on every turn and resumes it in a fresh child, with the conversation's options", async () => {
    const fake = fakes({ turn: textTurn("one") }, { turn: textTurn("two") });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation({
      cwd: "/tmp",
      model: "m-1",
    });
    expect(chat.threadId).toBeNull();
    expect((await chat.run("first")).finalMessage).toBe("one");
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
    expect((await chat.run("second")).finalMessage).toBe("two");
    const [first, second] = fake.args();
    expect(resumeOf(first ?? [])).toBeNull();
    expect(resumeOf(second ?? [])).toBe(FAKE_CLAUDE_SESSION_ID);
    for (const args of [first, second]) {
      expect(args).not.toContain("--no-session-persistence");
      expect(args).toContain("--model=m-1");
    }
  });

  it("follows the session id Claude reports for a resumed turn, and resumes a given threadId from the first turn", async () => {
    const fake = fakes({ turn: textTurn("one", OTHER_SESSION) });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation({
      threadId: FAKE_CLAUDE_SESSION_ID.toUpperCase(),
    });
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
    await chat.run("again");
    expect(chat.threadId).toBe(OTHER_SESSION);
    await chat.run("and again");
    expect(fake.args().map(resumeOf)).toEqual([FAKE_CLAUDE_SESSION_ID, OTHER_SESSION]);
  });

  it("continues the thread's Task checklist across its turns: each resumed turn starts from the last list", async () => {
    const task = (id: string, subject: string): FakeClaudeStep[] => [
      ...claudeSteps.toolUse(`toolu_c${id}`, "TaskCreate", { subject, description: subject }),
      claudeSteps.toolResult(`toolu_c${id}`, `Task #${id} created successfully: ${subject}`, {
        toolUseResult: { task: { id, subject, description: subject } },
      }),
    ];
    const done = (id: string): FakeClaudeStep[] => [
      ...claudeSteps.toolUse(`toolu_u${id}`, "TaskUpdate", { taskId: id, status: "completed" }),
      claudeSteps.toolResult(`toolu_u${id}`, `Updated task #${id} status`, {
        toolUseResult: { success: true, taskId: id, statusChange: { from: "pending", to: "completed" } },
      }),
    ];
    const turn = (...steps: FakeClaudeStep[]): FakeClaudeScript => ({
      turn: [
        claudeSteps.init({ sessionId: OTHER_SESSION }),
        ...steps,
        claudeSteps.result({ sessionId: OTHER_SESSION }),
      ],
    });
    const fake = fakes(turn(...task("1", "alpha")), turn(...done("1")), turn(...task("2", "beta")));
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    const chat = claude.conversation();
    await chat.run("plan");
    await chat.run("do the first");
    // a later call that resumes the thread starts from the list the conversation's last turn left
    const session = claude.runStreamed({ prompt: "more", resume: chat.threadId ?? "" });
    const plans: unknown[] = [];
    for await (const event of session.events) if (event.type === "plan.updated") plans.push(event.steps);
    expect(plans).toEqual([
      [
        { step: "alpha", status: "completed" },
        { step: "beta", status: "pending" },
      ],
    ]);
  });

  it("runs one turn at a time", async () => {
    const fake = fakes({ turn: textTurn("ok") });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation();
    const running = chat.run("one");
    await expect(chat.run("two")).rejects.toBeInstanceOf(ConversationBusyError);
    await expect(chat.run("two")).rejects.toMatchObject({ code: "CONVERSATION_BUSY" });
    await running;
    await chat.run("two");
  });

  it("a first turn that failed after Claude started it keeps its thread: the next turn continues it", async () => {
    const fake = fakes({ turn: [claudeSteps.init(), ...claudeSteps.apiError(500, "API Error: 500")] });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation();
    await expect(chat.run("one")).rejects.toBeInstanceOf(TurnFailedError);
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
    await expect(chat.run("two")).rejects.toBeInstanceOf(TurnFailedError);
    expect(fake.args().map(resumeOf)).toEqual([null, FAKE_CLAUDE_SESSION_ID]);
  });

  it("a first turn that failed before Claude started it keeps no thread: the next turn starts one", async () => {
    const fake = fakes(
      { startup: [{ stderr: "Error: boom\n" }, { exit: { code: 1 } }] },
      { turn: textTurn("ok") },
    );
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation();
    await expect(chat.run("one")).rejects.toMatchObject({ terminal: { failure: { source: "exit" } } });
    expect(chat.threadId).toBeNull();
    await chat.run("two");
    expect(fake.args().map(resumeOf)).toEqual([null, null]);
  });

  it("a thread Claude has no transcript of is not replaced by the session id of the refusal", async () => {
    // what 2.1.332 answers to --resume of an unknown session: no system/init, a result under a new session id
    const refusal = claudeSteps.result({
      subtype: "error_during_execution",
      isError: true,
      result: "",
      sessionId: OTHER_SESSION,
      errors: [`No conversation found with session ID: ${FAKE_CLAUDE_SESSION_ID}`],
    });
    const fake = fakes({ turn: [refusal] });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation({
      threadId: FAKE_CLAUDE_SESSION_ID,
    });
    await expect(chat.run("one")).rejects.toBeInstanceOf(TurnFailedError);
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
  });

  it("a turn cancelled by a limit keeps its thread", async () => {
    const fake = fakes({
      turn: [claudeSteps.init(), ...claudeSteps.bash("toolu_1", "ls", { output: "a" }), { delayMs: 30_000 }],
    });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV, interruptGraceMs: 50 }).conversation({
      limits: { maxToolCalls: 0 },
    });
    await expect(chat.run("one")).rejects.toBeInstanceOf(TurnCancelledError);
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
  });

  it("a turn cancelled by the run's signal rejects with its reason and keeps the thread once Claude started it", async () => {
    const input = { command: "ls" };
    const fake = fakes({
      turn: [
        claudeSteps.init(),
        ...claudeSteps.toolUse("toolu_1", "Bash", input),
        claudeSteps.canUseTool("perm-1", "toolu_1", "Bash", input),
        { delayMs: 30_000 },
      ],
    });
    const controller = new AbortController();
    const reason = new Error("stop");
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV, interruptGraceMs: 50 }).conversation({
      // the prompt arrives after Claude's system/init: the signal is aborted once the turn has started
      approvals: {
        onRequest: () => {
          controller.abort(reason);
          return "decline";
        },
      },
    });
    await expect(chat.run("one", { signal: controller.signal })).rejects.toBe(reason);
    expect(chat.threadId).toBe(FAKE_CLAUDE_SESSION_ID);
  });

  it("a run cancelled before Claude started the turn rejects with the reason and keeps no thread", async () => {
    const fake = fakes({ startup: [{ hang: true }] });
    const chat = createClaudeCode({ launcher: fake.launcher, env: ENV }).conversation();
    const early = new Error("early");
    await expect(chat.run("one", { signal: AbortSignal.abort(early) })).rejects.toBe(early);
    expect(fake.args()).toEqual([]);
    const controller = new AbortController();
    const running = chat.run("two", { signal: controller.signal });
    const late = new Error("late");
    setImmediate(() => controller.abort(late));
    await expect(running).rejects.toBe(late);
    expect(chat.threadId).toBeNull();
  });

  it("refuses, before anything starts, the options a conversation owns or takes per turn, naming where they go", async () => {
    const fake = fakes({ turn: textTurn("ok") });
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    const refusal = (options: object) => thrownBy(() => claude.conversation(options as never));
    expect(refusal({ workingDirectory: "/tmp" })).toMatchObject({
      code: "OPTION_UNKNOWN",
      message: expect.stringMatching(/^conversation\(\) options: .*did you mean `cwd`/),
    });
    for (const [key, where] of [
      ["images", "chat.run(prompt, { images })"],
      ["signal", "chat.run(prompt, { signal })"],
      ["prompt", "chat.run(prompt)"],
      ["resume", "claude.conversation({ threadId })"],
      ["keepThread", "a conversation keeps its thread itself"],
    ] as const)
      expect(refusal({ [key]: undefined })).toMatchObject({
        code: "OPTION_UNKNOWN",
        message: expect.stringContaining(where),
      });
    expect(refusal({ cwd: "/nonexistent-rennet-dir" })).toMatchObject({ code: "CWD_INVALID" });
    expect(refusal({ model: 3 })).toMatchObject({ code: "OPTIONS_INVALID" });
    expect(refusal({ trustProject: "yes" })).toMatchObject({ code: "OPTIONS_INVALID" });
    for (const threadId of ["--help", "urn:uuid:" + FAKE_CLAUDE_SESSION_ID, "thr_1"]) {
      const error = refusal({ threadId });
      expect(error).toMatchObject({ code: "RESUME_ID_INVALID" });
      expect((error as Error).message).toMatch(/^threadId "/);
    }
    const chat = claude.conversation();
    await expect(chat.run("hi", { signl: undefined } as never)).rejects.toMatchObject({
      code: "OPTION_UNKNOWN",
      message: expect.stringMatching(
        /^conversation run\(\) \/ runStreamed\(\) options: .*did you mean `signal`/,
      ),
    });
    await expect(chat.run("hi", { signal: "x" } as never)).rejects.toMatchObject({ code: "OPTIONS_INVALID" });
    await expect(chat.run("   ")).rejects.toMatchObject({ code: "PROMPT_EMPTY" });
    await expect(chat.run("hi", { images: ["missing.png"] })).rejects.toMatchObject({
      code: "IMAGE_UNREADABLE",
    });
    expect(fake.args()).toEqual([]);
    expect(chat.threadId).toBeNull();
  });
});
