/**
 * The errors an app gets before any turn, whichever client it was given: a missing executable fails the session
 * `spawn` with the harness's own "unavailable" code and the path as given; a bad option, an unreadable image and
 * an invalid schema throw the same error class and code from the call, and nothing is launched.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { TurnFailedError } from "../../src/harness/errors.js";
import { collect } from "../helpers/collect.js";
import { PARITY_HARNESSES, terminalShape } from "../helpers/parity-harnesses.js";
import { tempDir } from "../helpers/temp.js";
import { thrownBy } from "../helpers/thrown.js";
import { expectWellFormed } from "../helpers/well-formed.js";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const MISSING = "/nonexistent/rennet-parity/agent";

const MISSING_BINARY = [
  { name: "codex", code: "CODEX_UNAVAILABLE", client: () => createCodex({ codex: MISSING, env: {} }) },
  {
    name: "claude-code",
    code: "CLAUDE_UNAVAILABLE",
    client: () => createClaudeCode({ claude: MISSING, env: { IS_SANDBOX: "1" } }),
  },
];

describe("parity: a missing executable", () => {
  it("fails the session spawn with the harness's unavailable code, and run() rejects with that terminal", async () => {
    const shapes: unknown[] = [];
    for (const { name, code, client } of MISSING_BINARY) {
      const { events, terminal } = await collect(client().runStreamed({ prompt: "hi" }));
      expectWellFormed(events, { harness: name });
      expect(events.map((event) => event.type)).toEqual(["terminal"]);
      expect(terminal.failure, name).toMatchObject({ source: "spawn", errno: null, command: MISSING, code });
      shapes.push(terminalShape(terminal));
      const error = await client()
        .run({ prompt: "hi" })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(TurnFailedError);
      expect((error as TurnFailedError).terminal.failure).toMatchObject({ source: "spawn", code });
    }
    expect(shapes[1]).toEqual(shapes[0]);
  }, 20_000);
});

/** Options both clients take, each given a value both must refuse, and the code they refuse it with. */
const BAD_OPTIONS: [string, Record<string, unknown>, string][] = [
  ["an unknown option", { bogus: 1 }, "OPTION_UNKNOWN"],
  ["a prompt that is no text", { prompt: 5 }, "PROMPT_EMPTY"],
  ["an empty prompt", { prompt: "  " }, "PROMPT_EMPTY"],
  ["images that are no array", { images: "shot.png" }, "OPTIONS_INVALID"],
  ["a negative turn deadline", { timeouts: { turnMs: -1 } }, "OPTIONS_INVALID"],
  ["an approval handler that is no function", { approvals: { onRequest: 3 } }, "OPTIONS_INVALID"],
  ["a cwd that is no path", { cwd: 5 }, "CWD_INVALID"],
  ["a model that is no name", { model: 5 }, "OPTIONS_INVALID"],
  ["a signal that is no AbortSignal", { signal: 5 }, "OPTIONS_INVALID"],
  ["a limit below zero", { limits: { maxToolCalls: -1 } }, "OPTIONS_INVALID"],
];

/** The class name and code of what `call` throws (failing the test when it returns). */
function refusal(call: () => unknown): { name: unknown; code: unknown } {
  const error = thrownBy(call) as { name?: unknown; code?: unknown };
  return { name: error.name, code: error.code };
}

describe("parity: a bad option", () => {
  it.each(BAD_OPTIONS)(
    "%s: the same class and code from runStreamed() and run(), nothing launched",
    async (_, bad, code) => {
      const refusals: unknown[] = [];
      for (const harness of PARITY_HARNESSES) {
        const { client, launches } = harness.make({ codex: {}, claude: {} });
        const refused = refusal(() => client.runStreamed({ prompt: "hi", ...bad } as never));
        expect(refused.code, harness.name).toBe(code);
        await expect(client.run({ prompt: "hi", ...bad } as never), harness.name).rejects.toMatchObject(
          refused,
        );
        expect(launches()).toBe(0);
        refusals.push(refused);
      }
      expect(refusals[1]).toEqual(refusals[0]);
    },
  );
});

describe("parity: an unreadable image", () => {
  it("throws IMAGE_UNREADABLE of the same class from both, whatever is wrong with the file", async () => {
    const dir = await tempDir("parity-images");
    await mkdir(path.join(dir, "folder.png"));
    await writeFile(path.join(dir, "text.png"), "no image at all");
    for (const image of [
      path.join(dir, "missing.png"),
      path.join(dir, "folder.png"),
      path.join(dir, "text.png"),
    ]) {
      const refusals = PARITY_HARNESSES.map((harness) => {
        const { client, launches } = harness.make({ codex: {}, claude: {} });
        const refused = refusal(() => client.runStreamed({ prompt: "hi", images: [image] }));
        expect(launches()).toBe(0);
        return refused;
      });
      expect(refusals[0], image).toEqual({ name: "InvalidTurnInputError", code: "IMAGE_UNREADABLE" });
      expect(refusals[1], image).toEqual(refusals[0]);
    }
  });
});

describe("parity: an invalid output schema", () => {
  it.each([
    ["a type JSON Schema does not have", { type: "object", properties: { a: { type: "bogus" } } }],
    ["no object at all", 5],
  ])("%s: utilityStreamed() throws SCHEMA_INVALID of the same class from both", (_, schema) => {
    const refusals = PARITY_HARNESSES.map((harness) => {
      const { client, launches } = harness.make({ codex: {}, claude: {} });
      const refused = refusal(() => client.utilityStreamed({ prompt: "hi", schema } as never));
      expect(launches()).toBe(0);
      return refused;
    });
    expect(refusals[0]).toEqual({ name: "InvalidSchemaError", code: "SCHEMA_INVALID" });
    expect(refusals[1]).toEqual(refusals[0]);
  });
});
