/**
 * A call without `cwd` runs in the process's directory at the time of the call: the runner is built after a
 * deferred load, so a `process.chdir` between the call and the start must not move the turn elsewhere (and a
 * relative `cwd` names a directory from where the process was at the call, as its images and discovery do).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { explicitCodex } from "../../src/index.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect } from "../helpers/collect.js";

const before = process.cwd();
let elsewhere = "";

afterEach(async () => {
  process.chdir(before);
  if (elsewhere) await rm(elsewhere, { recursive: true, force: true });
});

async function startThenChdir(cwd: string | undefined) {
  elsewhere = await mkdtemp(path.join(os.tmpdir(), "rennet-chdir-"));
  const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
  const codex = createCodex({ codex: explicitCodex("/opt/codex"), launcher: fake.launcher, env: {} });
  const session = codex.runStreamed({ prompt: "hi", ...(cwd !== undefined ? { cwd } : {}) });
  process.chdir(elsewhere);
  const { terminal } = await collect(session);
  expect(terminal.outcome).toBe("completed");
  const launch = fake.launches[0];
  return { spawned: launch?.spec.cwd, thread: launch?.peer.requestsOf("thread/start")[0] };
}

describe("a codex call's working directory", () => {
  it("is the process's directory at the call, not at the start", async () => {
    const { spawned, thread } = await startThenChdir(undefined);
    expect(spawned).toBe(before);
    expect(thread).toMatchObject({ params: { cwd: before } });
  });

  it("given relative, is resolved against the process's directory at the call", async () => {
    const { spawned, thread } = await startThenChdir("test");
    expect(spawned).toBe(path.join(before, "test"));
    expect(thread).toMatchObject({ params: { cwd: path.join(before, "test") } });
  });
});
