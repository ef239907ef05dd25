import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import { FakeSignals, TextSink } from "../cli/helpers/cli-harness.js";
import { TEST_CODEX_BIN } from "./codex-bin.js";
import type { RealCodexFixture } from "./real-codex.js";

/**
 * `rennet codex <command> --codex-bin <the codex under test> <args…>` run in-process by `main()` against a real
 * codex fixture (its env, cwd and recording launcher), with an empty stdin and no TTY.
 */
export async function runCodexCli(f: RealCodexFixture, command: "run" | "exec", args: string[]) {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const code = await main(["codex", command, "--codex-bin", TEST_CODEX_BIN, ...args], {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: f.env,
    cwd: f.cwd,
    launcher: f.launcher,
    isTTY: { stdin: false, stdout: false, stderr: false },
    signals: new FakeSignals(),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
