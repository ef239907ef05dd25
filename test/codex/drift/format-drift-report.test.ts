import { describe, expect, it } from "vitest";
import { compareSchema } from "../../../src/codex/versions/drift/drift-compare.js";
import { formatDriftReport } from "../../../src/codex/versions/drift/format-drift-report.js";
import type { SchemaDriftReport } from "../../../src/codex/versions/drift/schema-drift.js";
import { fixtureBundle } from "./schema-fixture.js";

/** What a terminal acts on (a newline aside): none may reach the report raw. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const OSC52 = "\u001b]52;c;cm0gLXJmIH4=\u0007";

describe("formatDriftReport", () => {
  it("prints what the binary's schema, its path and its errors hold escaped", () => {
    const binary = { command: `/opt/${OSC52}codex`, path: `/opt/${OSC52}codex`, size: 1, mtimeMs: 1 };
    const compared: SchemaDriftReport = {
      binary,
      version: "0.171.0",
      cached: false,
      comparison: compareSchema(
        fixtureBundle({ extraNotifications: [`future/${OSC52}`], sandboxValues: ["\u009b2J\u202e"] }),
      ),
      error: null,
    };
    const failed: SchemaDriftReport = {
      binary,
      version: null,
      cached: false,
      comparison: null,
      error: `could not read codex_app_server_protocol.schemas.json: ${OSC52}`,
    };
    for (const report of [compared, failed]) {
      const text = formatDriftReport(report, { color: false });
      expect(text).toContain("\\u001b]52;c;cm0gLXJmIH4=\\u0007");
      expect(text).not.toMatch(RAW_CONTROL);
    }
    expect(formatDriftReport(compared, { color: false })).toContain("values: \\u009b2J\\u202e");
  });
});
