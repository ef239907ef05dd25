import { describe, expect, it } from "vitest";
import { StreamTransport } from "../../src/jsonl/stream-transport.js";
import { spawnChild } from "../../src/process/spawn-child.js";
import { settledWithin } from "../../src/process/settled-within.js";
import { cleanUpAfterEach, firstFrame, fixture, pidOf } from "./process-test-helpers.js";
import { isAlive } from "../helpers/processes.js";

const { started } = cleanUpAfterEach();

describe.runIf(process.platform === "linux")("spawnChild", () => {
  it("lets go of the output pipes after terminate, also when a process that escaped the tree holds them", async () => {
    // an open pipe keeps the event loop alive: the CLI would not exit until the daemon ends
    const child = spawnChild(
      { command: process.execPath, args: [fixture("pipe-holder.js")] },
      // a long stdin grace: the fixture exits on EOF, also when a loaded machine takes longer than the default
      { stdin: "pipe", registryDir: null, trackIntervalMs: 0, stdinGraceMs: 10_000 },
    );
    if (child.pid !== null) started.add(child.pid);
    if (!child.stdin) throw new Error("no stdin");
    const frame = await firstFrame(new StreamTransport(child.stdout, child.stdin));
    const holder = pidOf(frame, "holder");
    started.add(holder);

    const result = await child.terminate();

    expect(result).toEqual({ endedBy: "stdin-eof", survivors: [] });
    expect(isAlive(holder)).toBe(true);
    expect(await settledWithin(child.outputClosed, 2_000)).toBe(true);
  });
});
