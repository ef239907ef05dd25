/**
 * `runMcpIsolationCheck()`'s options, through the package entry: each bad input rejects with a `RennetError`
 * naming the fix (`OPTION_UNKNOWN`, `OPTIONS_INVALID`, `CWD_INVALID`) before anything starts, never with a
 * `TypeError` from deep inside the control.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explicitCodex, isRennetError, runMcpIsolationCheck } from "../../src/index.js";
import type { Launcher } from "../../src/process/stdio-child.js";

let root = "";
let launched: unknown[] = [];
/** Records a launch and fails it: a check that lets a bad input through is seen here. */
const launcher: Launcher = (spec) => {
  launched.push(spec);
  throw new Error("launched");
};
/** A codex that cannot run: the inventory step would fail on it, so a refusal must come before. */
const resolved = explicitCodex("/nonexistent/rennet-test/codex");

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-isolation-options-")));
  launched = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function rejection(options: unknown): Promise<{ code: string; message: string }> {
  const error = await runMcpIsolationCheck(options as never).then(
    () => new Error("resolved"),
    (reason: unknown) => reason,
  );
  expect(isRennetError(error)).toBe(true);
  expect(launched).toEqual([]);
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
    expect(await rejection({ codex: resolved, cwd: root, launcher })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("got a ResolvedCodex: pass its `launch`"),
    });
    expect(await rejection({ codex: "/usr/bin/codex", cwd: root, launcher })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("codex must be the launch of a resolved codex"),
    });
  });

  it("an unknown key, a wrong type and a cwd that is not a directory are refused", async () => {
    const codex = resolved.launch;
    expect(await rejection({ codex, cwd: root, launcher, timeoutMs: 5 })).toMatchObject({
      code: "OPTION_UNKNOWN",
      message: expect.stringContaining("unknown option `timeoutMs`"),
    });
    expect(await rejection({ codex, cwd: root, launcher, env: "PATH=/bin" })).toMatchObject({
      code: "OPTIONS_INVALID",
    });
    expect(await rejection({ codex, cwd: root, launcher, statusTimeoutMs: "90s" })).toMatchObject({
      code: "OPTIONS_INVALID",
      message: expect.stringContaining("statusTimeoutMs must be a number of milliseconds"),
    });
    expect(await rejection({ codex, cwd: root, launcher, signal: true })).toMatchObject({
      code: "OPTIONS_INVALID",
    });
    expect(await rejection({ codex, launcher })).toMatchObject({ code: "CWD_INVALID" });
    expect(await rejection({ codex, cwd: path.join(root, "missing"), launcher })).toMatchObject({
      code: "CWD_INVALID",
    });
  });
});
