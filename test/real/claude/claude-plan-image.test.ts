/**
 * The real claude's plan tools and images, offline: the checklist the model writes becomes `plan.updated` (with
 * `TodoWrite` where the release offers it, else the deferred `TaskCreate`/`TaskUpdate` that
 * `CLAUDE_CODE_ENABLE_TODO_TOOLS` enables), and a local image reaches the model as an image content block.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { PIXEL_PNG } from "../../helpers/pixel-png.js";
import { ClaudeSetups, claudeUnderTest, collect, ofType } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
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

describe("real claude: plans and images", () => {
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

  it("a local image reaches the model as a base64 image block beside the prompt", async () => {
    const s = await setups.create(scenarios.text("A single transparent pixel."));
    await writeFile(path.join(s.cwd, "pixel.png"), PIXEL_PNG);
    const terminal = await s.claude.runStreamed({
      prompt: "What is in the image?",
      cwd: s.cwd,
      env: s.callEnv,
      images: ["pixel.png"],
    }).result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(terminal.finalMessage).toBe("A single transparent pixel.");
    const bodies = s.model.requests.map((request) => JSON.stringify(request.body));
    const withImage = bodies.filter((body) => body.includes(PIXEL_PNG.toString("base64")));
    expect(withImage.length).toBeGreaterThan(0);
    expect(withImage[0]).toContain('"type":"image"');
    expect(withImage[0]).toContain('"media_type":"image/png"');
    expect(withImage[0]).toContain("What is in the image?");
  });
});
