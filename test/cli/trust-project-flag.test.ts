import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { parseJsonLines, runCli } from "./helpers/cli-harness.js";

/* `--trust-project` on `codex run` and `codex exec` trusts the cwd's project for that call only. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-trust-"));
  await writeFile(join(dir, "schema.json"), JSON.stringify({ type: "object", properties: {} }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const threadTrust = (params: unknown): unknown[] =>
  Object.values((params as { config: { projects: Record<string, unknown> } }).config.projects);

describe("--trust-project", () => {
  it.each([
    ["run", ["codex", "run", "--json"], fakeSteps.textTurn("ok")],
    ["exec", ["codex", "exec", "--json", "--schema", "schema.json"], fakeSteps.textTurn("{}")],
  ])(
    "codex %s: stated trusted for the call, shown on session.started and the terminal",
    async (_n, argv, turn) => {
      const { code, stdout, fake } = await runCli([...argv, "--trust-project", "hi"], {
        cwd: dir,
        script: { turn },
      });
      expect(code).toBe(0);
      const events = parseJsonLines(stdout.text);
      const trust = { level: "trusted", source: "call" };
      expect(events.find((event) => event.type === "session.started")).toMatchObject({ trust });
      expect(events.at(-1)).toMatchObject({ type: "terminal", trust });
      const stated = threadTrust(fake.peer.requestsOf("thread/start")[0]?.params);
      expect(stated.length).toBeGreaterThan(1);
      for (const entry of stated) expect(entry).toEqual({ trust_level: "trusted" });
    },
  );

  it("without it the project is untrusted unless the user's config trusts it", async () => {
    const { code, stdout, fake } = await runCli(["codex", "run", "--json", "hi"], {
      cwd: dir,
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(code).toBe(0);
    expect(parseJsonLines(stdout.text).at(-1)).toMatchObject({
      trust: { level: "untrusted", source: "default" },
    });
    expect(fake.peer.requestsOf("config/read")).toHaveLength(1);
  });

  it("is listed in --help of both commands", async () => {
    for (const command of ["run", "exec"]) {
      const { stdout } = await runCli(["codex", command, "--help"]);
      expect(stdout.text).toMatch(/--trust-project +trust the --cwd project for this turn/);
    }
  });
});
