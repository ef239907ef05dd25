import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import { listConfiguredMcpServers } from "../../../src/codex/mcp/mcp-inventory.js";
import { McpPolicyError } from "../../../src/mcp/mcp-policy-error.js";
import { parseMcpPolicy, type McpPolicy } from "../../../src/mcp/mcp-policy.js";
import {
  resolveMcpLaunch as resolveLaunch,
  type ResolveMcpLaunchArgsOptions,
} from "../../../src/codex/mcp/resolve-mcp-launch.js";
import { isAlive } from "../../helpers/processes.js";
import { waitFor } from "../../helpers/wait.js";
import {
  buildMcpInventoryArgs,
  resolveMcpLaunchArgs as resolveLaunchArgs,
} from "../../../src/internal/test-hooks.js";

// the resolvers take a policy parsed at the edge: each call here parses the literal first
const resolveMcpLaunch = async (policy: McpPolicy, options: ResolveMcpLaunchArgsOptions) =>
  resolveLaunch(parseMcpPolicy(policy), options);
const resolveMcpLaunchArgs = async (policy: McpPolicy, options: ResolveMcpLaunchArgsOptions) =>
  resolveLaunchArgs(parseMcpPolicy(policy), options);

// Process tests: the fake is a tiny node script standing in for `codex mcp list --json`.
const FAKE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/mcp/fake-codex-mcp-list.js",
);
const codex: CodexLaunch = { type: "node-launcher", node: process.execPath, script: FAKE };

let dir: string;
let recordFile: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rennet-mcp-inventory-"));
  recordFile = path.join(dir, "record.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function env(mode: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    FAKE_MCP_MODE: mode,
    FAKE_MCP_RECORD: recordFile,
    CODEX_HOME: path.join(dir, "home"),
    ...extra,
  };
}

