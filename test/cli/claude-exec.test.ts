import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { runClaudeCli } from "./helpers/claude-cli-harness.js";

const SCHEMA = {
  type: "object",
  properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
  required: ["title", "tags"],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-cli-claude-exec-"));
  await writeFile(join(dir, "schema.json"), JSON.stringify(SCHEMA));
  await writeFile(join(dir, "broken.json"), '{"type": ');
  await writeFile(
    join(dir, "invalid.json"),
    JSON.stringify({ type: "object", properties: { a: { type: "strnig" } } }),
  );
  await writeFile(join(dir, "array-root.json"), JSON.stringify({ type: "array", items: { type: "string" } }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const answering = (value: unknown) => ({
  turn: [claudeSteps.init(), ...claudeSteps.text("done"), claudeSteps.result({ structuredOutput: value })],
});

describe("rennet claude exec", () => {
  it("prints the value as one line of JSON and sends the schema as --json-schema", async () => {
    const { code, stdout, stderr, fake } = await runClaudeCli(
      ["claude", "exec", "--schema", "schema.json", "--effort", "low", "name it"],
      { cwd: dir, script: answering({ title: "Rennet", tags: ["cli"] }) },
    );
    expect(stderr.text).toBe("");
    expect(code).toBe(0);
    expect(stdout.text).toBe('{"title":"Rennet","tags":["cli"]}\n');
    const args = fake.launches[0]!.spec.args;
    expect(args).toContain(`--json-schema=${JSON.stringify(SCHEMA)}`);
    expect(args).toContain("--effort=low");
  });

  it("--json streams the events; the terminal carries the value", async () => {
    const { code, events } = await runClaudeCli(
      ["claude", "exec", "--json", "--schema", "schema.json", "x"],
      {
        cwd: dir,
        script: answering({ title: "T", tags: [] }),
      },
    );
    expect(code).toBe(0);
    expect(events().at(-1) as TerminalEvent).toMatchObject({
      outcome: "completed",
      structuredOutput: { title: "T", tags: [] },
    });
  });

  it("a value the schema refuses is a parse failure (exit 1) naming the violation", async () => {
    const { code, stdout, stderr } = await runClaudeCli(["claude", "exec", "--schema", "schema.json", "x"], {
      cwd: dir,
      script: answering({ title: 3 }),
    });
    expect(code).toBe(1);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("failed (parse)");
    expect(stderr.text).toContain("tags");
  });

  it.each([
    [["--schema", "missing.json"], "no such file"],
    [["--schema", "broken.json"], "not valid JSON"],
    [["--schema", "invalid.json"], "--schema invalid.json"],
    [["--schema", "array-root.json"], 'the root must be type "object" (found "array")'],
    [[], "--schema"],
  ])("%j is a usage error (exit 2) before anything starts", async (flags, message) => {
    const { code, stderr, fake } = await runClaudeCli(["claude", "exec", ...flags, "x"], { cwd: dir });
    expect(code).toBe(2);
    expect(stderr.text).toContain(message);
    expect(fake.launches).toEqual([]);
  });
});
