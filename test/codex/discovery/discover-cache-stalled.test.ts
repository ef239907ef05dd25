import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// The probe cache's directory on a file system that stopped answering.
const STALLED = "stalled-cache-mount";
vi.mock("node:fs/promises", async (importOriginal) =>
  (await import("../../helpers/stalled-fs.js")).stalledFsPromises(
    await importOriginal(),
    "stalled-cache-mount",
  ),
);

const { discoverCodex } = await import("../../../src/codex/discovery/discover.js");
const { settledWithin } = await import("../../../src/process/settled-within.js");
const { sandboxPerTest } = await import("../../helpers/discovery-sandbox.js");

const sb = sandboxPerTest();

describe.runIf(process.platform !== "win32")("discoverCodex: a probe cache that never answers", () => {
  it("is done without: discovery finds the codex without the cache instead of waiting for it", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"));
    const env = sb().env({ PATH: path.dirname(codex) });
    const discovery = discoverCodex(sb().options(env, { cacheDir: path.join(sb().root, STALLED) }));
    expect(await settledWithin(discovery, 10_000)).toBe(true);
    const report = await discovery;
    expect(report.chosen?.path).toBe(codex);
    expect(report.candidates[0]?.cached).toBe(false);
  });
});
