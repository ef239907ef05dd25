import { execFileSync } from "node:child_process";
import { readFile, realpath } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { npmNativeLaunchBehind } from "../../src/codex/launch/explicit-codex.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { startRealCodex } from "../helpers/real-codex.js";
import { text } from "../../src/testkit/model-scenarios.js";

// An explicit path to npm's launcher runs the native binary behind it, and only where that binary is the one the
// launcher itself would run: checked against the codex under test (the pinned one skips its launcher; older
// releases with another package layout keep it), and a turn through that launch completes.

describe.skipIf(process.platform === "win32")("explicit codex: npm's launcher is skipped", () => {
  it("resolves to the binary the launcher runs, which reports the same version", async () => {
    const native = await npmNativeLaunchBehind(TEST_CODEX_BIN);
    const resolved = await createCodex({ codex: TEST_CODEX_BIN }).resolveCodex();
    expect(resolved.path).toBe(TEST_CODEX_BIN);
    // a launcher that also puts its bundled tools on PATH (codex 0.133–0.137) is never skipped
    const script = await readFile(await realpath(TEST_CODEX_BIN), "utf8");
    if (script.includes("codex-path")) expect(native).toBeNull();
    if (native === null) {
      expect(resolved.launch).toEqual({ type: "native", command: TEST_CODEX_BIN });
      return;
    }
    expect(resolved.launch).toEqual(native);
    const version = (file: string, env: NodeJS.ProcessEnv = process.env): string =>
      execFileSync(file, ["--version"], { env, encoding: "utf8" }).trim();
    expect(version(native.command, { ...process.env, ...native.env })).toBe(version(TEST_CODEX_BIN));
  });

  it("runs a real turn through that launch", async () => {
    const real = await startRealCodex(text("launched directly"));
    try {
      const client = createCodex({ codex: TEST_CODEX_BIN, env: real.env, reapOrphans: false });
      const result = await client.run({ prompt: "hi", cwd: real.cwd });
      expect(result.finalMessage).toBe("launched directly");
    } finally {
      await real.dispose();
    }
  });
});
