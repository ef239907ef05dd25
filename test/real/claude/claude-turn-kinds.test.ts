/**
 * The real claude's plan tools, images and subagents, offline: the checklist the model writes becomes
 * `plan.updated` (with `TodoWrite` where the release offers it, else the deferred `TaskCreate`/`TaskUpdate` that
 * `CLAUDE_CODE_ENABLE_TODO_TOOLS` enables), a local image reaches the model as an image content block, and the
 * work of a subagent carries its parent tool's id.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { PIXEL_PNG } from "../../helpers/pixel-png.js";
import { ClaudeSetups, claudeUnderTest, collect, IMAGE_PROMPT, imageTurn, ofType } from "./claude-helpers.js";

const setups = new ClaudeSetups();
const { capabilities } = claudeUnderTest();
afterEach(() => setups.dispose());

/** Whether the request offers the model the tool `name`. */
function offers(body: unknown, name: string): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) && tools.some((tool) => (tool as { name?: unknown }).name === name);
}

/** `TodoWrite` where the first request offers it, else `TaskCreate` then `TaskUpdate`; the step is "write the fix". */
function planScenario(): MessagesScenario {
  let chosen: MessagesScenario | null = null;
  return (request, index) => {
    chosen ??= offers(request.body, "TodoWrite")
      ? scenarios.todoWrite(
          [
            { content: "read the code", status: "completed" },
            { content: "write the fix", status: "in_progress" },
          ],
          { then: "planned" },
        )
      : scenarios.taskCreate("write the fix", { then: "planned", thenStatus: "in_progress" });
    return chosen(request, index);
  };
}

/**
 * The turn whose prompt holds a key of `turns` makes its calls in order (counted from that prompt, so a resumed
 * turn's history does not shift them), then answers "ok".
 */
function perTurn(
  turns: Record<string, { name: string; input: Record<string, unknown> }[]>,
): MessagesScenario {
  return (request, index) => {
    const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
    const at = messages.findLastIndex(
      (m) => m.role === "user" && JSON.stringify(m.content).includes("TURN-"),
    );
    const key = Object.keys(turns).find((k) => JSON.stringify(messages[at]?.content ?? "").includes(k));
    const own = { ...request, body: { ...(request.body as object), messages: messages.slice(at) } };
    return scenarios.toolUses(turns[key ?? ""] ?? [], { then: "ok" })(own, index);
  };
}

const task = (subject: string) => ({
  name: "TaskCreate",
  input: { subject, description: subject, activeForm: subject },
});

const SUBAGENT_PROMPT = "Run echo from-subagent";

/**
 * The main agent delegates to a foreground subagent (`Agent`, `Task` on older releases); the subagent's own
 * requests (they carry its prompt) run one Bash command, then answer.
 */
function subagentScenario(): MessagesScenario {
  const delegate = (name: string): MessagesScenario =>
    scenarios.toolUse(
      name,
      {
        description: "check the directory",
        prompt: SUBAGENT_PROMPT,
        subagent_type: "general-purpose",
        run_in_background: false,
      },
      { then: "the subagent checked it" },
    );
  const subagent = scenarios.bash("echo from-subagent", { then: "sub done" });
  return (request, index) => {
    if (request.rawBody.includes(SUBAGENT_PROMPT)) return subagent(request, index);
    return delegate(offers(request.body, "Agent") ? "Agent" : "Task")(request, index);
  };
}

