import { describe, expect, it } from "vitest";
import { compareSchema } from "../../../src/codex/versions/drift/drift-compare.js";
import { fixtureBundle } from "./schema-fixture.js";

const bad = (bundle: unknown) =>
  compareSchema(bundle)
    .rows.filter((row) => row.status !== "ok")
    .map((row) => [row.subject, row.status, row.optional]);

describe("compareSchema", () => {
  it("finds everything Rennet relies on in a complete schema", () => {
    const comparison = compareSchema(fixtureBundle());
    expect(bad(fixtureBundle())).toEqual([]);
    expect(comparison.ok).toBe(true);
    expect(comparison.newNotifications).toEqual([]);
    expect(comparison.rows.length).toBeGreaterThan(50);
  });

  it("reports a missing method, a missing field and a removed enum value", () => {
    const bundle = fixtureBundle({
      dropMethods: ["turn/interrupt"],
      dropFields: ["ThreadStartParams.ephemeral"],
      sandboxValues: ["read-only", "workspace-write"],
    });
    expect(bad(bundle)).toEqual([
      ["thread/start.ephemeral", "missing", false],
      ['thread/start.sandbox = "danger-full-access"', "changed", false],
      ["turn/interrupt", "missing", false],
      ["turn/interrupt.threadId", "missing", false],
      ["turn/interrupt.turnId", "missing", false],
    ]);
    const changed = compareSchema(bundle).rows.find((row) => row.status === "changed");
    expect(changed?.detail).toBe("values: read-only, workspace-write");
    expect(compareSchema(bundle).ok).toBe(false);
  });

  it("an optional absence (older codex: no runtimeStatus, no startup notification) is reported but is no drift", () => {
    const bundle = fixtureBundle({
      dropMethods: ["mcpServer/startupStatus/updated"],
      dropFields: ["McpServerStatus.runtimeStatus"],
    });
    expect(bad(bundle)).toEqual([
      ["McpServerStatus.runtimeStatus", "missing", true],
      ["mcpServer/startupStatus/updated", "missing", true],
    ]);
    expect(compareSchema(bundle).ok).toBe(true);
  });

  it("a tagged variant that disappears is a change, and an open string admits any value", () => {
    const bundle = fixtureBundle();
    const v2 = (bundle.definitions as { v2: Record<string, unknown> }).v2;
    v2.ThreadItem = { oneOf: [{ type: "object", properties: { type: { enum: ["agentMessage"] } } }] };
    v2.AskForApproval = { type: "string" };
    expect(bad(bundle).map(([subject, status]) => `${String(subject)} ${String(status)}`)).toEqual([
      'item/completed.item = "reasoning" changed',
      'item/completed.item = "commandExecution" changed',
      'item/completed.item = "fileChange" changed',
      'item/completed.item = "mcpToolCall" changed',
    ]);
  });

  it("names the notifications Rennet does not know, ignoring legacy codex/event/* ones", () => {
    const comparison = compareSchema(
      fixtureBundle({
        extraNotifications: ["future/thing/happened", "codex/event/task_started", "turn/diff/updated"],
      }),
    );
    expect(comparison.newNotifications).toEqual(["future/thing/happened"]);
  });

  it("an empty or foreign document is all missing, never a crash", () => {
    expect(compareSchema({}).ok).toBe(false);
    expect(compareSchema(null).rows.every((row) => row.status === "missing")).toBe(true);
  });
});
