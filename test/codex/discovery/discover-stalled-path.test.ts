import type * as Fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// A directory on PATH on a file system that stopped answering: stat never settles there.
const STALLED = "stalled-path-mount";
const stalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const { stalledFsPromises } = await import("../../helpers/stalled-fs.js");
  const promises = stalledFsPromises(fs.promises, "stalled-path-mount", () => stalls.count++);
  return { ...fs, promises, default: { ...fs, promises } };
});

const { discoverCodex } = await import("../../../src/codex/discovery/discover.js");
const { settledWithin } = await import("../../../src/process/settled-within.js");
const { sandboxPerTest } = await import("../../helpers/discovery-sandbox.js");
const { waitFor } = await import("../../helpers/wait.js");

const sb = sandboxPerTest();

describe.runIf(process.platform !== "win32")("discoverCodex: a PATH directory that never answers", () => {
  it("an abort ends discovery with the signal's reason while the file system call still hangs", async () => {
    const codex = await sb().fakeCodex(await sb().dir("a"));
    const env = sb().env({ PATH: `${path.join(sb().root, STALLED)}:${path.dirname(codex)}` });
    const controller = new AbortController();
    const discovery = discoverCodex(sb().options(env, { signal: controller.signal }));
    discovery.catch(() => {});
    await waitFor(() => stalls.count > 0);
    const reason = new Error("stop");
    controller.abort(reason);
    expect(await settledWithin(discovery, 10_000)).toBe(true);
    await expect(discovery).rejects.toBe(reason);
  });
});
