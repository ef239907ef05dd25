import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { HarnessSession } from "../../src/harness/session.js";
import { command, hang } from "../../src/testkit/model-scenarios.js";

import {
  midCommandWithSetsidGrandchild,
  startHygieneCodex,
  type HygieneCodex,
} from "../fixtures/hygiene/hygiene-codex.js";
import { waitForPids, waitUntilSessionLeader, watchTree } from "../helpers/processes.js";

// The real binary: cancelling a turn ends it as `cancelled` and leaves no process of its tree behind.
// Every test collects the app-server pid (session.started.pid), the command's pid and its grandchildren (the
// command writes `$$` and `$!` into the cwd), every pid seen under the app-server while the turn ran, and
// finally scans /proc for the environment marker that every descendant inherits.

let codex: HygieneCodex | null = null;
afterEach(async () => {
  await codex?.dispose();
  codex = null;
});

async function drive(
  session: HarnessSession,
  onEvent: (event: HarnessEvent) => Promise<void> | void,
): Promise<{ events: HarnessEvent[]; terminal: TerminalEvent; seen: number[] }> {
  const events: HarnessEvent[] = [];
  let watcher: ReturnType<typeof watchTree> | null = null;
  for await (const event of session.events) {
    events.push(event);
    if (event.type === "session.started" && event.pid !== null) {
      codex?.pids.add(event.pid);
      watcher = watchTree(event.pid);
    }
    await onEvent(event);
  }
  const terminal = await session.result;
  const seen = ((await watcher?.stop()) ?? []).map((identity) => identity.pid);
  for (const pid of seen) codex?.pids.add(pid);
  return { events, terminal, seen };
}

async function commandPids(hygiene: HygieneCodex): Promise<number[]> {
  const cwd = hygiene.fixture.cwd;
  const pids = [
    ...(await waitForPids(path.join(cwd, "command.pid"), 1)),
    ...(await waitForPids(path.join(cwd, "grandchild.pid"), 1)),
  ];
  for (const pid of pids) hygiene.pids.add(pid);
  // the grandchild has left the command's process group only once setsid() ran
  await waitUntilSessionLeader(pids[1] as number);
  return pids;
}

function interruptsSent(hygiene: HygieneCodex): number {
  return hygiene.recorder.sentMethods().filter((method) => method === "turn/interrupt").length;
}

describe.runIf(process.platform === "linux")("real codex: cancellation leaves no process", () => {
  it("an AbortSignal mid-command (sleep 300 with a setsid grandchild) ends cancelled and kills the whole tree", async () => {
    codex = await startHygieneCodex(midCommandWithSetsidGrandchild());
    const hygiene = codex;
    const controller = new AbortController();
    const session = hygiene.client.runStreamed({
      prompt: "run it",
      cwd: hygiene.fixture.cwd,
      signal: controller.signal,
    });
    let commandStarted = false;
    const { terminal, events, seen } = await drive(session, async (event) => {
      if (event.type !== "tool.started") return;
      commandStarted = true;
      // codex's turn/interrupt kills the command's process group at once, which orphans the setsid grandchild
      // to init before Rennet walks the tree; Rennet still reaches it once its periodic walk has recorded it
      // (the unrecorded case is the known gap pinned below)
      await hygiene.waitUntilRecorded(await commandPids(hygiene));
      controller.abort(new Error("the test aborts mid-command"));
    });

    expect(commandStarted).toBe(true);
    expect(terminal.outcome).toBe("cancelled");
    expect(["interrupted", "killed"]).toContain(terminal.cancellation?.via);
    expect(terminal.cancellation?.reason).toBe("the test aborts mid-command");
    expect(events.filter((event) => event.type === "terminal")).toHaveLength(1);
    expect(interruptsSent(hygiene)).toBe(1);
    // the launcher, the native app-server, the command and its grandchild were all seen under the app-server
    expect(seen.length).toBeGreaterThanOrEqual(4);
    hygiene.expectNothingSurvives();
    expect(await readdir(hygiene.registryDir)).toEqual([]);
  });

  // A grandchild double-forked into its own session is reparented to init at once, so no parent-link walk ever
  // sees it. The walk is off here so that no lucky tick can rescue it: only the inherited RENNET_TREE_ID
  // marker finds it.
  it("a double-forked setsid grandchild of a cancelled command does not survive", async () => {
    codex = await startHygieneCodex(
      command("(setsid sleep 301 & echo $! > grandchild.pid); echo $$ > command.pid; sleep 300", {
        then: "never reached",
        yieldTimeMs: 120_000,
      }),
      { trackIntervalMs: 0 },
    );
    const hygiene = codex;
    const controller = new AbortController();
    let grandchild = 0;
    const session = hygiene.client.runStreamed({
      prompt: "run it",
      cwd: hygiene.fixture.cwd,
      signal: controller.signal,
    });
    const { terminal } = await drive(session, async (event) => {
      if (event.type !== "tool.started") return;
      grandchild = (await commandPids(hygiene))[1] ?? 0;
      controller.abort(new Error("abort at once"));
    });
    expect(terminal.outcome).toBe("cancelled");
    expect(grandchild).toBeGreaterThan(0);
    for (const proc of hygiene.recorder.processes) if (proc.pid !== null) hygiene.pids.add(proc.pid);
    hygiene.pids.add(grandchild);
    hygiene.expectNothingSurvives();
  });

  it("run() with a signal aborted mid-command rejects with the signal's reason and kills the whole tree", async () => {
    codex = await startHygieneCodex(midCommandWithSetsidGrandchild());
    const hygiene = codex;
    const controller = new AbortController();
    const reason = new Error("abort from run()");
    const outcome = hygiene.client.run({
      prompt: "run it",
      cwd: hygiene.fixture.cwd,
      signal: controller.signal,
    });
    await hygiene.waitUntilRecorded(await commandPids(hygiene));
    controller.abort(reason);
    await expect(outcome).rejects.toBe(reason);
    expect(interruptsSent(hygiene)).toBe(1);
    hygiene.expectNothingSurvives();
  });

  it("a consumer that stops iterating mid-command cancels the turn and kills the whole tree", async () => {
    codex = await startHygieneCodex(midCommandWithSetsidGrandchild());
    const hygiene = codex;
    const session = hygiene.client.runStreamed({ prompt: "run it", cwd: hygiene.fixture.cwd });
    for await (const event of session.events) {
      if (event.type === "session.started" && event.pid !== null) hygiene.pids.add(event.pid);
      if (event.type === "tool.started") {
        await hygiene.waitUntilRecorded(await commandPids(hygiene));
        break;
      }
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.reason).toBe("the event consumer stopped");
    hygiene.expectNothingSurvives();
  });
});

