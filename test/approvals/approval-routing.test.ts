import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { ApprovalOptions, HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { fakeSteps, type FakeScript, type FakeStep } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { ofType } from "../helpers/collect.js";

/** A turn that asks `request` (a server request with id 0), waits for the answer, then completes. */
function askingTurn(...requests: FakeStep[]): FakeStep[] {
  const ids = requests.map((r) => ("send" in r ? (r.send.id as number | string) : 0));
  return [
    fakeSteps.turnStarted(),
    ...requests.flatMap((r, i) => [r, { awaitReply: ids[i] ?? 0 }]),
    ...fakeSteps.textTurn("done").slice(1),
  ];
}

async function run(
  script: FakeScript,
  approvals: ApprovalOptions | undefined,
  extra: Record<string, unknown> = {},
): Promise<{ fake: InMemoryAppServer; events: HarnessEvent[]; terminal: TerminalEvent }> {
  const fake = new InMemoryAppServer(script);
  const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    timeouts: { turnMs: 5_000 },
    ...(approvals ? { approvals } : {}),
    ...extra,
  });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { fake, events, terminal: await session.result };
}

/** The client's reply to server request `id`. */
function replyTo(fake: InMemoryAppServer, id: number | string): unknown {
  const frame = fake.peer.received.find((f) => f.id === id && !("method" in f));
  return frame && ("result" in frame ? frame.result : { error: frame.error });
}

const command = fakeSteps.commandApproval(0, {
  command: "/bin/bash -c 'git status --short'",
  cwd: "/work/repo",
  reason: "check the tree",
});

describe("approval routing (fake app-server through the real framing)", () => {
  it("asks with policy untrusted in the workspace-write sandbox, and nothing changes without approvals", async () => {
    const withApprovals = await run({ turn: fakeSteps.textTurn("x") }, { onRequest: () => "accept" });
    const threadStart = withApprovals.fake.peer.requestsOf("thread/start")[0]?.params as Record<
      string,
      unknown
    >;
    const turnStart = withApprovals.fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(threadStart).toMatchObject({ approvalPolicy: "untrusted", sandbox: "workspace-write" });
    expect(turnStart.approvalPolicy).toBe("untrusted");
    expect(turnStart).not.toHaveProperty("sandboxPolicy");

    const onRequest = await run(
      { turn: fakeSteps.textTurn("x") },
      { onRequest: () => "accept", mode: "on-request" },
    );
    expect(onRequest.fake.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      approvalPolicy: "on-request",
    });

    const plain = await run({ turn: askingTurn(command) }, undefined);
    expect(plain.fake.peer.requestsOf("thread/start")[0]?.params).toMatchObject({
      approvalPolicy: "never",
      sandbox: "danger-full-access",
    });
    expect(plain.fake.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    expect(replyTo(plain.fake, 0)).toEqual({ decision: "accept" });
    expect(ofType(plain.events, "approval.requested")).toEqual([]);
    expect(ofType(plain.events, "request.answered")).toHaveLength(1);
  });

  it("gives the handler a typed command request with argv and cwd, and answers with its decision", async () => {
    const seen: unknown[] = [];
    const { fake, events, terminal } = await run(
      { turn: askingTurn(command) },
      {
        onRequest: (request, { signal }) => {
          seen.push(request, signal.aborted);
          return "acceptForSession";
        },
      },
    );
    expect(terminal.outcome).toBe("completed");
    expect(seen[0]).toMatchObject({
      kind: "command",
      id: "0",
      harness: "codex",
      command: "/bin/bash -c 'git status --short'",
      argv: ["git", "status", "--short"],
      cwd: "/work/repo",
      reason: "check the tree",
      decisions: ["accept", "acceptForSession", "decline", "cancel"],
      native: { method: "item/commandExecution/requestApproval" },
    });
    expect(seen[1]).toBe(false);
    expect(replyTo(fake, 0)).toEqual({ decision: "acceptForSession" });
    const requested = ofType(events, "approval.requested");
    const resolved = ofType(events, "approval.resolved");
    expect(requested).toHaveLength(1);
    expect(resolved).toEqual([
      expect.objectContaining({
        requestId: "0",
        kind: "command",
        decision: "acceptForSession",
        decidedBy: "handler",
      }),
    ]);
    expect(resolved[0]?.durationMs).toBeGreaterThanOrEqual(0);
    const [req, res, answered] = [requested[0]!, resolved[0]!, ofType(events, "request.answered")[0]!];
    expect(req.seq).toBeLessThan(res.seq);
    expect(res.seq).toBeLessThan(answered.seq);
    expect(answered.reply).toEqual({ result: { decision: "acceptForSession" } });
  });
});
