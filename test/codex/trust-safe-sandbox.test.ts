import { describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { buildThreadStartParams, buildTurnStartParams } from "../../src/codex/protocol/protocol-requests.js";
import { trustSafeThreadSandbox } from "../../src/codex/trust/trust-safe-sandbox.js";

describe("trustSafeThreadSandbox", () => {
  it.each<[string | null, "trusted" | "untrusted", string]>([
    ["0.118.0", "untrusted", "danger-full-access"],
    ["0.120.0", "untrusted", "read-only"],
    ["0.122.0", "untrusted", "read-only"],
    ["0.124.0", "untrusted", "read-only"],
    ["0.125.0", "untrusted", "danger-full-access"],
    ["0.120.0", "trusted", "danger-full-access"],
    ["0.122.0", "trusted", "danger-full-access"],
    ["0.171.0", "untrusted", "danger-full-access"],
    [null, "untrusted", "danger-full-access"],
  ])("codex %s, %s project → %s", (version, level, sandbox) => {
    expect(trustSafeThreadSandbox({ level }, codexCapabilities(version))).toBe(sandbox);
  });

  it("relies on the turn asking for full access itself", () => {
    expect(buildThreadStartParams({ prompt: "x", cwd: "/r" }).sandbox).toBe("danger-full-access");
    expect(buildTurnStartParams("t", { prompt: "x", cwd: "/r" }).sandboxPolicy).toEqual({
      type: "dangerFullAccess",
    });
  });
});
