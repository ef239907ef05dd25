/**
 * `runMcpIsolationCheck()`'s options, through the package entry: each bad input rejects with a `RennetError`
 * naming the fix (`OPTION_UNKNOWN`, `OPTIONS_INVALID`, `CWD_INVALID`) before anything starts, never with a
 * `TypeError` from deep inside the control.
 */
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { explicitCodex, isRennetError, runMcpIsolationCheck } from "../../src/index.js";
import { refusedLaunchesPerTest } from "../helpers/refused-launches.js";

const launches = refusedLaunchesPerTest("isolation-options");
const { launcher } = launches;
/** A codex that cannot run: the inventory step would fail on it, so a refusal must come before. */
const resolved = explicitCodex("/nonexistent/rennet-test/codex");

async function rejection(options: unknown): Promise<{ code: string; message: string }> {
  const error = await runMcpIsolationCheck(options as never).then(
    () => new Error("resolved"),
    (reason: unknown) => reason,
  );
  expect(isRennetError(error)).toBe(true);
  expect(launches.launched()).toEqual([]);
  return error as { code: string; message: string };
}

describe("runMcpIsolationCheck() options", () => {
  it.each<[string, unknown]>([
    ["missing", undefined],
    ["null", null],
    ["an array", []],
  ])("options %s are OPTIONS_INVALID", async (_, options) => {
    expect(await rejection(options)).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringMatching(/^runMcpIsolationCheck\(\) options must be an object/),
    });
  });

  it("a ResolvedCodex in place of its launch says to pass its launch", async () => {
    expect(await rejection({ codex: resolved, cwd: launches.root(), launcher })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("got a ResolvedCodex: pass its `launch`"),
    });
    expect(await rejection({ codex: "/usr/bin/codex", cwd: launches.root(), launcher })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("codex must be the launch of a resolved codex"),
    });
  });

  it("an unknown key, a wrong type and a cwd that is not a directory are refused", async () => {
    const codex = resolved.launch;
    expect(await rejection({ codex, cwd: launches.root(), launcher, timeoutMs: 5 })).toMatchObject({
      code: "OPTION_UNKNOWN",
      message: expect.stringContaining("unknown option `timeoutMs`"),
    });
    expect(await rejection({ codex, cwd: launches.root(), launcher, env: "PATH=/bin" })).toMatchObject({
      code: "OPTIONS_INVALID",
    });
    expect(await rejection({ codex, cwd: launches.root(), launcher, statusTimeoutMs: "90s" })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("statusTimeoutMs must be a number of milliseconds"),
    });
    expect(await rejection({ codex, cwd: launches.root(), launcher, signal: true })).toMatchObject({
      code: "OPTIONS_INVALID",
    });
    expect(await rejection({ codex, launcher })).toMatchObject({ code: "CWD_INVALID" });
    expect(await rejection({ codex, cwd: path.join(launches.root(), "missing"), launcher })).toMatchObject({
      code: "CWD_INVALID",
    });
  });
});

describe("runMcpIsolationCheck() in a directory whose .codex/config.toml is not a regular file", () => {
  it("reports it as the inventory's failure without starting codex there", async () => {
    const cwd = path.join(launches.root(), "repo");
    await mkdir(path.join(cwd, ".codex"), { recursive: true });
    await symlink("/dev/zero", path.join(cwd, ".codex", "config.toml"));
    const report = await runMcpIsolationCheck({ codex: resolved.launch, cwd, launcher, env: {} });
    expect(report.inventoryError).toMatchObject({ code: "PROJECT_CONFIG_NOT_A_FILE" });
    expect(report.verdict).toBe("failed");
    expect(launches.launched()).toEqual([]);
  });
});
