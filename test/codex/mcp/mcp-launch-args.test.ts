import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseMcpInventory, type McpInventoryEntry } from "../../../src/codex/mcp/mcp-inventory-parse.js";
import {
  buildMcpLaunchArgs as buildArgs,
  buildMcpThreadConfig as buildThreadConfig,
} from "../../../src/codex/mcp/mcp-launch-args.js";
import { parseExplicitMcpPolicy, type McpServerSpec } from "../../../src/mcp/mcp-policy.js";

// the builders take a policy parsed at the edge: each call here parses the literal first
type Policy = { servers: McpServerSpec[] };
const buildMcpLaunchArgs = (policy: Policy, inventory: readonly McpInventoryEntry[]) =>
  buildArgs(parseExplicitMcpPolicy(policy), inventory);
const buildMcpServersTable = (policy: Policy, inventory: readonly McpInventoryEntry[]) =>
  buildTable(parseExplicitMcpPolicy(policy), inventory);
const buildMcpThreadConfig = (policy: Policy, inventory: readonly McpInventoryEntry[]) =>
  buildThreadConfig(parseExplicitMcpPolicy(policy), inventory);
import { McpPolicyError } from "../../../src/mcp/mcp-policy-error.js";
import {
  buildMcpServersTable as buildTable,
  placeholderFor,
  renderTomlInline,
} from "../../../src/internal/test-hooks.js";
import { thrownBy } from "../../helpers/thrown.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/mcp");
const inventoryFixture = (name: string): McpInventoryEntry[] =>
  parseMcpInventory(readFileSync(path.join(FIXTURES, name), "utf8"));

const stdio: McpInventoryEntry = {
  name: "files",
  enabled: true,
  disabledReason: null,
  transport: { type: "stdio", command: "npx" },
};
const http: McpInventoryEntry = {
  name: "remote",
  enabled: true,
  disabledReason: null,
  transport: { type: "streamable_http", url: "https://mcp.example.com/x" },
};
const off: McpInventoryEntry = {
  name: "old",
  enabled: false,
  disabledReason: null,
  transport: { type: "stdio", command: "/opt/old" },
};

/** Splits the argv and parses the `mcp_servers=` value back, as codex would. */
function overrideOf(args: string[]): Record<string, Record<string, unknown>> {
  expect(args.slice(0, 3)).toEqual(["-c", "features.plugins=false", "-c"]);
  expect(args).toHaveLength(4);
  const value = args[3] ?? "";
  expect(value.startsWith("mcp_servers=")).toBe(true);
  return parse(`x = ${value.slice("mcp_servers=".length)}`).x as Record<string, Record<string, unknown>>;
}

describe("placeholderFor", () => {
  it("repeats the entry's own transport field and never writes a type key", () => {
    expect(renderTomlInline(placeholderFor(stdio))).toBe('{ enabled = false, command = "npx" }');
    expect(renderTomlInline(placeholderFor(http))).toBe(
      '{ enabled = false, url = "https://mcp.example.com/x" }',
    );
    expect(renderTomlInline(placeholderFor(off))).toBe('{ enabled = false, command = "/opt/old" }');
  });
});

