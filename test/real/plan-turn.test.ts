import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { toolCall } from "../../src/testkit/model-scenarios.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const caps = codexCapabilities(testCodexVersion());
let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const PLAN = {
  explanation: "read first, then fix",
  plan: [
    { step: "read the code", status: "completed" },
    { step: "fix the bug", status: "in_progress" },
    { step: "run the tests", status: "pending" },
  ],
};

/**
 * Codex offers `update_plan` to a model it has no metadata for (the loopback model) up to 0.150; from 0.160 only
 * when the home's config.toml enables it at top level (`tools.update_plan.enabled = true`).
 */
const planHome = caps.planToolForUncataloguedModel
  ? {}
  : { extraToml: { tools: { update_plan: { enabled: true } } } };

describe("real codex: a turn with a plan update", () => {
  it("the model's update_plan call becomes one plan.updated event with the whole checklist", async () => {
    fixture = await startRealCodex(toolCall("update_plan", PLAN, { then: "Planned." }), {}, planHome);
    const session = fixture.client.runStreamed({ prompt: "fix the bug", cwd: fixture.cwd });
    const events: HarnessEvent[] = [];
    for await (const event of session.events) events.push(event);
    const terminal = await session.result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    const offered = fixture.model.responsesRequests()[0]?.body as { tools?: { name?: string }[] };
    expect(offered.tools?.map((tool) => tool.name)).toContain("update_plan");
    const plans = events.filter((event) => event.type === "plan.updated");
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      explanation: "read first, then fix",
      steps: [
        { step: "read the code", status: "completed" },
        { step: "fix the bug", status: "inProgress" },
        { step: "run the tests", status: "pending" },
      ],
    });
    expect(terminal.finalMessage).toBe("Planned.");
  });
});
