import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// A registry directory on a file system that stopped answering.
const STALLED = "stalled-registry-mount";
vi.mock("node:fs/promises", async (importOriginal) =>
  (await import("../helpers/stalled-fs.js")).stalledFsPromises(
    await importOriginal(),
    "stalled-registry-mount",
  ),
);

const { spawnChild } = await import("../../src/process/spawn-child.js");
const { settledWithin } = await import("../../src/process/settled-within.js");
const { cleanUpAfterEach, fixture } = await import("./process-test-helpers.js");

const { started } = cleanUpAfterEach();
const registryDir = path.join("/nonexistent", STALLED, "spawned");

describe.runIf(process.platform !== "win32")("a spawn registry that never answers", () => {
  it("does not hold up the end of the tree: terminate resolves once the child is gone", async () => {
    const child = spawnChild(
      { command: process.execPath, args: [fixture("echo-until-eof.js")] },
      { stdin: "pipe", registryDir, trackIntervalMs: 0 },
    );
    if (child.pid !== null) started.add(child.pid);

    expect(await settledWithin(child.terminate(), 5_000)).toBe(true);
    expect(await settledWithin(child.exit, 0)).toBe(true);
  });

  it("does not hold up the release of a child that exited on its own", async () => {
    const child = spawnChild(
      { command: process.execPath, args: ["-e", ""] },
      { stdin: "ignore", registryDir, trackIntervalMs: 0 },
    );
    if (child.pid !== null) started.add(child.pid);
    await child.exit;

    expect(await settledWithin(child.release(), 5_000)).toBe(true);
  });
});
