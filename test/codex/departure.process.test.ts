/**
 * Real child processes going away before they answer: the failure is `exit` with the child's own code and
 * stderr, whichever request was pending and whether its exit or the close of its stdout is seen first; a path
 * that cannot be started is named in the failure. Every child inherits the sandbox's marker: nothing may be
 * left running.
 */
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { FakeDeparture, FakeScript } from "../../src/testkit/fake-script.js";
import { collect } from "../helpers/collect.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";

const fakeBin = fileURLToPath(new URL("../../dist/testkit/fake-app-server-bin.js", import.meta.url));
const sb = sandboxPerTest();

/** An executable `codex` in the sandbox running the fake app-server with `script`. */
async function fakeCodex(script: FakeScript): Promise<string> {
  const codex = path.join(await sb().dir("bin"), "codex");
  const json = JSON.stringify(JSON.stringify(script));
  const lines = [
    "#!/bin/sh",
    `RENNET_FAKE_SCRIPT_JSON=${json} exec '${process.execPath}' '${fakeBin}' "$@"`,
    "",
  ];
  await writeFile(codex, lines.join("\n"), { mode: 0o755 });
  return codex;
}

async function runWith(codex: string) {
  const client = createCodex({ codex, env: sb().env({ PATH: "/usr/bin:/bin" }), reapOrphans: false });
  return collect(client.runStreamed({ prompt: "hi", cwd: sb().root, timeouts: { turnMs: 20_000 } }));
}

describe("a real child that exits before answering", () => {
  it("prints to stderr and exits 3 at once (not codex at all): exit, with its code and stderr", async () => {
    const codex = path.join(await sb().dir("bin"), "not-codex");
    await writeFile(codex, "#!/bin/sh\necho 'not-codex: unknown command app-server' >&2\nexit 3\n", {
      mode: 0o755,
    });
    for (let i = 0; i < 5; i++) {
      const { terminal } = await runWith(codex);
      expect(terminal.failure).toMatchObject({
        source: "exit",
        exitCode: 3,
        signal: null,
        stderrTail: "not-codex: unknown command app-server\n",
      });
    }
  });

  const cases: [method: string, stdout: FakeDeparture][] = [
    ["initialize", "close-first"],
    ["initialize", "close-after"],
    ["initialize", "keep-open"],
    ["thread/start", "close-first"],
    ["thread/start", "close-after"],
    ["turn/start", "keep-open"],
  ];
  for (const [method, stdout] of cases) {
    it(`${method} pending, stdout ${stdout}: exit, with its code and stderr`, async () => {
      const codex = await fakeCodex({
        stderr: "fatal: cannot go on\n",
        replies: { [method]: { exit: { code: 5, stdout } } },
      });
      const { terminal } = await runWith(codex);
      expect(terminal.failure).toMatchObject({
        source: "exit",
        exitCode: 5,
        signal: null,
        stderrTail: "fatal: cannot go on\n",
      });
    });
  }
});

describe("a real child that exits in the middle of a line", () => {
  for (const stdout of ["close-first", "close-after", "together"] as const) {
    it(`stdout ${stdout}: exit, naming the unfinished line, never a parse failure`, async () => {
      const codex = await fakeCodex({
        turn: [
          { raw: '{"method":"item/agentMessage/delta","params":{"delta":"half' },
          { exit: { code: 0, stdout } },
        ],
      });
      const { terminal } = await runWith(codex);
      expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 0, signal: null });
      expect(terminal.failure?.message).toBe(
        "codex app-server exited with code 0 before the turn completed; its output ended inside an unfinished line" +
          ' (59 bytes: {"method":"item/agentMessage/delta","params":{"delta":"half)',
      );
    });
  }

  it("a 16 MiB line written just before the exit arrives whole (the fake flushes before it exits)", async () => {
    const codex = await fakeCodex({
      turn: [
        { chunk: { parts: [{ paddedFrame: 16 * 1024 * 1024 - 1 }] } },
        { exit: { code: 0, stdout: "close-after" } },
      ],
    });
    const { events, terminal } = await runWith(codex);
    expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 0 });
    expect(terminal.failure?.message).toBe("codex app-server exited with code 0 before the turn completed");
    expect(events.filter((e) => e.type === "passthrough" && e.reason === "unknown")).toHaveLength(1);
  });
});

describe("an explicit path that cannot be started is named in the failure", () => {
  it("missing", async () => {
    const missing = path.join(sb().root, "no-such", "codex");
    const { terminal } = await runWith(missing);
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNAVAILABLE", command: missing });
    expect(terminal.failure?.message).toContain(`${missing}: not found`);
  });

  it("not executable", async () => {
    const file = path.join(await sb().dir("bin"), "codex");
    await writeFile(file, "#!/bin/sh\nexit 0\n");
    await chmod(file, 0o644);
    const { terminal } = await runWith(file);
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNAVAILABLE", command: file });
    expect(terminal.failure?.message).toContain("is not executable");
  });

  it("a directory", async () => {
    const dir = await sb().dir("a-directory");
    const { terminal } = await runWith(dir);
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNAVAILABLE", command: dir });
  });
});
