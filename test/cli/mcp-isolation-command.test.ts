import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import type { McpIsolationReport } from "../../src/codex/mcp/mcp-isolation-report.js";
import type { Launcher } from "../../src/process/stdio-child.js";
import { renderCodexHomeConfig } from "../../src/testkit/codex-home.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import type { FakeScript } from "../../src/testkit/fake-script.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { npmNativeLaunchBehind } from "../../src/codex/launch/explicit-codex.js";
import { CONNECTED_CELL } from "../helpers/mcp-evidence.js";
import { FakeSignals, TextSink } from "./helpers/cli-harness.js";
import { codexCouldNotStart } from "../../src/internal/test-hooks.js";
import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";

let dir: string;
/** A stand-in codex whose `mcp list --json` prints `$RENNET_TEST_INVENTORY` (it is never run as app-server). */
let listingCodex: string;
/** A stand-in codex whose `mcp list --json` writes its pid to `$RENNET_TEST_PID_FILE` and hangs. */
let hangingCodex: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-mcp-isolation-cli-"));
  listingCodex = join(dir, "listing-codex");
  await writeFile(
    listingCodex,
    '#!/bin/sh\nif [ "$1" = mcp ]; then printf \'%s\\n\' "$RENNET_TEST_INVENTORY"; exit 0; fi\necho "unexpected: $*" >&2\nexit 2\n',
  );
  hangingCodex = join(dir, "hanging-codex");
  await writeFile(hangingCodex, '#!/bin/sh\necho $$ > "$RENNET_TEST_PID_FILE"\nexec sleep 30\n');
  await chmod(listingCodex, 0o755);
  await chmod(hangingCodex, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  launcher?: Launcher;
  stdoutIsTTY?: boolean;
}

function startIsolation(args: string[], options: RunOptions = {}) {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const signals = new FakeSignals();
  const exit = main(["codex", "mcp-isolation", ...args], {
    stdout,
    stderr,
    env: options.env ?? { PATH: process.env.PATH },
    cwd: options.cwd ?? dir,
    isTTY: { stdin: false, stdout: options.stdoutIsTTY ?? false, stderr: false },
    signals,
    ...(options.launcher ? { launcher: options.launcher } : {}),
  });
  return { stdout, stderr, signals, exit };
}

const USER_SERVER = { name: "user1", enabled: true, transport: { type: "stdio", command: "user-mcp" } };

/** An app-server that claims the user's server is still enabled and connected under every policy. */
const LEAKY_APP_SERVER: FakeScript = {
  replies: {
    "config/read": {
      result: {
        config: { mcp_servers: { user1: { enabled: true, command: "user-mcp" } } },
        layers: [{ name: { type: "sessionFlags" }, config: { mcp_servers: { user1: { enabled: false } } } }],
      },
    },
    "mcpServerStatus/list": {
      result: { data: [{ name: "user1", runtimeStatus: "connected" }], nextCursor: null },
    },
  },
};

