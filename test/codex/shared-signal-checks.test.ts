/**
 * An application passes one long-lived signal (its shutdown signal) to every call. `checkProjectTrust()` and
 * `runMcpIsolationCheck()` running side by side on it must keep at most one abort listener on it, as sessions
 * and discovery do: one per call trips Node's `MaxListenersExceededWarning` at the 11th.
 */
import { promises as fs } from "node:fs";
import { getEventListeners } from "node:events";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { checkProjectTrust, explicitCodex, runMcpIsolationCheck } from "../../src/index.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { waitFor } from "../helpers/wait.js";

const CALLS = 12;
let root = "";
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rennet-shared-signal-")));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Collects process warnings for the test. */
function warningNames(): () => string[] {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): number => warnings.push(warning);
  process.on("warning", onWarning);
  onTestFinished(() => void process.off("warning", onWarning));
  return () => warnings.map((warning) => warning.name);
}

describe("calls sharing one signal keep one listener on it: no MaxListenersExceededWarning", () => {
  it("checkProjectTrust()", async () => {
    const warnings = warningNames();
    const fake = new InMemoryAppServer({
      replies: {
        initialize: { result: { userAgent: "codex_cli_rs/0.171.0 (fake)" } },
        "config/read": { noReply: true },
      },
    });
    const controller = new AbortController();
    const running = Array.from({ length: CALLS }, () =>
      checkProjectTrust({
        codex: explicitCodex("/opt/codex"),
        cwd: root,
        env: { CODEX_HOME: path.join(root, "home") },
        launcher: fake.launcher,
        timeoutMs: 60_000,
        signal: controller.signal,
      }),
    );
    await waitFor(
      () =>
        fake.launches.filter((launch) => launch.peer.requestsOf("config/read").length > 0).length === CALLS,
      "every lookup in flight",
    );
    await expectOneListenerThenAbort(controller, running, warnings);
  });

  it.skipIf(process.platform === "win32")("runMcpIsolationCheck()", async () => {
    const warnings = warningNames();
    const log = path.join(root, "started.log");
    const codex = path.join(root, "codex");
    // `codex mcp list --json` that never finishes
    await fs.writeFile(codex, `#!/bin/sh\necho "$*" >> '${log}'\nexec /bin/sleep 60\n`, { mode: 0o755 });
    const controller = new AbortController();
    const running = Array.from({ length: CALLS }, () =>
      runMcpIsolationCheck({
        codex: explicitCodex(codex).launch,
        cwd: root,
        env: { PATH: "/usr/bin:/bin", CODEX_HOME: path.join(root, "home") },
        signal: controller.signal,
      }),
    );
    const started = async (): Promise<number> =>
      (await fs.readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
    await waitFor(async () => (await started()) === CALLS, "every inventory in flight");
    await expectOneListenerThenAbort(controller, running, warnings);
  });
});

/** With every call in flight: at most one listener on the shared signal; an abort rejects each with its reason. */
async function expectOneListenerThenAbort(
  controller: AbortController,
  running: readonly Promise<unknown>[],
  warnings: () => string[],
): Promise<void> {
  expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
  const reason = new Error("shutdown");
  controller.abort(reason);
  await Promise.all(running.map((check) => expect(check).rejects.toBe(reason)));
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings()).not.toContain("MaxListenersExceededWarning");
}
