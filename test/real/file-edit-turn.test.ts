import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { applyPatch } from "../../src/testkit/model-scenarios.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const caps = codexCapabilities(testCodexVersion());
let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const PATCH = [
  "*** Begin Patch",
  "*** Add File: notes/hello.txt",
  "+hello from the model",
  "*** End Patch",
  "",
].join("\n");

describe("real codex: a turn that edits a file", () => {
  it.skipIf(!caps.modelCatalogJson)(
    `codex applies the model's patch; the stream carries file.changed and diff.updated for it${
      caps.modelCatalogJson
        ? ""
        : ` [skipped: codex ${caps.version} lacks modelCatalogJson: no apply_patch for the loopback model]`
    }`,
    async () => {
      // the catalog gives the loopback model the metadata under which codex offers it apply_patch
      fixture = await startRealCodex(
        applyPatch(PATCH, { then: "Added notes/hello.txt." }),
        {},
        { modelCatalog: true },
      );
      const session = fixture.client.runStreamed({ prompt: "add a greeting file", cwd: fixture.cwd });
      const events: HarnessEvent[] = [];
      for await (const event of session.events) events.push(event);
      const terminal = await session.result;
      expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
      const offered = fixture.model.responsesRequests()[0]?.body as { tools?: { name?: string }[] };
      expect(offered.tools?.map((tool) => tool.name)).toContain("apply_patch");
      expect(await readFile(path.join(fixture.cwd, "notes", "hello.txt"), "utf8")).toBe(
        "hello from the model\n",
      );

      const changed = events.filter((event) => event.type === "file.changed");
      expect(changed).toHaveLength(1);
      expect(JSON.stringify(changed[0])).toContain("hello.txt");
      const diffs = events.filter((event) => event.type === "diff.updated");
      expect(diffs.length).toBeGreaterThan(0);
      expect(JSON.stringify(diffs.at(-1))).toContain("+hello from the model");
      expect(terminal.finalMessage).toBe("Added notes/hello.txt.");
    },
  );
});
