import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stringify } from "smol-toml";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { isAlive } from "../helpers/processes.js";

/** Shared setup of the real-binary MCP tests: a throw-away CODEX_HOME and repository, and marker servers. */

export const codex = { type: "native", command: TEST_CODEX_BIN } as const;

/** What the codex under test can do. */
export const caps = codexCapabilities(testCodexVersion());

/** Names a TOML writer must carry, configured as real servers in the throw-away home. */
export const HOSTILE_NAMES = ["dot.ted name", 'quo"te\\back', "ünï ✓", "ctl\u0001", "del\u007f", ""];

export interface McpWorld {
  root: string;
  home: string;
  /** A plain directory (no repository): the cwd of the user-level tests. */
  plain: string;
  /** A git repository whose `.codex/config.toml` declares the marker server `repolocal`. */
  repo: string;
  /** Where marker servers write `<name>.pid` if they are ever launched. */
  markers: string;
  env: NodeJS.ProcessEnv;
  configPath: string;
  /** Names of the marker servers that were launched. */
  launchedMarkers(): string[];
  /** Pids recorded by launched marker servers that are still alive. */
  liveMarkerPids(): number[];
  /** The text of the home's config.toml. */
  readConfig(): Promise<string>;
  cleanup(): Promise<void>;
}

/** A stdio server that, if launched, records its pid in `<markers>/<name>.pid` and then waits to be killed. */
export function markerServer(markers: string, name: string): Record<string, unknown> {
  const file = path.join(markers, `${name}.pid`);
  return { command: "sh", args: ["-c", `echo $$ > '${file}'; exec sleep 30`], startup_timeout_sec: 3 };
}

/**
 * A throw-away world: CODEX_HOME with a stdio marker server `stdio1`, an http server `http1` (nothing listens:
 * port 9 on loopback), a disabled stdio marker server `off1`, hostile-named http and stdio servers, and a
 * git repository declaring `repolocal` in its own `.codex/config.toml` (not trusted by the user's config).
 */
export async function createMcpWorld(): Promise<McpWorld> {
  const root = await mkdtemp(path.join(os.tmpdir(), "rennet-mcp-real-"));
  const home = path.join(root, "home");
  const plain = path.join(root, "plain");
  const repo = path.join(root, "repo");
  const markers = path.join(root, "markers");
  for (const dir of [home, plain, path.join(repo, ".codex"), path.join(repo, "sub"), markers])
    await mkdir(dir, { recursive: true });

  const servers: Record<string, Record<string, unknown>> = {
    stdio1: markerServer(markers, "stdio1"),
    http1: {
      url: "http://127.0.0.1:9/mcp",
      bearer_token_env_var: "RENNET_TEST_UNSET_TOKEN",
      startup_timeout_sec: 3,
    },
    off1: { ...markerServer(markers, "off1"), enabled: false },
  };
  HOSTILE_NAMES.forEach((name, index) => {
    servers[name] =
      index % 2 === 0
        ? { url: `http://127.0.0.1:9/h${index}?q="x"&u=é`, startup_timeout_sec: 3 }
        : markerServer(markers, `hostile${index}`);
  });
  const config = {
    model: "mock-model",
    model_provider: "mock",
    model_providers: {
      mock: {
        name: "mock",
        base_url: "http://127.0.0.1:9/v1",
        wire_api: "responses",
        request_max_retries: 0,
        stream_max_retries: 0,
        supports_websockets: false,
      },
    },
    mcp_servers: servers,
  };
  const configPath = path.join(home, "config.toml");
  await writeFile(configPath, stringify(config));

  execFileSync("git", ["init", "-q", repo]);
  await writeFile(
    path.join(repo, ".codex", "config.toml"),
    stringify({ mcp_servers: { repolocal: markerServer(markers, "repolocal") } }),
  );

  const env: NodeJS.ProcessEnv = { ...process.env, CODEX_HOME: home };
  delete env.RENNET_TEST_UNSET_TOKEN;
  const launchedMarkers = () =>
    ["stdio1", "off1", "repolocal", ...HOSTILE_NAMES.map((_n, i) => `hostile${i}`)].filter((name) =>
      existsSync(path.join(markers, `${name}.pid`)),
    );
  return {
    root,
    home,
    plain,
    repo,
    markers,
    env,
    configPath,
    launchedMarkers,
    liveMarkerPids: () =>
      launchedMarkers()
        .map((name) => Number(readFileSync(path.join(markers, `${name}.pid`), "utf8").trim()))
        .filter(isAlive),
    readConfig: () => readFile(configPath, "utf8"),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
