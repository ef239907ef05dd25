import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { FAKE_THREAD_ID, fakeSteps } from "../../src/testkit/fake-script.js";
import { parseJsonLines, runCli, startCli } from "./helpers/cli-harness.js";

const SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string" },
    note: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title", "tags"],
};

const STRICT_SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string" },
    note: { type: ["string", "null"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title", "note", "tags"],
  additionalProperties: false,
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-exec-"));
  await writeFile(join(dir, "schema.json"), JSON.stringify(SCHEMA));
  await writeFile(join(dir, "broken.json"), '{"type": "object", ');
  await writeFile(join(dir, "array.json"), "[1, 2]");
  await writeFile(
    join(dir, "oneof.json"),
    JSON.stringify({
      type: "object",
      properties: { a: { oneOf: [{ type: "string" }, { type: "number" }] } },
    }),
  );
  await writeFile(
    join(dir, "invalid.json"),
    JSON.stringify({ type: "object", properties: { a: { type: "strnig" } } }),
  );
  await mkdir(join(dir, "work"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const answer = (text: string) => ({ turn: fakeSteps.textTurn(text) });

describe("rennet codex exec (default output)", () => {
  it("prints the value as one line of JSON on stdout, nothing on stderr, and exits 0", async () => {
    const { code, stdout, stderr, fake } = await runCli(
      ["codex", "exec", "--schema", "schema.json", "--effort", "low", "name it"],
      { cwd: dir, script: answer('{"title":"Rennet","note":null,\n"tags":["cli"]}') },
    );
    expect(code).toBe(0);
    expect(stdout.text).toBe('{"title":"Rennet","tags":["cli"]}\n');
    expect(stderr.text).toBe("");
    const params = fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(params.outputSchema).toEqual(STRICT_SCHEMA);
    expect(params.effort).toBe("low");
    expect(params.input).toEqual([{ type: "text", text: "name it" }]);
  });

  it("on a terminal, C1 controls and bidi overrides in the value are printed as JSON escapes: the same value, inert", async () => {
    const title = "a\u009b2J\u202egnp.exe\u2028\u007f";
    const script = answer(JSON.stringify({ title, note: null, tags: [] }));
    const tty = await runCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script,
      isTTY: { stdout: true },
    });
    expect(tty.code).toBe(0);
    expect(tty.stdout.text).toBe('{"title":"a\\u009b2J\\u202egnp.exe\\u2028\\u007f","tags":[]}\n');
    expect(JSON.parse(tty.stdout.text)).toEqual({ title, tags: [] });
    // a pipe gets JSON.stringify's text as it is
    const piped = await runCli(["codex", "exec", "--schema", "schema.json", "x"], { cwd: dir, script });
    expect(piped.stdout.text).toBe(`${JSON.stringify({ title, tags: [] })}\n`);
  });

  it("sends no effort without --effort, and passes --model and --cwd through", async () => {
    const { code, fake } = await runCli(
      ["codex", "exec", "--schema", join(dir, "schema.json"), "--model", "gpt-x", "--cwd", "work", "go"],
      { cwd: dir, script: answer('{"title":"t","note":null,"tags":[]}') },
    );
    expect(code).toBe(0);
    const params = fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(params).not.toHaveProperty("effort");
    expect(params.model).toBe("gpt-x");
    expect(params.cwd).toBe(join(dir, "work"));
    expect(fake.launches[0]?.spec.cwd).toBe(join(dir, "work"));
  });

  it("reads the prompt from stdin with `-`", async () => {
    const { code, fake, stdout } = await runCli(["codex", "exec", "--schema", "schema.json", "-"], {
      cwd: dir,
      stdin: "from stdin\n",
      script: answer('{"title":"t","note":"n","tags":[]}'),
    });
    expect(code).toBe(0);
    expect(stdout.text).toBe('{"title":"t","note":"n","tags":[]}\n');
    const params = fake.peer.requestsOf("turn/start")[0]?.params as { input: unknown };
    expect(params.input).toEqual([{ type: "text", text: "from stdin\n" }]);
  });

  it("takes a schema file saved with a UTF-8 byte order mark (as Windows editors write it)", async () => {
    await writeFile(join(dir, "bom.json"), `\uFEFF${JSON.stringify(SCHEMA)}`);
    const { code, stdout, stderr } = await runCli(["codex", "exec", "--schema", "bom.json", "x"], {
      cwd: dir,
      script: answer('{"title":"t","note":null,"tags":[]}'),
    });
    expect(stderr.text).toBe("");
    expect(code).toBe(0);
    expect(stdout.text).toBe('{"title":"t","tags":[]}\n');
  });

  it("an answer that is not JSON exits 1 with a parse failure quoting the text on stderr", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: answer("Here you go: title is Rennet"),
    });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("✗ failed (parse): The final message is not valid JSON");
    expect(stderr.text).toContain('it starts with: "Here you go: title is Rennet"');
  });

  it("an answer that breaks the schema exits 1 naming the first violations", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: answer('{"title":42,"note":null,"tags":[1]}'),
    });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain(
      "✗ failed (parse): The final message does not match the output schema: /title must be string; /tags/0 must be string",
    );
    expect(stderr.text).toContain("error: /title must be string");
    expect(stderr.text).toContain('input: {"title":42');
  });

  it("a turn failure exits 1 with the failure on stderr", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: {
        turn: [
          fakeSteps.turnStarted(),
          fakeSteps.turnCompleted("failed", { error: { message: "model exploded" } }),
        ],
      },
    });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("✗ failed (turn): model exploded");
  });

  it("prints warnings to stderr, never to stdout", async () => {
    const { code, stdout, stderr } = await runCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: {
        turn: [
          fakeSteps.notify("warning", { threadId: FAKE_THREAD_ID, message: "model metadata not found" }),
          ...fakeSteps.textTurn('{"title":"t","note":null,"tags":[]}'),
        ],
      },
    });
    expect(code).toBe(0);
    expect(stdout.text).toBe('{"title":"t","tags":[]}\n');
    expect(stderr.text).toContain("! model metadata not found");
  });

  it("SIGINT cancels the call and exits 130 with the outcome on stderr", async () => {
    const cli = startCli(["codex", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: { turn: [fakeSteps.turnStarted(), ...fakeSteps.agentMessage("m", ['{"title":'])] },
    });
    await vi.waitFor(() => expect(cli.fake.launches[0]?.peer.requestsOf("turn/start")).toHaveLength(1), {
      timeout: 10_000,
      interval: 5,
    });
    cli.signals.emit("SIGINT");
    expect(await cli.exit).toBe(130);
    expect(cli.stdout.text).toBe("");
    expect(cli.stderr.text).toContain("SIGINT: cancelling the turn");
    expect(cli.stderr.text).toContain("⊘ cancelled");
    expect(cli.fake.launches[0]?.terminated).toBe(true);
    expect(cli.signals.listenerCount).toBe(0);
  });
});