describe("real claude: plans, images and subagents", () => {
  it("the model's checklist becomes plan.updated, its tool events paired, the turn completed", async () => {
    const s = await setups.create(planScenario());
    const session = s.claude.runStreamed({
      prompt: "Plan the fix",
      cwd: s.cwd,
      env: { ...s.callEnv, CLAUDE_CODE_ENABLE_TODO_TOOLS: "true" },
    });
    const events = await collect(session.events);
    const terminal = await session.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    const plans = ofType(events, "plan.updated");
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.at(-1)?.steps).toContainEqual({ step: "write the fix", status: "inProgress" });
    const started = ofType(events, "tool.started").filter((event) => event.tool === "plan");
    const completed = ofType(events, "tool.completed").filter((event) => event.tool === "plan");
    expect(started.length).toBeGreaterThan(0);
    expect(completed.map((event) => event.itemId)).toEqual(started.map((event) => event.itemId));
    expect(completed.every((event) => event.status === "completed")).toBe(true);
  });

  it("a resumed turn continues the thread's Task list: its plan.updated carries the earlier turn's tasks", async (context) => {
    // 2.0 releases send warm-up requests a per-turn script cannot tell apart, and offer no Task tools
    if (/^2\.0\./.test(capabilities().version ?? "")) context.skip();
    const s = await setups.create(
      perTurn({
        "TURN-ONE": [task("alpha"), task("beta")],
        "TURN-TWO": [{ name: "TaskUpdate", input: { taskId: "1", status: "completed" } }, task("gamma")],
      }),
    );
    const env = { ...s.callEnv, CLAUDE_CODE_ENABLE_TODO_TOOLS: "true" };
    const first = s.claude.runStreamed({ prompt: "TURN-ONE", cwd: s.cwd, env, keepThread: true });
    // releases that offer TodoWrite (2.1.112) refuse the Task tools: only a Task list is kept with the thread
    if (ofType(await collect(first.events), "plan.updated").length === 0) context.skip();
    const { threadId } = await first.result;
    const second = s.claude.runStreamed({
      prompt: "TURN-TWO",
      cwd: s.cwd,
      env,
      resume: threadId ?? "",
    });
    const plans = ofType(await collect(second.events), "plan.updated").map((event) => event.steps);
    expect((await second.result).outcome).toBe("completed");
    expect(plans).toEqual([
      [
        { step: "alpha", status: "completed" },
        { step: "beta", status: "pending" },
      ],
      [
        { step: "alpha", status: "completed" },
        { step: "beta", status: "pending" },
        { step: "gamma", status: "pending" },
      ],
    ]);
  });

  it("a local image reaches the model as a base64 image block beside the prompt", async () => {
    const s = await setups.create(scenarios.text("A single transparent pixel."));
    const terminal = await imageTurn(s, "pixel.png", PIXEL_PNG);
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(terminal.finalMessage).toBe("A single transparent pixel.");
    const bodies = s.model.requests.map((request) => JSON.stringify(request.body));
    const withImage = bodies.filter((body) => body.includes(PIXEL_PNG.toString("base64")));
    expect(withImage.length).toBeGreaterThan(0);
    expect(withImage[0]).toContain('"type":"image"');
    expect(withImage[0]).toContain('"media_type":"image/png"');
    expect(withImage[0]).toContain(IMAGE_PROMPT);
  });

  it("a subagent's command is paired and marked with the subagent tool's id, inside the subagent's own pair", async () => {
    const s = await setups.create(subagentScenario());
    const session = s.claude.runStreamed({ prompt: "Delegate it", cwd: s.cwd, env: s.callEnv });
    const events = await collect(session.events);
    const terminal = await session.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    const subagent = ofType(events, "tool.started").find((event) => event.tool === "subagent");
    expect(subagent).toMatchObject({ title: "check the directory" });
    expect(subagent?.parentToolId).toBeUndefined();
    const command = ofType(events, "tool.started").find((event) => event.tool === "command");
    expect(command).toMatchObject({ title: "echo from-subagent", parentToolId: subagent?.itemId });
    const seqOf = (type: "tool.started" | "tool.completed", itemId: string | undefined): number | undefined =>
      events.find((event) => event.type === type && "itemId" in event && event.itemId === itemId)?.seq;
    const order = [
      seqOf("tool.started", subagent?.itemId),
      seqOf("tool.started", command?.itemId),
      seqOf("tool.completed", command?.itemId),
      seqOf("tool.completed", subagent?.itemId),
    ];
    expect(order.every((seq) => seq !== undefined)).toBe(true);
    expect([...order].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(order);
  });
});
