import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";
import { runCli } from "./helpers/cli-harness.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-usage-"));
  await writeFile(join(dir, "a-file"), "x");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("rennet codex run: prompt from stdin", () => {
  it("`-` reads all of stdin as the prompt", async () => {
    const prompt = "line one\nline two — ünïcode\n";
    const { code, fake } = await runCli(["codex", "run", "--json", "-"], {
      stdin: prompt,
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(code).toBe(0);
    const params = fake.peer.requestsOf("turn/start")[0]?.params as { input: unknown };
    expect(params.input).toEqual([{ type: "text", text: prompt }]);
  });

  it("an empty stdin prompt is a usage error and spawns nothing", async () => {
    const { code, fake, stdout, stderr } = await runCli(["codex", "run", "--json", "-"], { stdin: " \n" });
    expect(code).toBe(2);
    expect(fake.launches).toHaveLength(0);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("the prompt read from stdin is empty");
  });
});

describe("rennet codex run: usage errors exit 2, print to stderr only and spawn nothing", () => {
  const cases: [string, () => string[], RegExp][] = [
    ["an unknown option", () => ["codex", "run", "--json", "--bogus", "hi"], /unknown option '--bogus'/],
    ["a missing prompt", () => ["codex", "run", "--json"], /missing required argument 'prompt'/],
    ["an empty prompt", () => ["codex", "run", "--json", ""], /the prompt is empty/],
    ["a second positional argument", () => ["codex", "run", "--json", "fix", "it"], /too many arguments/],
    [
      "a --cwd that does not exist",
      () => ["codex", "run", "--json", "--cwd", join(dir, "missing"), "hi"],
      /--cwd .*missing: no such directory/,
    ],
    [
      "a --cwd that is a file",
      () => ["codex", "run", "--json", "--cwd", join(dir, "a-file"), "hi"],
      /not a directory/,
    ],
    [
      "a --timeout that is not a number",
      () => ["codex", "run", "--json", "--timeout", "ten", "hi"],
      /--timeout <seconds>' argument 'ten' is invalid/,
    ],
    [
      "a zero --timeout",
      () => ["codex", "run", "--json", "--timeout", "0", "hi"],
      /positive number of seconds/,
    ],
    ["a negative --timeout", () => ["codex", "run", "--json", "--timeout", "-5", "hi"], /argument|positive/],
    [
      "a --timeout too long for a timer",
      () => ["codex", "run", "--json", "--timeout", "99999999", "hi"],
      /at most 2147483 seconds/,
    ],
    ["an empty --model", () => ["codex", "run", "--json", "--model", "", "hi"], /--model is empty/],
    ["an unknown subcommand", () => ["codex", "fly"], /unknown command 'fly'/],
  ];
  it.each(cases)("%s", async (_name, argv, message) => {
    const { code, fake, stdout, stderr } = await runCli(argv());
    expect(code).toBe(2);
    expect(stderr.text).toMatch(message);
    expect(stdout.text).toBe("");
    expect(fake.launches).toHaveLength(0);
  });

  it("no command at all prints the help on stderr and exits 2", async () => {
    const { code, stdout, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("Usage: rennet");
  });
});

describe("rennet codex run: which codex runs", () => {
  it("--codex-bin is used exactly, a relative path made absolute against the shell directory", async () => {
    const { fake } = await runCli(["codex", "run", "--codex-bin", "./bin/my-codex", "--cwd", dir, "hi"], {
      cwd: "/home/u",
      env: { RENNET_CODEX_BIN: "/elsewhere/codex" },
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(fake.launches[0]?.spec.command).toBe("/home/u/bin/my-codex");
    expect(fake.launches[0]?.spec.args).toEqual(["app-server", ...APP_SERVER_BASE_ARGS]);
  });

  it("RENNET_CODEX_BIN without --codex-bin, else `codex` on PATH", async () => {
    const fromEnv = await runCli(["codex", "run", "hi"], {
      env: { RENNET_CODEX_BIN: "/opt/codex" },
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(fromEnv.fake.launches[0]?.spec.command).toBe("/opt/codex");
    const fromPath = await runCli(["codex", "run", "hi"], { script: { turn: fakeSteps.textTurn("ok") } });
    expect(fromPath.fake.launches[0]?.spec.command).toBe("codex");
  });
});
