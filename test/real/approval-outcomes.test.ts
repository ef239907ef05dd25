import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/harness/events.js";
import { applyPatch, command } from "../../src/testkit/model-scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { expectApprovalEventOrder } from "../helpers/approval-order.js";
import { collect, ofType } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

// The real codex, offline: the handler outcomes beside accept and decline (approvals.test.ts): cancel ends the
// turn, a throwing or silent handler is a decline, a file change is asked about, and each request's events come
// in the documented order.

const caps = codexCapabilities(testCodexVersion());
// codex 0.120–0.124 run an untrusted project read-only (approvals.test.ts): trusted here so a write can run
const trust = caps.trustRewriteAtThreadStart ? { trustProject: true } : {};

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

describe("approval outcomes against the real codex", () => {
  it("cancel: the command does not run and the turn ends cancelled", async () => {
    fixture = await startRealCodex(command("touch cancelled.marker", { then: "unused" }));
    const session = fixture.client.runStreamed({
      prompt: "touch the marker",
      cwd: fixture.cwd,
      ...trust,
      approvals: { onRequest: (request) => (request.decisions.includes("cancel") ? "cancel" : "decline") },
    });
    const { events, terminal } = await collect(session);
    expect(existsSync(path.join(fixture.cwd, "cancelled.marker"))).toBe(false);
    expect(ofType(events, "approval.resolved")[0]).toMatchObject({
      decision: "cancel",
      decidedBy: "handler",
    });
    expect(terminal.outcome).toBe("cancelled");
    expectApprovalEventOrder(events);
  });

  it.each([
    ["throws", () => Promise.reject(new Error("policy store down")), "default"],
    ["never answers", () => new Promise<never>(() => {}), "deadline"],
  ] as const)(
    "a handler that %s declines; the command does not run; the turn goes on",
    async (_, handler, by) => {
      fixture = await startRealCodex(command("touch unanswered.marker", { then: "carried on" }));
      let signal: AbortSignal | null = null;
      const session = fixture.client.runStreamed({
        prompt: "touch the marker",
        cwd: fixture.cwd,
        ...trust,
        approvals: { onRequest: (_r, context) => ((signal = context.signal), handler()), timeoutMs: 300 },
      });
      const { events, terminal } = await collect(session);
      expect(terminal.outcome).toBe("completed");
      expect(terminal.finalMessage).toBe("carried on");
      expect(existsSync(path.join(fixture.cwd, "unanswered.marker"))).toBe(false);
      const resolved = ofType(events, "approval.resolved");
      expect(resolved).toEqual([expect.objectContaining({ decision: "decline", decidedBy: by })]);
      if (by === "default") expect(resolved[0]?.error).toContain("policy store down");
      else expect((signal as AbortSignal | null)?.reason).toMatchObject({ code: "APPROVAL_DEADLINE" });
      expectApprovalEventOrder(events);
    },
  );

  it.skipIf(!caps.modelCatalogJson)(
    "a file change is asked about with its path and diff; declined, no file",
    async () => {
      const patch = ["*** Begin Patch", "*** Add File: asked.txt", "+asked", "*** End Patch", ""].join("\n");
      fixture = await startRealCodex(applyPatch(patch, { then: "done" }), {}, { modelCatalog: true });
      const seen: ApprovalRequest[] = [];
      const session = fixture.client.runStreamed({
        prompt: "add a file",
        cwd: fixture.cwd,
        ...trust,
        approvals: { onRequest: (request) => (seen.push(request), "decline") },
      });
      const { events, terminal } = await collect(session);
      expect(terminal.outcome).toBe("completed");
      expect(seen).toEqual([expect.objectContaining({ kind: "fileChange" })]);
      const request = seen[0] as Extract<ApprovalRequest, { kind: "fileChange" }>;
      expect(request.paths.map((p) => path.basename(p))).toEqual(["asked.txt"]);
      expect(request.diff).toContain("+asked");
      expect(existsSync(path.join(fixture.cwd, "asked.txt"))).toBe(false);
      expectApprovalEventOrder(events);
    },
  );
});
