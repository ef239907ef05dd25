import { describe, expect, it } from "vitest";
import { type CommandSpec, defineCommand, parseCommandLine } from "../../src/cli/command-line.js";
import { didYouMean } from "../../src/did-you-mean.js";
import { commandHelpPage, formatHelp } from "../../src/cli/help-format.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { runCli } from "./helpers/cli-harness.js";
import { optionKey, editDistance, wrapWords } from "../../src/internal/test-hooks.js";

const PATH = "rennet test cmd";

const spec: CommandSpec = defineCommand<Record<string, unknown>>({
  name: "cmd",
  summary: "a command for the tests",
  description: "Does nothing.",
  argument: { name: "prompt", description: "what to say" },
  options: [
    { name: "json", description: "as JSON" },
    { name: "cwd", value: "dir", description: "where" },
    { name: "image", value: "path", description: "repeatable", repeatable: true },
    {
      name: "count",
      value: "n",
      description: "a number",
      parse: (value) => {
        if (!/^\d+$/.test(value)) throw new UsageError("expected a whole number");
        if (value === "13") throw new TypeError("a defect in the parser");
        return Number(value);
      },
    },
    { name: "no-color", description: "no colours" },
  ],
  epilogue: ["Notes:\n  none"],
  run: () => Promise.resolve(0),
});

const withSchema = defineCommand<Record<string, unknown>>({
  ...spec,
  argument: undefined,
  options: [{ name: "schema", value: "file", description: "required", required: true }],
});

function usage(argv: string[], command: CommandSpec = spec): string {
  try {
    parseCommandLine(command, argv, PATH);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).command).toBe(PATH);
    return (error as UsageError).message;
  }
  throw new Error(`parsed: ${JSON.stringify(argv)}`);
}

