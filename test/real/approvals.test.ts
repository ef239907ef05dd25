import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest, HarnessEvent } from "../../src/harness/events.js";
import type { HarnessSession } from "../../src/harness/session.js";
import {
  command,
  escalatedCommand,
  messageThenCommand,
  sequence,
  text,
} from "../../src/testkit/scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { ofType } from "../helpers/collect.js";
import { isAlive as alive } from "../helpers/processes.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

// The pinned codex, offline: approvals routed to the app's handler (policy untrusted / on-request in the
// workspace-write sandbox), steering a running turn, and limits that stop it.

const caps = codexCapabilities(testCodexVersion());

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

async function drain(session: HarnessSession, onEvent: (e: HarnessEvent) => void = () => {}) {
  const events: HarnessEvent[] = [];
  for await (const event of session.events) {
    events.push(event);
    onEvent(event);
  }
  return { events, terminal: await session.result };
}

/** The `function_call_output` text codex sent the model for the command. */
function toolOutputSent(f: RealCodexFixture): string {
  const input = (f.model.responsesRequests().at(-1)?.body as { input?: unknown[] }).input ?? [];
  const output = input.find((i) => (i as { type?: string }).type === "function_call_output") as
    { output?: string } | undefined;
  return output?.output ?? "";
}

