/**
 * Discovery without an injected environment reads the account's login shell when SHELL is not set; a process whose
 * uid has no entry in the password database (a container started with `--user 1234`) makes that lookup throw,
 * which must cost only the login shell, never the discovery.
 */
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { discoverCodex } from "../../src/codex/discovery/discover.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";

const sandbox = sandboxPerTest();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** `os.userInfo()` as it behaves for a uid with no password-database entry. */
function noPasswdEntry(): void {
  vi.spyOn(os, "userInfo").mockImplementation(() => {
    throw Object.assign(new Error("uv_os_get_passwd returned ENOENT (no such file or directory)"), {
      code: "ERR_SYSTEM_ERROR",
    });
  });
}

describe.skipIf(process.platform === "win32")("the account's login shell", () => {
  it("a uid without a password-database entry and no SHELL still discovers", async () => {
    const box = sandbox();
    const codex = await box.fakeCodex(await box.dir("bin"));
    noPasswdEntry();
    vi.stubEnv("SHELL", undefined);
    const { env: _env, ...options } = box.options(box.env());
    const report = await discoverCodex({ ...options, codexBin: codex, cache: "off" });
    expect(report.available).toBe(true);
    expect(report.chosen?.path).toBe(codex);
  });
});
