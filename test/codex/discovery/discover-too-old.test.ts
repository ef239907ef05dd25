import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { CodexUnavailableError } from "../../../src/codex/codex-unavailable-error.js";
import { formatDoctorReport } from "../../../src/discovery/format-doctor-report.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";

const sb = sandboxPerTest();

const MESSAGE =
  "codex 0.66.0 is older than the oldest supported 0.72.0; upgrade with `npm i -g @openai/codex@latest`";

describe("discoverCodex: a codex older than the oldest supported version", () => {
  it("is refused by the handshake probe with CODEX_UNSUPPORTED_VERSION, and the report says so", async () => {
    const old = await sb().fakeCodex(await sb().dir("old"), { version: "0.66.0" });
    const report = await discoverCodex(sb().options(sb().env({ PATH: path.dirname(old) })));
    expect(report.available).toBe(false);
    expect(report.code).toBe("CODEX_UNSUPPORTED_VERSION");
    expect(report.reason).toBe(`${MESSAGE} (${old})`);
    const [candidate] = report.candidates;
    expect(candidate).toMatchObject({
      path: old,
      outcome: "failed",
      version: "0.66.0",
      code: "CODEX_UNSUPPORTED_VERSION",
      reason: `handshake: ${MESSAGE}`,
    });
    expect(candidate?.probes.map((p) => [p.probe, p.result])).toEqual([
      ["executable", "pass"],
      ["version", "pass"],
      ["handshake", "fail"],
    ]);
    const doctor = formatDoctorReport(report, { color: false });
    expect(doctor).toContain(MESSAGE);
    expect(doctor).toContain("fix     upgrade Codex (npm i -g @openai/codex@latest)");

    const error = new CodexUnavailableError(report);
    expect(error.code).toBe("CODEX_UNSUPPORTED_VERSION");
    expect(error.message).toBe(`${MESSAGE} (${old})`);
  });

  it("does not hide a supported codex ranked after it", async () => {
    const old = await sb().fakeCodex(await sb().dir("old"), { version: "0.66.0" });
    const good = await sb().fakeCodex(await sb().dir("good"), { version: "0.72.0" });
    const report = await discoverCodex(
      sb().options(sb().env({ PATH: `${path.dirname(old)}:${path.dirname(good)}` }), { mode: "all" }),
    );
    expect(report.available).toBe(true);
    expect(report.code).toBeUndefined();
    expect(report.chosen?.path).toBe(good);
    expect(report.candidates.find((c) => c.path === old)?.code).toBe("CODEX_UNSUPPORTED_VERSION");
    expect(new CodexUnavailableError(null).code).toBe("CODEX_UNAVAILABLE");
  });
});