describe("approvals against the real codex", () => {
  it.each([
    ["accept", true],
    ["decline", false],
  ] as const)("a command's request reaches the handler with argv and cwd; %s", async (decision, runs) => {
    fixture = await startRealCodex(command("touch approved.marker", { then: "done" }));
    const seen: ApprovalRequest[] = [];
    const session = fixture.client.runStreamed({
      prompt: "touch the marker",
      cwd: fixture.cwd,
      // a codex that rewrites trust (0.120–0.124) gets a read-only thread for an untrusted project, where no
      // accepted write could run: the project is trusted for this call there (the guard's own test covers it)
      ...(caps.trustRewriteAtThreadStart ? { trustProject: true } : {}),
      approvals: { onRequest: (request) => (seen.push(request), decision) },
    });
    const { events, terminal } = await drain(session);
    expect(terminal.outcome).toBe("completed");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: "command", argv: ["touch", "approved.marker"], cwd: fixture.cwd });
    expect(seen[0]?.decisions).toContain("decline");
    expect(existsSync(path.join(fixture.cwd, "approved.marker"))).toBe(runs);
    if (!runs) expect(toolOutputSent(fixture)).toContain("rejected by user");
    expect(ofType(events, "approval.resolved")).toEqual([
      expect.objectContaining({ decision, decidedBy: "handler", kind: "command" }),
    ]);
    const tool = ofType(events, "tool.completed")[0];
    expect(tool?.status).toBe(runs ? "completed" : "declined");
    expect(fixture.sent("thread/start")[0]).toMatchObject({
      approvalPolicy: "untrusted",
      sandbox: "workspace-write",
    });
  });

  it("on-request: a write outside the workspace asks with the model's justification; accepted, it runs", async () => {
    const outside = await mkdtemp("/var/tmp/rennet-approvals-");
    try {
      const marker = path.join(outside, "outside.marker");
      fixture = await startRealCodex(
        escalatedCommand(`touch ${marker}`, { then: "done", justification: "write the marker outside" }),
      );
      const seen: ApprovalRequest[] = [];
      const session = fixture.client.runStreamed({
        prompt: "write outside",
        cwd: fixture.cwd,
        approvals: { mode: "on-request", onRequest: (request) => (seen.push(request), "accept") },
      });
      const { terminal } = await drain(session);
      expect(terminal.outcome).toBe("completed");
      expect(seen[0]).toMatchObject({
        kind: "command",
        reason: "write the marker outside",
        argv: ["touch", marker],
      });
      expect(existsSync(marker)).toBe(true);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("steering the real codex", () => {
  it.skipIf(caps.turnSteer)(
    "a codex without turn/steer (before 0.100) rejects steer with STEER_UNSUPPORTED; the turn goes on",
    async () => {
      fixture = await startRealCodex(command("sleep 0.5", { then: "answer" }));
      const session = fixture.client.runStreamed({ prompt: "start", cwd: fixture.cwd });
      let refusal: Promise<unknown> | null = null;
      const { terminal } = await drain(session, (event) => {
        if (event.type === "tool.started")
          refusal = session.steer("STEER: focus on the tests").then(
            () => "accepted",
            (error: unknown) => error,
          );
      });
      expect(await refusal).toMatchObject({ code: "STEER_UNSUPPORTED" });
      expect(terminal.outcome).toBe("completed");
      expect(terminal.finalMessage).toBe("answer");
      expect(fixture.sent("turn/steer")).toEqual([]);
      expect(JSON.stringify(fixture.model.responsesRequests())).not.toContain("STEER");
    },
  );

  it.skipIf(!caps.turnSteer)(
    "the guidance reaches the model's next request and the turn completes once",
    async () => {
      fixture = await startRealCodex(
        sequence([command("sleep 1.5", { then: "unused" }), text("steered answer")]),
      );
      const session = fixture.client.runStreamed({ prompt: "start", cwd: fixture.cwd });
      let steered: Promise<void> | null = null;
      const { events, terminal } = await drain(session, (event) => {
        if (event.type === "tool.started") steered = session.steer("STEER: focus on the tests");
      });
      await expect(steered).resolves.toBeUndefined();
      expect(terminal.outcome).toBe("completed");
      expect(terminal.finalMessage).toBe("steered answer");
      expect(ofType(events, "terminal")).toHaveLength(1);
      const requests = fixture.model.responsesRequests();
      expect(requests).toHaveLength(2);
      expect(JSON.stringify(requests[1]?.body)).toContain("STEER: focus on the tests");
      expect(JSON.stringify(requests[0]?.body)).not.toContain("STEER");
      const steer = fixture.sent("turn/steer")[0] as { expectedTurnId?: string };
      expect(steer.expectedTurnId).toBe(terminal.turnId);
      await expect(session.steer("after the end")).rejects.toMatchObject({ code: "TURN_NOT_RUNNING" });
    },
  );
});

describe("limits on the real codex", () => {
  it.each([
    ["maxTokens", { maxTokens: 500 }, 1050],
    ["maxToolCalls", { maxToolCalls: 0 }, 1],
  ] as const)(
    "%s cancels the turn with the partial text and leaves nothing alive",
    async (name, limits, reached) => {
      fixture = await startRealCodex(
        messageThenCommand("partial text before the command", "echo $$ > cmd.pid; sleep 30", {
          then: "unused",
          // codex reports the request's usage once the command has run or yielded
          yieldTimeMs: 1_000,
        }),
      );
      let appServerPid: number | null = null;
      const session = fixture.client.runStreamed({ prompt: "go", cwd: fixture.cwd, limits });
      const { terminal } = await drain(session, (event) => {
        if (event.type === "session.started") appServerPid = event.pid;
      });
      expect(terminal.outcome).toBe("cancelled");
      expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name, reached } });
      expect(terminal.finalMessage).toBe("partial text before the command");
      if (name === "maxTokens") expect(terminal.usage?.totalTokens).toBe(1050);
      expect(appServerPid).not.toBeNull();
      expect(alive(appServerPid as unknown as number)).toBe(false);
      const pidFile = path.join(fixture.cwd, "cmd.pid");
      if (existsSync(pidFile)) expect(alive(Number(await readFile(pidFile, "utf8")))).toBe(false);
    },
  );

  it("a request codex sends after a limit stopped the turn is answered cancel, never asking the handler", async () => {
    fixture = await startRealCodex(command("touch limited.marker", { then: "unused" }));
    let asked = 0;
    const session = fixture.client.runStreamed({
      prompt: "touch the marker",
      cwd: fixture.cwd,
      ...(caps.trustRewriteAtThreadStart ? { trustProject: true } : {}),
      limits: { maxToolCalls: 0 },
      approvals: { onRequest: () => (asked++, "accept") },
    });
    const { events, terminal } = await drain(session);
    expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name: "maxToolCalls" } });
    // 0.171 asks for the command after its tool.started, where the limit stopped the turn
    const stop = events.findIndex((e) => e.type === "tool.started");
    const late = new Set(
      events.slice(stop).flatMap((e) => (e.type === "approval.requested" ? [e.requestId] : [])),
    );
    const resolved = ofType(events, "approval.resolved");
    expect(resolved.filter((r) => late.has(r.requestId))).toEqual(
      [...late].map(() => expect.objectContaining({ decision: "cancel", decidedBy: "cancel" })),
    );
    expect(asked).toBe(resolved.length - late.size);
    expect(existsSync(path.join(fixture.cwd, "limited.marker"))).toBe(false);
  });
});
