import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { json, rawText } from "../../src/testkit/model-scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { runCodexCli } from "../helpers/real-codex-cli.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const SCHEMA = {
  type: "object",
  properties: { answer: { type: "integer" }, unit: { type: "string" } },
  required: ["answer"],
};

/** `rennet codex exec` in-process against the pinned codex and the loopback model. */
async function exec(f: RealCodexFixture, extra: string[]) {
  await writeFile(path.join(f.cwd, "schema.json"), JSON.stringify(SCHEMA));
  return runCodexCli(f, "exec", ["--schema", "schema.json", ...extra, "what is 6*7?"]);
}

const caps = codexCapabilities(testCodexVersion());
/** Title suffix of a test that needs codex to honour `turn/start.outputSchema`, saying why it is skipped. */
const needsOutputSchema = caps.outputSchema
  ? ""
  : ` [skipped: codex ${caps.version} lacks the outputSchema capability]`;

describe("real codex, offline: rennet codex exec", () => {
  it.runIf(!caps.outputSchema)(
    "without the outputSchema capability (codex < 0.80): exit 3, the reason on stderr, no model request",
    async () => {
      fixture = await startRealCodex(json({ answer: 42, unit: null }));
      const { code, stdout, stderr } = await exec(fixture, []);
      expect(code).toBe(3);
      expect(stdout).toBe("");
      expect(stderr).toContain("cannot do structured output (`turn/start.outputSchema`), which needs 0.80.0");
      expect(fixture.model.responsesRequests()).toEqual([]);
    },
  );

  it.skipIf(!caps.outputSchema)(
    `prints the mapped value as one line of JSON and sends the strict schema and the effort${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(json({ answer: 42, unit: null }));
      const { code, stdout } = await exec(fixture, ["--effort", "medium"]);
      expect(code).toBe(0);
      expect(stdout).toBe('{"answer":42}\n');
      const body = fixture.model.responsesRequests()[0]?.body as Record<string, unknown>;
      expect(fixture.sent("turn/start")[0]).toMatchObject({ effort: "medium" });
      // codex sends no `reasoning` at all for the loopback's uncatalogued model before effortForUncataloguedModel
      if (caps.effortForUncataloguedModel) expect(body.reasoning).toMatchObject({ effort: "medium" });
      else expect(body.reasoning ?? null).toBeNull();
      expect(body.text).toMatchObject({
        format: {
          type: "json_schema",
          strict: true,
          schema: {
            type: "object",
            properties: { answer: { type: "integer" }, unit: { type: ["string", "null"] } },
            required: ["answer", "unit"],
            additionalProperties: false,
          },
        },
      });
    },
  );

  it.skipIf(!caps.outputSchema)(
    `exits 1 with the parse failure on stderr when the model answers prose${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(rawText("The answer is 42."));
      const { code, stdout, stderr } = await exec(fixture, []);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toContain("✗ failed (parse): The final message is not valid JSON");
      expect(stderr).toContain('"The answer is 42."');
    },
  );
});