describe("rennet codex mcp-isolation (hermetic)", () => {
  it("--help explains what it proves and its exit codes", async () => {
    const { exit, stdout } = startIsolation(["--help"]);
    expect(await exit).toBe(0);
    expect(stdout.text).toContain("Usage: rennet codex mcp-isolation [options]");
    expect(stdout.text).toContain("What it proves:");
    expect(stdout.text).toContain("config/read");
    expect(stdout.text).toContain("mcpServerStatus/list");
    expect(stdout.text).toMatch(/--json +print the report as one JSON object/);
    expect(stdout.text).toMatch(/ 3 +the codex executable could not be started/);
    // a step that could not run (with nothing judged wrong) exits 3, as the NOT CHECKED case below shows
    expect(stdout.text).toMatch(/ 3 +[^\n]*a step of the check could not run/);
    expect(stdout.text).not.toMatch(/ 1 +[^\n]*a step failed/);
  });

  it("names the directory escaped in its progress line: a repository's directory name cannot drive the terminal", async () => {
    const evil = join(dir, "evil\x1b]0;title\x07\u202edir");
    await mkdir(evil, { recursive: true });
    const fake = new InMemoryAppServer(LEAKY_APP_SERVER);
    const { exit, stderr } = startIsolation(["--codex-bin", listingCodex, "--no-color"], {
      env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: JSON.stringify([USER_SERVER]) },
      launcher: fake.launcher,
      cwd: evil,
    });
    expect(await exit).toBe(1);
    expect(stderr.text).toContain(`in ${dir}/evil\\u001b]0;title\\u0007\\u202edir (two app-server launches`);
    for (const raw of ["\x1b", "\x07", "\u202e"]) expect(stderr.text).not.toContain(raw);
  });

  it("exits 1 and says FAILED when a server outside the policy stays enabled; both policies are launched", async () => {
    const fake = new InMemoryAppServer(LEAKY_APP_SERVER);
    const { exit, stdout, stderr } = startIsolation(["--codex-bin", listingCodex, "--no-color"], {
      env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: JSON.stringify([USER_SERVER]) },
      launcher: fake.launcher,
      stdoutIsTTY: true,
    });
    expect(await exit).toBe(1);
    expect(stdout.text).toContain("FAILED");
    expect(stdout.text).toMatch(/user1 +stdio, on +LEAK {2}on · connected +LEAK {2}on · connected/);
    expect(stdout.text).not.toContain("\x1b["); // --no-color wins over a terminal
    expect(stderr.text).toContain(`checking MCP isolation of ${listingCodex} in ${dir}`);
    expect(fake.launches).toHaveLength(2);
    const [empty, loopback] = fake.launches.map((launch) => launch.spec);
    expect(empty?.command).toBe(listingCodex);
    expect(empty?.args).toEqual([
      "app-server",
      ...APP_SERVER_BASE_ARGS,
      "-c",
      "features.plugins=false",
      "-c",
      expect.stringMatching(/^mcp_servers=\{/),
    ]);
    expect(empty?.args.at(-1)).toContain('user1 = { enabled = false, command = "user-mcp" }');
    expect(loopback?.args.at(-1)).toMatch(
      /"?rennet-isolation-probe"? = \{ enabled = true, url = "http:\/\/127\.0\.0\.1:\d+\/mcp"/,
    );
    expect(fake.launches.every((launch) => launch.terminated)).toBe(true);
  });

  it("--json prints the report as one JSON object and nothing on stderr", async () => {
    const fake = new InMemoryAppServer(LEAKY_APP_SERVER);
    const { exit, stdout, stderr } = startIsolation(["--json", "--codex-bin", listingCodex], {
      env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: JSON.stringify([USER_SERVER]) },
      launcher: fake.launcher,
    });
    expect(await exit).toBe(1);
    expect(stderr.text).toBe("");
    expect(stdout.text.endsWith("}\n")).toBe(true);
    expect(stdout.text.trimEnd().split("\n")).toHaveLength(1);
    const report = JSON.parse(stdout.text) as McpIsolationReport;
    expect(report.ok).toBe(false);
    expect(report.inventory).toEqual([{ name: "user1", enabled: true, transport: "stdio" }]);
    expect(report.runs.map((run) => [run.policy, run.ok])).toEqual([
      ["empty", false],
      ["loopback", false],
    ]);
  });

  it("honours RENNET_CODEX_BIN when --codex-bin is not given (no discovery with an injected launcher)", async () => {
    const fake = new InMemoryAppServer(LEAKY_APP_SERVER);
    const { exit } = startIsolation(["--json"], {
      env: { PATH: process.env.PATH, RENNET_CODEX_BIN: listingCodex, RENNET_TEST_INVENTORY: "[]" },
      launcher: fake.launcher,
    });
    await exit;
    expect(fake.launches[0]?.spec.command).toBe(listingCodex);
  });

  it("exits 3 when the codex executable is missing, with the words every command uses, before any spawn", async () => {
    const missing = join(dir, "no-such-codex");
    const { exit, stdout, stderr } = startIsolation(["--codex-bin", missing]);
    expect(await exit).toBe(3);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain(`error: Codex is unavailable: ${missing}: not found`);
  });

  it("exits 3 and says NOT CHECKED, never FAILED, when codex starts but its configuration cannot be listed", async () => {
    const { exit, stdout, stderr } = startIsolation(["--codex-bin", listingCodex], {
      env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: '{"not":"an array"}' },
    });
    expect(await exit).toBe(3);
    expect(stdout.text).toContain("MCP_INVENTORY_SHAPE");
    expect(stdout.text).toContain("NOT CHECKED");
    expect(stdout.text).not.toContain("FAILED");
    expect(stderr.text).toContain("error: the MCP isolation check could not run: inventory:");
  });

  it("what codex said when it failed (its stderr) is escaped on stderr as in the report: no escape sequence", async () => {
    const failing = join(dir, "failing-codex");
    await writeFile(
      failing,
      "#!/bin/sh\nprintf 'bad config \\033]52;c;cm0gLXJmIH4=\\007\\302\\233\\342\\200\\256x' >&2\nexit 1\n",
    );
    await chmod(failing, 0o755);
    const { exit, stdout, stderr } = startIsolation(["--codex-bin", failing]);
    expect(await exit).toBe(3);
    expect(stderr.text).toContain("bad config \\u001b]52;c;cm0gLXJmIH4=\\u0007\\u009b\\u202ex");
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
    expect(stdout.text).not.toMatch(raw);
    expect(stderr.text).not.toMatch(raw);
  });

  it("an empty --codex-bin is a usage error", async () => {
    const { exit, stderr } = startIsolation(["--codex-bin", ""]);
    expect(await exit).toBe(2);
    expect(stderr.text).toContain("--codex-bin is empty");
  });

  it("SIGINT stops it: exit 130, nothing on stdout, the listing child is killed", async () => {
    const pidFile = join(dir, "hanging.pid");
    const { exit, stdout, stderr, signals } = startIsolation(["--codex-bin", hangingCodex], {
      env: { PATH: process.env.PATH, RENNET_TEST_PID_FILE: pidFile },
    });
    const pid = await vi.waitFor(
      async () => {
        const text = await readFile(pidFile, "utf8");
        if (!/^\d+\n$/.test(text)) throw new Error("no pid yet");
        return Number(text.trim());
      },
      { timeout: 10_000, interval: 20 },
    );
    signals.emit("SIGINT");
    expect(await exit).toBe(130);
    expect(stdout.text).toBe("");
    expect(stderr.text).toContain("SIGINT: stopping the MCP isolation check");
    expect(signals.listenerCount).toBe(0);
    await vi.waitFor(
      () => {
        expect(() => process.kill(pid, 0)).toThrow();
      },
      { timeout: 10_000, interval: 20 },
    );
  });
});

