import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli-harness.js";

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

describe("rennet --help and --version", () => {
  it.each([[["--help"]], [["codex", "--help"]], [["codex", "run", "--help"]], [["help", "codex"]]])(
    "%j explains exit codes, environment variables and gives an example",
    async (argv) => {
      const { code, stdout, stderr, fake } = await runCli(argv);
      expect(code).toBe(0);
      expect(stderr.text).toBe("");
      expect(stdout.text).toContain("Usage: rennet");
      expect(stdout.text).toContain("Exit codes:");
      expect(stdout.text).toMatch(/130\s+cancelled/);
      expect(stdout.text).toContain("RENNET_CODEX_BIN");
      expect(stdout.text).toContain("NO_COLOR");
      expect(stdout.text).toContain("$ rennet codex run");
      expect(fake.launches).toHaveLength(0);
    },
  );

  it.each([
    [["--bogus", "--help"], "Usage: rennet [options]"],
    [["codex", "--bogus", "--help"], "Usage: rennet codex [options]"],
    [["claude", "--bogus", "-h"], "Usage: rennet claude [options]"],
    [["codex", "run", "--bogus", "--help"], "Usage: rennet codex run [options]"],
  ])("%j: help beside an unknown option shows the page, at every level", async (argv, usage) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(stderr.text).toBe("");
    expect(code).toBe(0);
    expect(stdout.text).toContain(usage);
  });

  it("an unknown option without help is still a usage error naming the level's help", async () => {
    const { code, stderr } = await runCli(["codex", "--bogus"]);
    expect(code).toBe(2);
    expect(stderr.text).toContain("unknown option '--bogus'");
    expect(stderr.text).toContain("rennet codex --help");
    const after = await runCli(["codex", "--bogus", "--", "--help"]);
    expect(after.code).toBe(2);
  });

  it("the top page names both agents: their exit-3 doctors and their executable variables", async () => {
    const { stdout } = await runCli(["--help"]);
    expect(stdout.text).toMatch(
      /3\s+Agent unavailable: .*\(see: rennet codex doctor, rennet claude doctor\)/,
    );
    expect(stdout.text).toMatch(/RENNET_CODEX_BIN\s+the codex executable/);
    expect(stdout.text).toMatch(/RENNET_CLAUDE_BIN\s+the claude executable/);
    expect(stdout.text).toContain("codex or claude interrupted the turn");
  });

  it.each([
    [["codex", "--help"], "codex", "claude"],
    [["help", "codex"], "codex", "claude"],
    [["claude", "--help"], "claude", "codex"],
  ])("%j speaks of its own agent alone", async (argv, own, other) => {
    const { stdout } = await runCli(argv);
    expect(stdout.text).toContain(`RENNET_${own.toUpperCase()}_BIN`);
    expect(stdout.text).toContain(`rennet ${own} doctor`);
    expect(stdout.text).not.toContain(`RENNET_${other.toUpperCase()}_BIN`);
    expect(stdout.text).not.toContain(`rennet ${other}`);
    expect(stdout.text).not.toContain(`or ${other}`);
  });

  it.each([
    ["codex", "run"],
    ["codex", "exec"],
    ["claude", "run"],
    ["claude", "exec"],
  ])(
    "%s %s --help: --ask names the MCP tool calls it asks about, that the prompt cannot be `-`, and --tool's calls",
    async (harness, command) => {
      const { stdout } = await runCli([harness, command, "--help"]);
      const row = (name: string): string | undefined =>
        new RegExp(`\\n {2}--${name} [\\s\\S]*?(?=\\n {2}-)`).exec(stdout.text)?.[0].replace(/\s+/g, " ");
      expect(row("ask")).toContain("MCP tool");
      expect(row("ask")).toContain("the prompt as an argument, not `-`");
      if (command === "run") expect(row("tool")).toContain("with --ask, each call is asked first");
    },
  );

  it("codex run --help lists every option", async () => {
    const { stdout } = await runCli(["codex", "run", "--help"]);
    for (const option of [
      "--cwd <dir>",
      "--model <model>",
      "--json",
      "--codex-bin <path>",
      "--timeout <seconds>",
      "--image <path>",
      "--reasoning-summary <mode>",
      "--resume <thread-id>",
      "--no-color",
    ]) {
      expect(stdout.text).toContain(option);
    }
    expect(stdout.text).toMatch(/`-` reads the\s+whole\s+prompt\s+from\s+stdin/);
  });

  it("--version prints the package version", async () => {
    const { code, stdout } = await runCli(["--version"]);
    expect(code).toBe(0);
    expect(stdout.text).toBe(`${version}\n`);
  });
});
