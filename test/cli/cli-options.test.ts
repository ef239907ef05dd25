import { describe, expect, it } from "vitest";
import { shouldUseColor } from "../../src/cli/color.js";
import { absolutizeCommand } from "../../src/cli/executable-target.js";
import type { DiscoveryReport } from "../../src/discovery/discovery-report.js";
import { summarizeUnavailable, parseTimeoutSeconds } from "../../src/internal/test-hooks.js";

describe("parseTimeoutSeconds", () => {
  it("accepts positive decimal seconds and returns milliseconds", () => {
    expect(parseTimeoutSeconds("600")).toBe(600_000);
    expect(parseTimeoutSeconds("2.5")).toBe(2_500);
    expect(parseTimeoutSeconds(".5")).toBe(500);
    expect(parseTimeoutSeconds("0.0001")).toBe(1);
  });

  it.each(["0", "-1", "abc", "10s", "", "1e3", "Infinity", "2147484"])("rejects %j", (value) => {
    expect(() => parseTimeoutSeconds(value)).toThrow();
  });
});

describe("shouldUseColor", () => {
  it("colours only on a terminal, without --no-color and without a non-empty NO_COLOR", () => {
    expect(shouldUseColor({ isTTY: true, env: {}, flag: true })).toBe(true);
    expect(shouldUseColor({ isTTY: false, env: {}, flag: true })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: {}, flag: false })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: "1" }, flag: true })).toBe(false);
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: "" }, flag: true })).toBe(true);
  });
});

describe("codex target resolution", () => {
  it("makes paths with a directory part absolute and leaves bare names for PATH", () => {
    expect(absolutizeCommand("codex", "/home/u")).toBe("codex");
    expect(absolutizeCommand("./codex", "/home/u")).toBe("/home/u/codex");
    expect(absolutizeCommand("bin/codex", "/home/u")).toBe("/home/u/bin/codex");
    expect(absolutizeCommand("/opt/codex", "/home/u")).toBe("/opt/codex");
  });

  it("summarizes an unavailable discovery in a few lines naming each failed candidate", () => {
    const candidate = (path: string, reason: string) =>
      ({ path, reason, outcome: "failed" }) as unknown as DiscoveryReport["candidates"][number];
    const report = {
      program: { executable: "codex", doctorCommand: "rennet codex doctor" },
      reason: "no candidate passed every probe",
      candidates: [
        candidate("/a/codex", "version: exited with code 1"),
        candidate("/b/codex", "handshake: timed out"),
      ],
    } as unknown as DiscoveryReport;
    expect(summarizeUnavailable(report)).toBe(
      "no candidate passed every probe\n  /a/codex: version: exited with code 1\n  /b/codex: handshake: timed out",
    );
  });
});