describe("rennet codex exec --json", () => {
  it("streams one event per line and puts the value on the terminal frame", async () => {
    const { code, stdout, stderr } = await runCli(
      ["codex", "exec", "--json", "--schema", "schema.json", "x"],
      {
        cwd: dir,
        script: answer('{"title":"t","note":null,"tags":["a"]}'),
      },
    );
    expect(code).toBe(0);
    expect(stderr.text).toBe("");
    const events = parseJsonLines(stdout.text);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toContain("text.delta");
    const terminal = events.at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({
      type: "terminal",
      outcome: "completed",
      structuredOutput: { title: "t", tags: ["a"] },
    });
    expect(terminal.structuredOutput).not.toHaveProperty("note");
  });

  it("ends with the failed terminal frame carrying the parse failure, exit 1", async () => {
    const { code, stdout } = await runCli(["codex", "exec", "--json", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: answer("not json"),
    });
    expect(code).toBe(1);
    const terminal = parseJsonLines(stdout.text).at(-1) as TerminalEvent;
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "parse", line: "not json" });
    expect(terminal).not.toHaveProperty("structuredOutput");
  });
});

describe("rennet codex exec: usage errors (exit 2, nothing launched)", () => {
  const cases: { name: string; argv: string[]; message: RegExp }[] = [
    { name: "missing --schema", argv: ["x"], message: /required option '--schema <file>' not specified/ },
    {
      name: "a schema file that does not exist",
      argv: ["--schema", "nope.json", "x"],
      message:
        /--schema nope\.json: cannot read .*nope\.json \(no such file\); pass the path of a JSON Schema file/,
    },
    {
      name: "a schema path that is a directory",
      argv: ["--schema", "work", "x"],
      message: /--schema work: cannot read .* \(is a directory\)/,
    },
    {
      name: "a schema file that is not JSON",
      argv: ["--schema", "broken.json", "x"],
      message: /--schema broken\.json: not valid JSON \(.+\); the file must hold one JSON Schema object/,
    },
    {
      name: "a schema file holding an array",
      argv: ["--schema", "array.json", "x"],
      message: /--schema array\.json: the file holds an array, not a JSON Schema object/,
    },
    {
      name: "a schema strict mode cannot express",
      argv: ["--schema", "oneof.json", "x"],
      message:
        /--schema oneof\.json: Output schema cannot be used in strict structured-output mode: at #\/properties\/a: .*oneOf/,
    },
    {
      name: "an invalid JSON Schema",
      argv: ["--schema", "invalid.json", "x"],
      message: /--schema invalid\.json: Output schema is not a valid JSON Schema/,
    },
    {
      name: "an unknown --effort",
      argv: ["--schema", "schema.json", "--effort", "ultra", "x"],
      message:
        /--effort <level>' argument 'ultra' is invalid\. Reasoning effort "ultra" is not supported; use one of none, minimal, low, medium, high, xhigh, max/,
    },
    { name: "an empty prompt", argv: ["--schema", "schema.json", "  "], message: /the prompt is empty/ },
  ];
  for (const { name, argv, message } of cases) {
    it(name, async () => {
      const { code, stdout, stderr, fake } = await runCli(["codex", "exec", ...argv], {
        cwd: dir,
        script: answer("{}"),
      });
      expect(code).toBe(2);
      expect(stdout.text).toBe("");
      expect(stderr.text).toMatch(message);
      expect(fake.launches).toHaveLength(0);
    });
  }

  it("a bad schema is reported before stdin is read", async () => {
    const { code, fake } = await runCli(["codex", "exec", "--schema", "broken.json", "-"], {
      cwd: dir,
      stdin: null,
    });
    expect(code).toBe(2);
    expect(fake.launches).toHaveLength(0);
  });
});

describe("rennet codex exec --help", () => {
  it("explains the schema, the effort levels, the output and the exit codes", async () => {
    const { code, stdout, fake } = await runCli(["codex", "exec", "--help"]);
    expect(code).toBe(0);
    for (const text of [
      "--schema <file>",
      "--effort <level>",
      "--json",
      "--model <model>",
      "--cwd <dir>",
      "--codex-bin <path>",
      "--timeout <seconds>",
      "Schema:",
      "strict",
      "Exit codes:",
      "$ rennet codex exec",
    ]) {
      expect(stdout.text).toContain(text);
    }
    expect(stdout.text).toContain("none, minimal, low, medium, high, xhigh, max");
    expect(stdout.text).toMatch(/`-` reads the\s+whole\s+prompt\s+from\s+stdin/);
    expect(fake.launches).toHaveLength(0);
  });

  it("is listed by `rennet codex --help`", async () => {
    const { stdout } = await runCli(["codex", "--help"]);
    expect(stdout.text).toMatch(/exec \[options\] <prompt>\s+run one Codex call whose answer is JSON/);
  });
});
