/**
 * A schema Claude Code's own JSON Schema validator refuses: 2.1.332 exits naming it, 2.0.77 and 2.1.112 start the
 * turn without the `StructuredOutput` tool (their `system/init` lists none) and let the model work on.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { claudeExitFailure } from "../../src/claude/turn-end.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };
const schema = { type: "object", properties: { a: { type: "string", format: "date" } } } as const;

describe("a structured-output turn whose schema Claude Code refuses", () => {
  it("is stopped at its start when Claude offers no StructuredOutput tool, naming the schema, not the model", async () => {
    const fake = new InMemoryClaude({
      refuseSchema: true,
      turn: [
        claudeSteps.init({ tools: ["Bash", "Edit", "Read"] }),
        { delayMs: 5_000 },
        ...claudeSteps.text("an answer without the tool"),
        claudeSteps.result({ result: "an answer without the tool" }),
      ],
    });
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    const session = claude.utilityStreamed({ prompt: "hi", schema });
    const started = Date.now();
    const terminal = await session.result;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure?.source).toBe("parse");
    expect(terminal.failure?.message).toContain("Claude Code refused the schema");
    expect(terminal.failure?.message).toContain("Remove custom keywords");
    expect(terminal.failure?.message).not.toContain("the model never called");
    expect(
      fake.peer.linesOf("control_request").map((l) => (l.request as { subtype?: string }).subtype),
    ).toContain("interrupt");
  });

  it("a turn whose init lists StructuredOutput (the fake's default for a schema it takes) runs on", async () => {
    const fake = new InMemoryClaude({
      turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: { a: "x" } })],
    });
    const result = await createClaudeCode({ launcher: fake.launcher, env: ENV }).utility({
      prompt: "hi",
      schema,
    });
    expect(result.value).toEqual({ a: "x" });
  });

  it("2.1.332's refusal on stderr is the failure's cause", () => {
    const failure = claudeExitFailure(
      { code: 1, signal: null },
      'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "x-custom"\n',
    );
    expect(failure.message).toBe(
      'claude exited with code 1 before the turn completed: Claude Code refused the schema: strict mode: unknown keyword: "x-custom"; change the schema to one its strict JSON Schema validator accepts',
    );
  });
});
