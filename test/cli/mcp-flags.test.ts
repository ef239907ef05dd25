import { describe, expect, it } from "vitest";
import { codexRunCommand } from "../../src/cli/commands/codex-run.js";
import { parseCommandLine } from "../../src/cli/command-line.js";
import { type RawTurnOptions, validateTurnOptions } from "../../src/cli/turn-options.js";
import { CODEX_WORDS } from "../../src/cli/turn-option-specs.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { runCli } from "./helpers/cli-harness.js";
import { mcpPolicyFromTurnOptions } from "../../src/internal/test-hooks.js";

const COMMAND = "rennet codex run";

/** What the command-line parser makes of the turn options in `argv` (with a prompt). */
function parse(argv: string[]): RawTurnOptions {
  const parsed = parseCommandLine(codexRunCommand, [...argv, "prompt"], COMMAND);
  if (parsed === null) throw new Error("parsed as a help request");
  return parsed.options as unknown as RawTurnOptions;
}

describe("--mcp-server / --mcp-none parsing", () => {
  it("collects every --mcp-server in order, and reads --mcp-none", () => {
    const raw = parse([
      "--mcp-server",
      "a=http://127.0.0.1:1/mcp",
      "--mcp-server=b=http://localhost:2/x?k=v",
    ]);
    expect(raw.mcpServer).toEqual(["a=http://127.0.0.1:1/mcp", "b=http://localhost:2/x?k=v"]);
    expect(raw.mcpNone).toBeUndefined();
    expect(parse(["--mcp-none"]).mcpNone).toBe(true);
    expect(parse([]).mcpServer).toBeUndefined();
  });

  it("turns no flag into inherit, --mcp-none into an empty policy, and servers into exactly those", async () => {
    expect((await validateTurnOptions(parse([]), "/", COMMAND, CODEX_WORDS)).mcp).toBe("inherit");
    expect((await validateTurnOptions(parse(["--mcp-none"]), "/", COMMAND, CODEX_WORDS)).mcp).toEqual({
      servers: [],
    });
    const raw = parse([
      "--mcp-server",
      "a=http://127.0.0.1:1/mcp",
      "--mcp-server",
      "b.c d=http://[::1]:2/x?k=v",
    ]);
    expect((await validateTurnOptions(raw, "/", COMMAND, CODEX_WORDS)).mcp).toEqual({
      servers: [
        { name: "a", url: "http://127.0.0.1:1/mcp" },
        // split at the first `=`: names may hold dots and spaces, URLs may hold `=`
        { name: "b.c d", url: "http://[::1]:2/x?k=v" },
      ],
    });
  });

  const bad: Array<[string, Pick<RawTurnOptions, "mcpServer" | "mcpNone">, RegExp]> = [
    ["a value without =", { mcpServer: ["tools"] }, /^--mcp-server expects NAME=URL .*"tools"/],
    ["an empty value", { mcpServer: [""] }, /^--mcp-server expects NAME=URL/],
    ["an empty name", { mcpServer: ["=http://127.0.0.1:1/mcp"] }, /^--mcp-server: .*empty name/],
    [
      "a remote host",
      { mcpServer: ["t=http://example.com/mcp"] },
      /^--mcp-server: MCP server "t": "http:\/\/example.com\/mcp" is refused because its host "example.com" is not 127/,
    ],
    ["a hex loopback spelling", { mcpServer: ["t=http://0x7f000001/mcp"] }, /refused because its host/],
    ["userinfo", { mcpServer: ["t=http://user@127.0.0.1/mcp"] }, /userinfo/],
    ["not http(s)", { mcpServer: ["t=ftp://127.0.0.1/mcp"] }, /not an absolute http:\/\/ or https:\/\/ URL/],
    [
      "a name given twice",
      { mcpServer: ["t=http://127.0.0.1:1/a", "t=http://127.0.0.1:2/b"] },
      /^--mcp-server: MCP server "t" is requested twice/,
    ],
    [
      "--mcp-none with --mcp-server",
      { mcpNone: true, mcpServer: ["t=http://127.0.0.1:1/mcp"] },
      /^--mcp-none cannot be combined with --mcp-server/,
    ],
  ];

  it.each(bad)("refuses %s with a usage error naming the flag", (_label, raw, message) => {
    let caught: unknown;
    try {
      mcpPolicyFromTurnOptions(raw, COMMAND);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toMatch(message);
    expect((caught as UsageError).command).toBe(COMMAND);
  });
});

describe("rennet codex run: a bad MCP flag is a usage error (exit 2) that starts nothing", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["a value without =", ["--mcp-server", "tools", "hi"], /error: --mcp-server expects NAME=URL/],
    [
      "a remote URL",
      ["--mcp-server", "t=https://mcp.example.com/mcp", "hi"],
      /is refused because its host "mcp\.example\.com"/,
    ],
    [
      "both flags",
      ["--mcp-none", "--mcp-server", "t=http://127.0.0.1:1/mcp", "hi"],
      /--mcp-none cannot be combined/,
    ],
    ["a missing value", ["hi", "--mcp-server"], /option '--mcp-server <spec>' argument missing/],
  ];

  it.each(cases)("%s", async (_label, flags, message) => {
    const { code, fake, stdout, stderr } = await runCli(["codex", "run", "--json", ...flags], {
      // a codex that must never be run: the inventory listing would fail loudly
      env: { RENNET_CODEX_BIN: "/nonexistent/rennet-test/codex" },
    });
    expect(code).toBe(2);
    expect(fake.launches).toHaveLength(0);
    expect(stdout.text).toBe("");
    expect(stderr.text).toMatch(message);
  });

  it("points at the command's help", async () => {
    const { stderr } = await runCli(["codex", "run", "--mcp-server", "x", "hi"]);
    expect(stderr.text).toContain("(see `rennet codex run --help`)");
  });

  it("documents both flags in --help", async () => {
    const { code, stdout } = await runCli(["codex", "run", "--help"]);
    expect(code).toBe(0);
    expect(stdout.text).toMatch(/--mcp-server <spec> +NAME=URL \(repeatable\)/);
    expect(stdout.text).toContain("--mcp-none");
  });
});
