/**
 * Process tests of the library: `run({ signal })` aborted in each phase before the turn, against real child
 * processes. Every child inherits the sandbox's marker, so whatever a phase started and left running is found
 * (`sandboxPerTest` checks). The turn itself and the time after it: turn-runner.cancellation.test.ts and
 * codex-client.test.ts.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { waitFor } from "../helpers/wait.js";

const fakeBin = fileURLToPath(new URL("../../dist/testkit/fake-app-server-bin.js", import.meta.url));
const sb = sandboxPerTest();

/** A codex for the `codex` option: the executable fake app-server; `mcp list` writes a flag file and hangs. */
async function fakeCodex(): Promise<{ codex: string; mcpStarted: string }> {
  const mcpStarted = path.join(sb().root, "mcp-started");
  const codex = path.join(await sb().dir("bin"), "codex");
  const lines = [
    "#!/bin/sh",
    `case " $* " in *" mcp list "*) touch '${mcpStarted}'; exec sleep 60 ;; esac`,
    `exec '${process.execPath}' '${fakeBin}' "$@"`,
    "",
  ];
  await writeFile(codex, lines.join("\n"), { mode: 0o755 });
  return { codex, mcpStarted };
}

const exists = (file: string) =>
  readFile(file).then(
    () => true,
    () => false,
  );

describe("run({ signal }) aborted before the turn rejects with signal.reason and leaves nothing running", () => {
  it("during discovery's app-server probe", async () => {
    const codex = await sb().fakeCodex(await sb().dir("path"), { mode: "handshake-hang" });
    const env = sb().env({ PATH: path.dirname(codex) });
    const { env: _env, cwd: _cwd, ...discovery } = sb().options(env);
    const client = createCodex({ env, discovery, reapOrphans: false });
    const controller = new AbortController();
    const reason = new Error("stop discovering");
    const running = client.run({ prompt: "hi", cwd: sb().root, signal: controller.signal });
    await sb().appServerStarted();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("while `codex mcp list` reads the MCP inventory", async () => {
    const { codex, mcpStarted } = await fakeCodex();
    const env = sb().env({ PATH: "/usr/bin:/bin" });
    const client = createCodex({ codex, env, reapOrphans: false });
    const controller = new AbortController();
    const reason = new Error("stop listing");
    const running = client.run({
      prompt: "hi",
      cwd: sb().root,
      mcp: { servers: [] },
      signal: controller.signal,
    });
    await waitFor(() => exists(mcpStarted), "codex mcp list");
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("during the handshake", async () => {
    const { codex } = await fakeCodex();
    const log = path.join(sb().root, "fake.log");
    const script = JSON.stringify({ replies: { initialize: { noReply: true } } });
    const env = sb().env({ PATH: "/usr/bin:/bin", RENNET_FAKE_SCRIPT_JSON: script, RENNET_FAKE_LOG: log });
    const client = createCodex({ codex, env, reapOrphans: false });
    const controller = new AbortController();
    const reason = new Error("stop the handshake");
    const running = client.run({ prompt: "hi", cwd: sb().root, signal: controller.signal });
    await waitFor(
      async () => (await readFile(log, "utf8").catch(() => "")).includes('"initialize"'),
      "initialize",
    );
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });
});
