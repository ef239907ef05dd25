import { describe, expect, it } from "vitest";
import { fakeSteps, FAKE_THREAD_ID } from "../../src/testkit/fake-script.js";
import { parseJsonLines, runCli } from "./helpers/cli-harness.js";

/** What codex up to 0.114 sends beside the v2 notifications of a text turn (same shape, fewer of them). */
const legacy = (type: string, msg: Record<string, unknown> = {}) =>
  fakeSteps.notify(`codex/event/${type}`, { id: "", msg: { type, ...msg }, conversationId: FAKE_THREAD_ID });

const legacyTurn = [
  legacy("mcp_startup_complete", { ready: [], failed: [], cancelled: [] }),
  fakeSteps.turnStarted(),
  legacy("task_started"),
  legacy("user_message", { message: "hi" }),
  legacy("agent_message_content_delta", { delta: "Hel" }),
  legacy("agent_message_delta", { delta: "Hel" }),
  ...fakeSteps.agentMessage("msg_1", ["Hel", "lo."]),
  legacy("agent_message", { message: "Hello." }),
  legacy("token_count", { info: null }),
  legacy("task_complete", { last_agent_message: "Hello." }),
  fakeSteps.turnCompleted("completed"),
];

describe("legacy codex/event/* notifications", () => {
  it("--json keeps each as a native event with legacy: true, never as passthrough", async () => {
    const { code, stdout } = await runCli(["codex", "run", "--json", "hi"], { script: { turn: legacyTurn } });
    expect(code).toBe(0);
    const events = parseJsonLines(stdout.text);
    const legacyEvents = events.filter((event) => event.type === "native" && event.legacy === true);
    expect(legacyEvents.map((event) => (event.type === "native" ? event.method : ""))).toEqual([
      "codex/event/mcp_startup_complete",
      "codex/event/task_started",
      "codex/event/user_message",
      "codex/event/agent_message_content_delta",
      "codex/event/agent_message_delta",
      "codex/event/agent_message",
      "codex/event/token_count",
      "codex/event/task_complete",
    ]);
    expect(events.filter((event) => event.type === "passthrough")).toEqual([]);
    // the duplicates change nothing: the text is the v2 text once
    expect(events.at(-1)).toMatchObject({ type: "terminal", outcome: "completed", finalMessage: "Hello." });
  });

  it("the human renderer shows none of them", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "run", "hi"], { script: { turn: legacyTurn } });
    expect(code).toBe(0);
    expect(stdout.text).toBe("Hello.\n");
    expect(stderr.text).not.toContain("passthrough");
    expect(stderr.text).not.toContain("codex/event");
    expect(stderr.text.split("\n").filter(Boolean)).toHaveLength(1); // the outcome line only
  });
});