describe("parseCommandLine", () => {
  it("reads flags, values (both spellings), repeatables in order, parsed values and the argument", () => {
    expect(
      parseCommandLine(
        spec,
        ["--json", "--cwd", "/a", "--image=x.png", "hi", "--image", "y.png", "--count=3", "--no-color"],
        PATH,
      ),
    ).toEqual({
      argument: "hi",
      options: { json: true, cwd: "/a", image: ["x.png", "y.png"], count: 3, color: false },
    });
  });

  it("defaults a `no-` option to true and leaves absent options out; the last value of an option wins", () => {
    expect(parseCommandLine(spec, ["--cwd", "a", "--cwd", "b", "-"], PATH)).toEqual({
      argument: "-",
      options: { color: true, cwd: "b" },
    });
  });

  it("takes everything after `--` as an argument, and a dash-led value as the value", () => {
    expect(parseCommandLine(spec, ["--", "--json"], PATH)?.argument).toBe("--json");
    expect(parseCommandLine(spec, ["--cwd", "-x", "hi"], PATH)?.options.cwd).toBe("-x");
  });

  it("returns null for -h or --help anywhere", () => {
    expect(parseCommandLine(spec, ["-h"], PATH)).toBeNull();
    expect(parseCommandLine(spec, ["hi", "--help"], PATH)).toBeNull();
    // also beside a mistake on the same line: the help is what explains it
    expect(parseCommandLine(spec, ["--bogus", "hi", "--help"], PATH)).toBeNull();
    expect(parseCommandLine(spec, ["-h", "--json=yes"], PATH)).toBeNull();
    expect(parseCommandLine(spec, ["--help", "--cwd"], PATH)).toBeNull();
  });

  it("names every usage error and the command whose help explains it", () => {
    expect(usage(["--bogus", "hi"])).toBe("unknown option '--bogus'");
    expect(usage(["-x", "hi"])).toBe("unknown option '-x'");
    expect(usage(["--constructor", "hi"])).toBe("unknown option '--constructor'");
    // a misspelled option names the one it most likely is, as a misspelled command does
    expect(usage(["--jsno", "hi"])).toBe("unknown option '--jsno' (did you mean --json?)");
    expect(usage(["hi", "--cdw=a"])).toBe("unknown option '--cdw' (did you mean --cwd?)");
    expect(usage(["--hlep"])).toBe("unknown option '--hlep' (did you mean --help?)");
    // a quoted text with a space is no option: how to pass it as the argument
    expect(usage(["-v flag crashes, fix it"])).toBe(
      `"-v flag crashes, fix it" is not an option: a prompt that starts with '-' goes after --, as in: ${PATH} -- "-v flag crashes, fix it"`,
    );
    expect(usage(["--json", "--verbose is broken"])).toMatch(
      /^"--verbose is broken" is not an option: .* -- "--verbose is broken"$/,
    );
    expect(usage([`-${"x ".repeat(50)}`])).toMatch(/…" is not an option: .* -- "<your prompt>"$/);
    expect(parseCommandLine(spec, ["--", "-v flag crashes, fix it"], PATH)?.argument).toBe(
      "-v flag crashes, fix it",
    );
    expect(usage(["hi", "--cwd"])).toBe("option '--cwd <dir>' argument missing");
    expect(usage(["--json=yes", "hi"])).toBe("option '--json' takes no value (got 'yes')");
    expect(usage(["--count", "many", "hi"])).toBe(
      "option '--count <n>' argument 'many' is invalid. expected a whole number",
    );
    expect(usage(["--json"])).toBe("missing required argument 'prompt'");
    expect(usage(["a", "b"])).toMatch(/^too many arguments for 'cmd': expected 1 argument but got 2/);
    expect(usage([], withSchema)).toBe("required option '--schema <file>' not specified");
    expect(usage(["--schema", "s", "extra"], withSchema)).toBe(
      "too many arguments for 'cmd': expected 0 arguments but got 1",
    );
  });

  it("lets an error that is not a RennetError out of a value parser: a defect is not a usage error", () => {
    expect(() => parseCommandLine(spec, ["--count", "13", "hi"], PATH)).toThrow(TypeError);
  });

  it("stores options under camelCase keys", () => {
    expect(optionKey("codex-bin")).toBe("codexBin");
    expect(optionKey("no-color")).toBe("color");
    expect(optionKey("reasoning-summary")).toBe("reasoningSummary");
  });
});

describe("help formatting", () => {
  it("wraps words at the width, a longer word on a line of its own", () => {
    expect(wrapWords("aa bb cc dd", 5)).toEqual(["aa bb", "cc dd"]);
    expect(wrapWords("  a   verylongword b ", 4)).toEqual(["a", "verylongword", "b"]);
  });

  it("puts every table's terms in one column and wraps descriptions under it", () => {
    const text = formatHelp(commandHelpPage(spec, PATH), 50);
    expect(text).toContain(
      "Usage: rennet test cmd [options] <prompt>\n\nDoes nothing.\n\nArguments:\n  prompt ",
    );
    const lines = text.split("\n");
    const column = (term: string): number => {
      const line = lines.find((candidate) => candidate.startsWith(`  ${term} `)) ?? "";
      return line.length - line.slice(2 + term.length).trimStart().length;
    };
    expect(new Set([column("prompt"), column("--count <n>"), column("-h, --help")]).size).toBe(1);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(50);
    expect(text.endsWith("Notes:\n  none\n")).toBe(true);
  });
});

describe("didYouMean", () => {
  it("suggests a close known name and nothing for a distant one", () => {
    expect(editDistance("rn", "run")).toBe(1);
    expect(editDistance("dcotor", "doctor")).toBe(1);
    expect(didYouMean("rn", ["run", "exec", "doctor"])).toBe("run");
    expect(didYouMean("docter", ["run", "exec", "doctor"])).toBe("doctor");
    expect(didYouMean("fly", ["run", "exec", "doctor"])).toBeNull();
  });
});

describe("rennet's command tree", () => {
  it("`rennet codex` without a command prints the codex help on stderr and exits 2", async () => {
    const { code, stdout, stderr } = await runCli(["codex"]);
    expect(code).toBe(2);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("Usage: rennet codex [options] [command]");
    expect(stderr.text).toMatch(/mcp-isolation \[options\]\s+prove that/);
  });

  it.each([[["help", "codex", "run"]], [["codex", "help", "run"]], [["codex", "run", "-h"]]])(
    "%j prints the run help on stdout",
    async (argv) => {
      const { code, stdout, stderr } = await runCli(argv);
      expect(code).toBe(0);
      expect(stderr.text).toBe("");
      expect(stdout.text).toMatch(/^Usage: rennet codex run \[options\] <prompt>\n/);
    },
  );

  it.each([
    [["codex", "rn", "hi"], "unknown command 'rn' (did you mean run?)", "rennet codex --help"],
    [["cdx"], "unknown command 'cdx' (did you mean codex?)", "rennet --help"],
    [["--bogus"], "unknown option '--bogus'", "rennet --help"],
    [["--verison"], "unknown option '--verison' (did you mean --version?)", "rennet --help"],
    [["codex", "--hepl"], "unknown option '--hepl' (did you mean --help?)", "rennet codex --help"],
    [
      ["codex", "run", "--jsn", "hi"],
      "unknown option '--jsn' (did you mean --json?)",
      "rennet codex run --help",
    ],
    [
      ["claude", "doctor", "--clade-bin", "x"],
      "unknown option '--clade-bin' (did you mean --claude-bin?)",
      "rennet claude doctor --help",
    ],
    [["help", "codex", "fly"], "unknown command 'fly'", "rennet codex --help"],
    [
      ["help", "codex", "run", "doctor"],
      "help takes a group and one of its commands: 'doctor' after 'run' is one word too many",
      "rennet codex run --help",
    ],
    [
      ["codex", "help", "run", "fast"],
      "help takes a group and one of its commands: 'fast' after 'run' is one word too many",
      "rennet codex run --help",
    ],
  ])("%j is a usage error", async (argv, message, help) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe(`error: ${message}\n(see \`${help}\`)\n`);
  });
});
