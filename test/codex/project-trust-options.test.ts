/**
 * `checkProjectTrust()`'s options, through the package entry: each bad input rejects with the code and fix the
 * client calls give (`OPTION_UNKNOWN`, `OPTIONS_INVALID`, `CWD_INVALID`) and nothing is launched.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkProjectTrust, createCodex, explicitCodex } from "../../src/index.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { refusedLaunchesPerTest } from "../helpers/refused-launches.js";

const launches = refusedLaunchesPerTest("trust-options");
const { launcher } = launches;
const codex = explicitCodex("/opt/codex");

/** The rejection of `checkProjectTrust(options)` (with the recording launcher), after checking nothing launched. */
async function rejection(options: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const promise = checkProjectTrust({ launcher, ...options } as never);
  const error = (await promise.then(
    () => new Error("resolved"),
    (reason: unknown) => reason,
  )) as { code: string; message: string };
  expect(launches.launched()).toEqual([]);
  return error;
}

describe("checkProjectTrust() options", () => {
  it.each<[string, unknown, RegExp]>([
    ["a path", "/usr/local/bin/codex", /got the path "\/usr\/local\/bin\/codex": resolve it first/],
    ["a client", createCodex(), /got a client: pass what `await client\.resolveCodex\(\{ cwd \}\)` gives/],
    ["a launch", codex.launch, /got a launch: pass the ResolvedCodex whose `launch` it is/],
    ["nothing", undefined, /got undefined$/],
  ])("codex as %s is OPTIONS_INVALID, naming what it must be", async (_, value, got) => {
    const error = await rejection({ codex: value, cwd: launches.root() });
    expect(error.code).toBe("OPTIONS_INVALID");
    expect(error.message).toContain(
      "checkProjectTrust() options: codex must be a resolved codex (`discoverCodex().chosen`, or " +
        "`await createCodex().resolveCodex({ cwd })`)",
    );
    expect(error.message).toMatch(got);
  });

  it("a cwd that is missing, not there or a file is CWD_INVALID, not a failed start of codex", async () => {
    const missing = path.join(launches.root(), "missing");
    const file = path.join(launches.root(), "file");
    await writeFile(file, "");
    expect(await rejection({ codex, cwd: missing })).toMatchObject({
      code: "CWD_INVALID",
      message: `cwd ${missing}: no such directory; create it or pass an existing one (${missing})`,
    });
    expect(await rejection({ codex, cwd: file })).toMatchObject({
      code: "CWD_INVALID",
      message: `cwd ${file}: not a directory; pass the directory Codex should work in, not a file (${file})`,
    });
    expect(await rejection({ codex })).toMatchObject({ code: "CWD_INVALID", message: /^cwd is missing/ });
    expect(await rejection({ codex, cwd: "" })).toMatchObject({ code: "CWD_INVALID" });
  });

  it("an unknown key is OPTION_UNKNOWN with the hint the client calls give", async () => {
    const sdk = await rejection({ codex, workingDirectory: launches.root() });
    expect(sdk.code).toBe("OPTION_UNKNOWN");
    expect(sdk.message).toContain(
      "checkProjectTrust() options: unknown option `workingDirectory`: an option of OpenAI's Codex SDK; use `cwd`",
    );
    expect((await rejection({ codex, cwd: launches.root(), trustProjet: true })).message).toContain(
      "`trustProjet`: did you mean `trustProject`?",
    );
    await expect(checkProjectTrust("/src/app" as never)).rejects.toMatchObject({
      code: "OPTIONS_INVALID",
      message: "checkProjectTrust() options must be an object, got string",
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["trustProject", { trustProject: "false" }, 'trustProject must be true or false, got "false"'],
    ["timeoutMs", { timeoutMs: 0 }, "timeoutMs must be a number of milliseconds from 1 to"],
    ["env", { env: "CODEX_HOME=/x" }, "env must be an object of environment variables"],
    ["signal", { signal: {} }, "signal must be an AbortSignal"],
  ])("%s of the wrong type is OPTIONS_INVALID", async (_, bad, message) => {
    const error = await rejection({ codex, cwd: launches.root(), ...bad });
    expect(error).toMatchObject({ code: "OPTIONS_INVALID" });
    expect(error.message).toContain(message);
  });

  it("rejects (never throws synchronously), and takes a relative cwd as the report's absolute one", async () => {
    expect(() => void checkProjectTrust({} as never).catch(() => undefined)).not.toThrow();
    const fake = new InMemoryAppServer({
      replies: {
        initialize: { result: { userAgent: "codex_cli_rs/0.171.0 (fake)" } },
        "config/read": { result: { config: { projects: {} } } },
      },
    });
    const relative = path.relative(process.cwd(), launches.root());
    const report = await checkProjectTrust({
      codex,
      cwd: relative,
      env: { CODEX_HOME: path.join(launches.root(), "home") },
      launcher: fake.launcher,
    });
    expect(report.cwd).toBe(launches.root());
    expect(fake.launches[0]?.spec.cwd).toBe(launches.root());
  });
});
