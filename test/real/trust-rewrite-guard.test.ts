import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { AppServerSession } from "../../src/codex/app-server/app-server-session.js";
import { directoryChain } from "../../src/codex/trust/directory-chain.js";
import { decideTrust, trustOverride, type TrustDecision } from "../../src/codex/trust/project-trust.js";
import { buildThreadStartParams } from "../../src/codex/protocol/protocol-requests.js";
import { trustSafeThreadSandbox } from "../../src/codex/trust/trust-safe-sandbox.js";
import { spawnStdioChild } from "../../src/process/stdio-launcher.js";
import { createCodexHome } from "../../src/testkit/codex-home.js";

// codex 0.120–0.124 rewrite an untrusted project to trusted in CODEX_HOME/config.toml at thread/start. With
// the sandbox from trustSafeThreadSandbox the file stays byte-identical, trusted and untrusted alike; without
// it (the control) 0.120/0.122 do rewrite it. Runs on the cached binaries of scripts/compat/install-codex.js;
// where one is missing the file is skipped with a warning, unless RENNET_REQUIRE_COMPAT_BINARIES=1 (CI sets it
// after installing them), which turns the skip into a failure naming the install command.

const CACHE = process.env.RENNET_COMPAT_CACHE ?? path.join(os.homedir(), ".cache", "rennet-compat", "codex");
const launcherOf = (version: string): string => path.join(CACHE, version, "node_modules", ".bin", "codex");

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function gitRepo(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-trust-repo-")));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

/** Starts one thread the way the runner does (plus the guard unless `guard` is false); returns whether config.toml changed. */
async function threadStartChangesConfig(
  version: string,
  entry: "trusted" | "untrusted" | null,
  guard: boolean,
): Promise<{ changed: boolean; sandbox: string }> {
  const cwd = await gitRepo();
  const home = await createCodexHome({
    modelUrl: "http://127.0.0.1:9/v1",
    ...(entry ? { extraToml: { projects: { [cwd]: { trust_level: entry } } } } : {}),
  });
  cleanups.push(() => home.cleanup());
  const before = await readFile(home.configPath);
  const session = AppServerSession.open({
    spec: {
      command: launcherOf(version),
      args: ["app-server"],
      cwd,
      env: home.env({ ...process.env, HOME: home.dir }),
    },
    launcher: spawnStdioChild,
    initializeTimeoutMs: 30_000,
  });
  try {
    const init = await session.ready;
    const directories = directoryChain(cwd);
    const decision: TrustDecision = decideTrust(
      directories,
      entry === null ? {} : { [cwd]: { trust_level: entry } },
    );
    const params = buildThreadStartParams({
      prompt: "",
      cwd,
      threadConfig: trustOverride(directories, decision),
    });
    const sandbox = guard
      ? trustSafeThreadSandbox(decision, codexCapabilities(init.codexVersion))
      : String(params.sandbox);
    await session.connection.request("thread/start", { ...params, sandbox }, { timeoutMs: 30_000 });
    await delay(500);
    const after = await readFile(home.configPath);
    return { changed: !after.equals(before), sandbox };
  } finally {
    await session.end();
  }
}

const REQUIRED = process.env.RENNET_REQUIRE_COMPAT_BINARIES === "1";

for (const version of ["0.120.0", "0.122.0"]) {
  const installed = existsSync(launcherOf(version));
  const install = `node scripts/compat/install-codex.js ${version}`;
  if (!installed && REQUIRED)
    it(`codex ${version} is installed (RENNET_REQUIRE_COMPAT_BINARIES=1)`, () => {
      expect.fail(`codex ${version} is not in ${CACHE}: ${install}`);
    });
  else if (!installed) console.warn(`skipping codex ${version}: not installed (${install})`);
  describe.skipIf(!installed)(`codex ${version}: config.toml stays byte-identical at thread/start`, () => {
    it.each<["trusted" | "untrusted" | null, string]>([
      ["untrusted", "read-only"],
      [null, "read-only"],
      ["trusted", "danger-full-access"],
    ])(
      "project entry %s → thread sandbox %s, file untouched",
      async (entry, sandbox) => {
        expect(await threadStartChangesConfig(version, entry, true)).toEqual({ changed: false, sandbox });
      },
      60_000,
    );

    it("control: without the guard an untrusted entry is rewritten", async () => {
      expect((await threadStartChangesConfig(version, "untrusted", false)).changed).toBe(true);
    }, 60_000);
  });
}
