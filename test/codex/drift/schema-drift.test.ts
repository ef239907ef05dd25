import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResolvedCodex } from "../../../src/codex/launch/codex-launch.js";
import { checkSchemaDrift } from "../../../src/codex/versions/drift/schema-drift.js";
import { nodeScriptCodex } from "../../helpers/codex-bin.js";
import { FAKE_CODEX } from "../../helpers/discovery-sandbox.js";
import { fixtureBundle } from "./schema-fixture.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rennet-drift-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The fake codex run through node; its identity is the script file. */
const codex: ResolvedCodex = nodeScriptCodex(FAKE_CODEX);

describe("checkSchemaDrift", () => {
  it("generates the schema, compares it, and caches the result per binary identity", async () => {
    const schema = path.join(dir, "bundle.json");
    await writeFile(schema, JSON.stringify(fixtureBundle({ extraNotifications: ["future/x"] })));
    const env = { ...process.env, FAKE_CODEX_SCHEMA: schema, FAKE_CODEX_VERSION: "0.171.0" };
    const cacheDir = path.join(dir, "state");
    const first = await checkSchemaDrift({ codex, env, cacheDir });
    expect(first).toMatchObject({ cached: false, error: null, version: "0.171.0" });
    expect(first.binary.path).not.toBeNull();
    expect(first.comparison?.ok).toBe(true);
    expect(first.comparison?.newNotifications).toEqual(["future/x"]);

    // the schema now differs, but the binary did not change: the cached comparison answers
    await writeFile(schema, JSON.stringify(fixtureBundle({ dropMethods: ["turn/start"] })));
    const second = await checkSchemaDrift({ codex, env, cacheDir });
    expect(second.cached).toBe(true);
    expect(second.comparison).toEqual(first.comparison);

    const refreshed = await checkSchemaDrift({ codex, env, cacheDir, refresh: true });
    expect(refreshed.cached).toBe(false);
    expect(refreshed.comparison?.ok).toBe(false);
  });

  it("reports a binary that cannot generate a schema, without caching anything", async () => {
    const env = { ...process.env, FAKE_CODEX_SCHEMA: "" };
    const report = await checkSchemaDrift({ codex, env, cacheDir: null });
    expect(report.comparison).toBeNull();
    expect(report.error).toMatch(
      /^generate-json-schema exited with code 1: fake codex: no schema to generate/,
    );
  });
});