async function recorded(): Promise<{ argv: string[]; cwd: string; pid: number; codexHome: string | null }> {
  return JSON.parse(await readFile(recordFile, "utf8")) as {
    argv: string[];
    cwd: string;
    pid: number;
    codexHome: string | null;
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.unreachable("expected a rejection");
}

describe("buildMcpInventoryArgs", () => {
  it("lists as JSON with plugins off and every given directory trusted", () => {
    expect(buildMcpInventoryArgs([])).toEqual(["mcp", "list", "--json", "-c", "features.plugins=false"]);
    expect(buildMcpInventoryArgs(["/a.b/c d", "/a.b", "/"])).toEqual([
      "mcp",
      "list",
      "--json",
      "-c",
      "features.plugins=false",
      "-c",
      'projects={ "/a.b/c d" = { trust_level = "trusted" }, "/a.b" = { trust_level = "trusted" }, "/" = { trust_level = "trusted" } }',
    ]);
  });
});

describe("listConfiguredMcpServers", () => {
  it("by default lets codex's own trust decide: no trust override, so an untrusted repository's servers are not contacted", async () => {
    await listConfiguredMcpServers({ codex, cwd: dir, env: env("ok") });
    expect((await recorded()).argv).toEqual(["mcp", "list", "--json", "-c", "features.plugins=false"]);
  });

  it("runs in the turn's cwd and environment; trustProject: true trusts every directory up from the cwd", async () => {
    const cwd = path.join(dir);
    const stdout = JSON.stringify([{ name: "a", enabled: true, transport: { type: "stdio", command: "x" } }]);
    const entries = await listConfiguredMcpServers({
      codex,
      cwd,
      env: env("ok", { FAKE_MCP_STDOUT: stdout }),
      trustProject: true,
    });
    expect(entries.map((entry) => entry.name)).toEqual(["a"]);
    const call = await recorded();
    expect(call.cwd).toBe(await import("node:fs/promises").then((fs) => fs.realpath(cwd)));
    expect(call.codexHome).toBe(path.join(dir, "home"));
    expect(call.argv.slice(0, 5)).toEqual(["mcp", "list", "--json", "-c", "features.plugins=false"]);
    expect(call.argv[5]).toBe("-c");
    const trust = call.argv[6] ?? "";
    expect(trust).toContain(`${JSON.stringify(cwd)} = { trust_level = "trusted" }`);
    expect(trust).toContain('"/" = { trust_level = "trusted" }');
  });

  it("codex.env is laid over env", async () => {
    await listConfiguredMcpServers({
      codex: { ...codex, env: { CODEX_HOME: "/elsewhere" } },
      cwd: dir,
      env: env("ok"),
    });
    expect((await recorded()).codexHome).toBe("/elsewhere");
  });

  it.runIf(process.platform !== "win32")(
    "a discovered WSL command is launched like the app-server: through wsl.exe, with the distribution's cwd",
    async () => {
      // the fake wsl.exe is the fake codex itself: it records the argv wsl.exe would get
      const wslExe = path.join(dir, "wsl.exe");
      await writeFile(wslExe, `#!/bin/sh\nexec '${process.execPath}' '${FAKE}' "$@"\n`, { mode: 0o755 });
      const command: CodexLaunch = {
        type: "wsl",
        wslExe,
        distro: "Distro",
        argv: ["/home/u/.local/bin/codex"],
      };
      await listConfiguredMcpServers({
        codex: command,
        cwd: "\\\\wsl.localhost\\Distro\\home\\u\\repo",
        env: env("ok"),
        trustProject: true,
      });
      const argv = (await recorded()).argv;
      expect(argv.slice(0, 6)).toEqual(["-d", "Distro", "--cd", "/home/u/repo", "--exec", "/usr/bin/env"]);
      expect(argv.slice(6, 12)).toEqual([
        "/home/u/.local/bin/codex",
        "mcp",
        "list",
        "--json",
        "-c",
        "features.plugins=false",
      ]);
      // trust is keyed by the path codex sees inside the distribution
      expect(argv.at(-1)).toContain('"/home/u/repo" = { trust_level = "trusted" }');
      expect(argv.at(-1)).not.toContain("wsl.localhost");
    },
  );

  it("a non-zero exit is MCP_INVENTORY_FAILED carrying codex's stderr", async () => {
    const error = await rejection(listConfiguredMcpServers({ codex, cwd: dir, env: env("fail") }));
    expect(error).toBeInstanceOf(McpPolicyError);
    expect((error as McpPolicyError).code).toBe("MCP_INVENTORY_FAILED");
    expect((error as Error).message).toContain("exit 3");
    expect((error as Error).message).toContain("invalid transport");
  });

  it("a missing executable is MCP_INVENTORY_FAILED", async () => {
    const error = await rejection(
      listConfiguredMcpServers({
        codex: { type: "native", command: path.join(dir, "no-such-codex") },
        cwd: dir,
        env: env("ok"),
      }),
    );
    expect((error as McpPolicyError).code).toBe("MCP_INVENTORY_FAILED");
    expect((error as Error).message).toContain("ENOENT");
  });

  it("unexpected output is MCP_INVENTORY_SHAPE", async () => {
    const error = await rejection(listConfiguredMcpServers({ codex, cwd: dir, env: env("garbage") }));
    expect((error as McpPolicyError).code).toBe("MCP_INVENTORY_SHAPE");
  });

  it("a hung child is killed (SIGTERM ignored, then SIGKILL) and reported as MCP_INVENTORY_TIMEOUT", async () => {
    // long enough for node to start and record its pid on a loaded machine; the assertion is not about time
    const error = await rejection(
      listConfiguredMcpServers({ codex, cwd: dir, env: env("hang"), timeoutMs: 5000 }),
    );
    expect((error as McpPolicyError).code).toBe("MCP_INVENTORY_TIMEOUT");
    expect(isAlive((await recorded()).pid)).toBe(false);
  });

  it("abort kills the child and rejects with exactly signal.reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop now");
    const pending = listConfiguredMcpServers({
      codex,
      cwd: dir,
      env: env("hang"),
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    // abort once the child has started (it records itself first)
    await waitFor(() => existsSync(recordFile), "the child's record");
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
    expect(isAlive((await recorded()).pid)).toBe(false);
  });

  it("an already aborted signal spawns nothing", async () => {
    const reason = new Error("before start");
    const error = await rejection(
      listConfiguredMcpServers({ codex, cwd: dir, env: env("ok"), signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
    await expect(readFile(recordFile)).rejects.toThrow();
  });
});

describe("resolveMcpLaunchArgs", () => {
  it('"inherit" returns [] without running anything', async () => {
    const args = await resolveMcpLaunchArgs("inherit", {
      codex: { type: "native", command: path.join(dir, "no-such-codex") },
      cwd: dir,
    });
    expect(args).toEqual([]);
  });

  it("an explicit policy lists the inventory and renders the override", async () => {
    const stdout = JSON.stringify([
      { name: "mine", enabled: true, transport: { type: "streamable_http", url: "https://x.example/mcp" } },
    ]);
    const args = await resolveMcpLaunchArgs(
      { servers: [{ name: "probe", url: "http://127.0.0.1:4000/mcp" }] },
      { codex, cwd: dir, env: env("ok", { FAKE_MCP_STDOUT: stdout }) },
    );
    expect(args).toEqual([
      "-c",
      "features.plugins=false",
      "-c",
      'mcp_servers={ probe = { enabled = true, url = "http://127.0.0.1:4000/mcp" }, mine = { enabled = false, url = "https://x.example/mcp" } }',
    ]);
  });

  it("a bad policy is refused before anything runs", async () => {
    const error = await rejection(
      resolveMcpLaunchArgs(
        { servers: [{ name: "far", url: "http://example.com/" }] },
        { codex, cwd: dir, env: env("ok") },
      ),
    );
    expect((error as McpPolicyError).code).toBe("MCP_URL_NOT_LOOPBACK");
    await expect(readFile(recordFile)).rejects.toThrow();
  });

  it("a requested name that is configured is MCP_NAME_COLLISION", async () => {
    const stdout = JSON.stringify([
      { name: "probe", enabled: false, transport: { type: "stdio", command: "x" } },
    ]);
    const error = await rejection(
      resolveMcpLaunchArgs(
        { servers: [{ name: "probe", url: "http://127.0.0.1:4000/mcp" }] },
        { codex, cwd: dir, env: env("ok", { FAKE_MCP_STDOUT: stdout }) },
      ),
    );
    expect((error as McpPolicyError).code).toBe("MCP_NAME_COLLISION");
  });
});

describe("resolveMcpLaunchArgs on a codex whose threads ignore launch overrides", () => {
  const discovered = (version: string): { codex: CodexLaunch; version: string } => ({ codex, version });

  it("refuses with MCP_POLICY_UNENFORCEABLE before listing anything (0.72)", async () => {
    const error = await rejection(
      resolveMcpLaunchArgs({ servers: [] }, { ...discovered("0.72.0"), cwd: dir, env: env("ok") }),
    );
    expect(error).toBeInstanceOf(McpPolicyError);
    expect(error).toMatchObject({ code: "MCP_POLICY_UNENFORCEABLE" });
    expect((error as Error).message).toMatch(/^codex 0\.72\.0 does not apply launch overrides/);
    await expect(readFile(recordFile, "utf8")).rejects.toThrow(); // the inventory never ran
  });

  it("resolveMcpLaunch gives the same policy as thread config too, so it works there", async () => {
    const stdout = JSON.stringify([{ name: "a", enabled: true, transport: { type: "stdio", command: "x" } }]);
    const launch = await resolveMcpLaunch(
      { servers: [] },
      { ...discovered("0.72.0"), cwd: dir, env: env("ok", { FAKE_MCP_STDOUT: stdout }) },
    );
    expect(launch.appServerArgs.slice(0, 3)).toEqual(["-c", "features.plugins=false", "-c"]);
    expect(JSON.parse(JSON.stringify(launch.threadConfig))).toEqual({
      mcp_servers: { a: { enabled: false, command: "x" } },
    });
    expect(
      await resolveMcpLaunchArgs(
        { servers: [] },
        { ...discovered("0.80.0"), cwd: dir, env: env("ok", { FAKE_MCP_STDOUT: stdout }) },
      ),
    ).toHaveLength(4);
  });
});

describe("resolveMcpLaunchArgs on a codex older than the oldest supported", () => {
  it("rejects with CODEX_UNSUPPORTED_VERSION", async () => {
    const error = await rejection(
      resolveMcpLaunchArgs({ servers: [] }, { codex, version: "0.66.0", cwd: dir, env: env("ok") }),
    );
    expect(error).toMatchObject({ code: "CODEX_UNSUPPORTED_VERSION" });
  });
});