describe("buildMcpLaunchArgs", () => {
  it("empty policy: a disabling placeholder per configured server, plugins off", () => {
    const args = buildMcpLaunchArgs({ servers: [] }, [stdio, http, off]);
    expect(overrideOf(args)).toEqual({
      files: { enabled: false, command: "npx" },
      remote: { enabled: false, url: "https://mcp.example.com/x" },
      old: { enabled: false, command: "/opt/old" },
    });
    expect(args[3]).not.toMatch(/\btype\b/);
  });

  it("empty policy and nothing configured: an empty table, plugins still off", () => {
    expect(buildMcpLaunchArgs({ servers: [] }, [])).toEqual([
      "-c",
      "features.plugins=false",
      "-c",
      "mcp_servers={}",
    ]);
  });

  it("loopback policy: the requested server in codex's field names, then the placeholders", () => {
    const args = buildMcpLaunchArgs(
      {
        servers: [
          {
            name: "tools",
            url: "http://127.0.0.1:8123/mcp",
            bearerTokenEnvVar: "TOOLS_TOKEN",
            httpHeaders: { "X-Trace": 'say "hi" \\ ü', "X-Empty": "" },
            startupTimeoutSec: 5,
            toolTimeoutSec: 1.5,
          },
        ],
      },
      [stdio],
    );
    const table = overrideOf(args);
    expect(Object.keys(table)).toEqual(["tools", "files"]);
    expect(table.tools).toEqual({
      enabled: true,
      url: "http://127.0.0.1:8123/mcp",
      bearer_token_env_var: "TOOLS_TOKEN",
      http_headers: { "X-Trace": 'say "hi" \\ ü', "X-Empty": "" },
      startup_timeout_sec: 5,
      tool_timeout_sec: 1.5,
    });
    expect(table.files).toEqual({ enabled: false, command: "npx" });
  });

  it("placeholders for codex's real inventory, hostile names included, read back exactly", () => {
    const inventory = inventoryFixture("mcp-list-hostile-names-0.171.0.json");
    const table = overrideOf(
      buildMcpLaunchArgs({ servers: [{ name: "probe", url: "http://[::1]:9/mcp" }] }, inventory),
    );
    expect(Object.keys(table).sort()).toEqual(["probe", ...inventory.map((entry) => entry.name)].sort());
    for (const entry of inventory) {
      const expected =
        entry.transport.type === "stdio"
          ? { enabled: false, command: entry.transport.command }
          : { enabled: false, url: entry.transport.url };
      expect(table[entry.name]).toEqual(expected);
    }
  });

  it("refuses a requested name that is already configured, even a disabled one", () => {
    for (const entry of [stdio, http, off]) {
      const error = thrownBy(() =>
        buildMcpServersTable({ servers: [{ name: entry.name, url: "http://127.0.0.1:1/" }] }, [
          stdio,
          http,
          off,
        ]),
      );
      expect(error).toBeInstanceOf(McpPolicyError);
      expect((error as McpPolicyError).code).toBe("MCP_NAME_COLLISION");
      expect((error as Error).message).toContain(`"${entry.name}"`);
    }
  });

  it("validates the policy itself (no launch args for a remote server)", () => {
    expect(() => buildMcpLaunchArgs({ servers: [{ name: "x", url: "http://192.168.1.2/" }] }, [])).toThrow(
      expect.objectContaining({ code: "MCP_URL_NOT_LOOPBACK" }),
    );
  });
});

describe("buildMcpThreadConfig", () => {
  it("is the launch override's table as JSON, in the same order", () => {
    const policy = { servers: [{ name: "probe", url: "http://127.0.0.1:4000/mcp", startupTimeoutSec: 20 }] };
    const config = buildMcpThreadConfig(policy, [stdio, http, off]);
    expect(JSON.stringify(config)).toBe(
      JSON.stringify({
        mcp_servers: {
          probe: { enabled: true, url: "http://127.0.0.1:4000/mcp", startup_timeout_sec: 20 },
          files: { enabled: false, command: "npx" },
          remote: { enabled: false, url: "https://mcp.example.com/x" },
          old: { enabled: false, command: "/opt/old" },
        },
      }),
    );
    const args = buildMcpLaunchArgs(policy, [stdio, http, off]);
    expect(overrideOf(args)).toEqual(JSON.parse(JSON.stringify(config.mcp_servers)));
  });

  it("refuses a name collision like the launch arguments", () => {
    expect(() =>
      buildMcpThreadConfig({ servers: [{ name: "files", url: "http://127.0.0.1:1/" }] }, [stdio]),
    ).toThrow(McpPolicyError);
  });
});