describe("codexCouldNotStart", () => {
  const report = (inventoryError: McpIsolationReport["inventoryError"]): McpIsolationReport => ({
    ok: false,
    codex: "codex",
    cwd: "/",
    codexHome: null,
    userAgent: null,
    inventory: [],
    inventoryError,
    runs: [],
    verdict: "failed",
  });

  it("is true only for a listing child that could not be started", () => {
    expect(
      codexCouldNotStart(
        report({
          code: "MCP_INVENTORY_FAILED",
          message: "could not start codex to list MCP servers (ENOENT); …",
        }),
      ),
    ).toBe(true);
    expect(
      codexCouldNotStart(
        report({ code: "MCP_INVENTORY_FAILED", message: "codex mcp list --json failed (exit 1)" }),
      ),
    ).toBe(false);
    expect(codexCouldNotStart(report({ code: "MCP_INVENTORY_TIMEOUT", message: "could not start" }))).toBe(
      false,
    );
    expect(codexCouldNotStart(report(null))).toBe(false);
  });
});

// The command end to end with the pinned codex and a throw-away CODEX_HOME (no model turn is started).
describe("rennet codex mcp-isolation (real codex)", () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let cwd: string;
  let markers: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "rennet-mcp-isolation-real-"));
    const home = join(root, "home");
    cwd = join(root, "work");
    markers = join(root, "markers");
    for (const path of [home, cwd, markers]) await mkdir(path);
    await writeFile(
      join(home, "config.toml"),
      renderCodexHomeConfig({
        modelUrl: "http://127.0.0.1:9/v1",
        extraToml: {
          mcp_servers: {
            user_stdio: {
              command: "sh",
              args: ["-c", `echo $$ > '${join(markers, "user_stdio.pid")}'; exec sleep 30`],
              startup_timeout_sec: 3,
            },
            "user.http": { url: "http://127.0.0.1:9/mcp", startup_timeout_sec: 3 },
          },
        },
      }),
    );
    env = {
      ...process.env,
      CODEX_HOME: home,
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
    };
    delete env.RENNET_CODEX_BIN;
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("exits 0 with an OK table: nothing configured is enabled, the loopback probe connects", async () => {
    const { exit, stdout } = startIsolation(["--codex-bin", TEST_CODEX_BIN], { env, cwd });
    const code = await exit;
    expect(code, stdout.text).toBe(0);
    expect(stdout.text).toContain("OK:");
    expect(stdout.text).toMatch(/user_stdio +stdio, on +ok {2}off · \S+ +ok {2}off · \S+/);
    expect(stdout.text).toMatch(/"user\.http"|user\.http/);
    expect(stdout.text).toMatch(
      new RegExp(`rennet-isolation-probe +- +- +ok {2}on · ${CONNECTED_CELL} \\(requested\\)`),
    );
    await expect(readFile(join(markers, "user_stdio.pid"), "utf8")).rejects.toThrow();
  });

  it("--json: the report is ok", async () => {
    const { exit, stdout } = startIsolation(["--json", "--codex-bin", TEST_CODEX_BIN], { env, cwd });
    expect(await exit, stdout.text).toBe(0);
    const report = JSON.parse(stdout.text) as McpIsolationReport;
    expect(report.ok).toBe(true);
    // the executable that ran: npm's launcher is skipped for the native binary behind it
    expect(report.codex).toBe((await npmNativeLaunchBehind(TEST_CODEX_BIN))?.command ?? TEST_CODEX_BIN);
    expect(report.inventory.map((entry) => entry.name).sort()).toEqual(["user.http", "user_stdio"]);
    expect(report.runs.every((run) => run.ok && run.overrideLayerSeen && run.error === null)).toBe(true);
  });
});