describe.runIf(process.platform === "linux")("real codex: cancellation before the turn id", () => {
  it("an abort during the handshake ends cancelled before-turn, sends no turn/interrupt and kills the app-server", async () => {
    const controller = new AbortController();
    codex = await startHygieneCodex(hang(), {
      // abort once `initialize` is on its way, before codex can answer it
      onSpawn: (proc) => {
        const send = proc.transport.send.bind(proc.transport);
        proc.transport.send = (frame: object): boolean => {
          const sent = send(frame);
          if ((frame as { method?: unknown }).method === "initialize")
            queueMicrotask(() => controller.abort(new Error("abort during the handshake")));
          return sent;
        };
      },
    });
    const session = codex.client.runStreamed({
      prompt: "never answered",
      cwd: codex.fixture.cwd,
      signal: controller.signal,
    });
    const { terminal } = await drive(session, () => undefined);

    expect(codex.recorder.specs).toHaveLength(1);
    expect(codex.recorder.sentMethods()).toContain("initialize");
    expect(codex.recorder.sentMethods()).not.toContain("turn/start");
    expect(interruptsSent(codex)).toBe(0);
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "abort during the handshake" });
    expect(terminal.turnId).toBeNull();
    codex.expectNothingSurvives();
  });

  it("an abort at session.started (turn/start not yet acknowledged) ends cancelled before-turn with no turn/interrupt", async () => {
    codex = await startHygieneCodex(hang());
    const controller = new AbortController();
    const session = codex.client.runStreamed({
      prompt: "never answered",
      cwd: codex.fixture.cwd,
      signal: controller.signal,
    });
    const { terminal } = await drive(session, (event) => {
      if (event.type === "session.started") controller.abort(new Error("abort at session.started"));
    });

    expect(codex.recorder.specs).toHaveLength(1);
    expect(interruptsSent(codex)).toBe(0);
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation?.via).toBe("before-turn");
    codex.expectNothingSurvives();
  });

  it("an abort right after runStreamed returns ends cancelled before-turn and spawns nothing", async () => {
    codex = await startHygieneCodex(hang());
    const controller = new AbortController();
    const session = codex.client.runStreamed({
      prompt: "x",
      cwd: codex.fixture.cwd,
      signal: controller.signal,
    });
    controller.abort(new Error("abort at once"));
    const { events, terminal } = await drive(session, () => undefined);

    expect(events).toHaveLength(1);
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "abort at once" });
    expect(codex.recorder.specs).toHaveLength(0);
    expect(codex.fixture.model.requests).toHaveLength(0);
    codex.expectNothingSurvives();
  });

  it("an already-aborted signal spawns nothing: runStreamed ends cancelled before-turn, run() rejects with the reason", async () => {
    codex = await startHygieneCodex(hang());
    const reason = new Error("aborted before the call");
    const signal = AbortSignal.abort(reason);
    const { events, terminal } = await drive(
      codex.client.runStreamed({ prompt: "x", cwd: codex.fixture.cwd, signal }),
      () => undefined,
    );
    expect(events.map((event) => event.type)).toEqual(["terminal"]);
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "aborted before the call" });
    await expect(codex.client.run({ prompt: "x", cwd: codex.fixture.cwd, signal })).rejects.toBe(reason);
    expect(codex.recorder.specs).toHaveLength(0);
    expect(codex.fixture.model.requests).toHaveLength(0);
    codex.expectNothingSurvives();
  });
});
