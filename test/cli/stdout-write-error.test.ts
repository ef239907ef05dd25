import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { FakeSignals, TextSink } from "./helpers/cli-harness.js";

/** A stdout whose every write fails with `code` (a full disk: ENOSPC; a reader that went away: EPIPE). */
function failingStdout(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error(`${code}: write failed`), { code }));
    },
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-stdout-error-"));
  await writeFile(
    join(dir, "schema.json"),
    JSON.stringify({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[], stdout: Writable) {
  const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn('{"a":"x"}') });
  const stderr = new TextSink();
  const code = await main(argv, {
    stdin: Readable.from([]),
    stdout,
    stderr,
    env: {},
    cwd: dir,
    isTTY: { stdin: false, stdout: false, stderr: false },
    signals: new FakeSignals(),
    launcher: fake.launcher,
  });
  return { code, stderr: stderr.text };
}

describe("rennet when stdout cannot be written", () => {
  it("a completed `codex exec` whose value was lost (ENOSPC) exits 1 and says so on stderr", async () => {
    const { code, stderr } = await run(
      ["codex", "exec", "--schema", "schema.json", "name it"],
      failingStdout("ENOSPC"),
    );
    expect(code).toBe(1);
    expect(stderr).toContain(
      "rennet: could not write to stdout (ENOSPC: write failed): the output is incomplete",
    );
  });

  it("`--version` that could not be written (a failed synchronous write) exits 1", async () => {
    const { code, stderr } = await run(["--version"], failingStdout("EIO"));
    expect(code).toBe(1);
    expect(stderr).toContain("could not write to stdout (EIO: write failed)");
  });

  it("a reader that went away (EPIPE) after the answer is no failure of the command", async () => {
    const { code, stderr } = await run(
      ["codex", "exec", "--schema", "schema.json", "name it"],
      failingStdout("EPIPE"),
    );
    expect(code).toBe(0);
    expect(stderr).not.toContain("could not write");
  });
});
