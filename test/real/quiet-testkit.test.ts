/**
 * The testkit's CODEX_HOME keeps codex's warnings about the test machine out of a user's stream: none by
 * default; with `environmentWarnings: true` they come back (the model-metadata one on codex 0.135 and newer,
 * measured; the bubblewrap one from 0.120 when no `bwrap` is on PATH). The model is offered the same tools
 * either way.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseVersion } from "../../src/codex/versions/capabilities.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { text } from "../../src/testkit/model-scenarios.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { compareVersions } from "../../src/internal/test-hooks.js";

const version = parseVersion(testCodexVersion() ?? "0.171.0");
const atLeast = (v: string): boolean => version !== null && compareVersions(version, parseVersion(v)!) >= 0;
const bwrapOnPath = (process.env.PATH ?? "")
  .split(path.delimiter)
  .some((d) => existsSync(path.join(d, "bwrap")));

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

async function turn(environmentWarnings: boolean) {
  fixture = await startRealCodex(text("quiet"), {}, { environmentWarnings });
  const events: HarnessEvent[] = [];
  const session = fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd });
  for await (const event of session.events) events.push(event);
  const request = fixture.model.responsesRequests()[0]?.body as {
    tools?: { name?: string; type?: string }[];
  };
  const tools = (request.tools ?? []).map((tool) => tool.name ?? tool.type);
  const warnings = events.filter((e) => e.type === "warning").map((e) => e.message);
  const terminal = await session.result;
  await fixture.dispose();
  fixture = null;
  return { warnings, tools, terminal };
}

describe("real codex: the testkit's home is quiet by default", () => {
  it("no warning event by default; the environment warnings with environmentWarnings: true; same tools", async () => {
    const quiet = await turn(false);
    expect(quiet.terminal.outcome).toBe("completed");
    expect(quiet.warnings).toEqual([]);

    const loud = await turn(true);
    expect(loud.terminal.outcome).toBe("completed");
    if (atLeast("0.135.0"))
      expect(loud.warnings).toContainEqual(
        expect.stringContaining("Model metadata for `mock-model` not found"),
      );
    if (atLeast("0.120.0") && !bwrapOnPath)
      expect(loud.warnings).toContainEqual(expect.stringContaining("could not find bubblewrap"));
    expect(quiet.tools).toEqual(loud.tools);
  });
});
