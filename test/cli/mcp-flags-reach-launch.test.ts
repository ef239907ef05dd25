import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SERVER_BASE_ARGS } from "../helpers/app-server-args.js";
import type { TerminalEvent } from "../../src/harness/events.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { runCli } from "./helpers/cli-harness.js";

/*
 * `--mcp-server` / `--mcp-none` must reach the launch of `codex run`: the policy is resolved before the
 * app-server starts (`codex mcp list --json` with the same codex), and the app-server gets
 * `-c features.plugins=false -c mcp_servers=<table>` after the base arguments every app-server gets. The listing runs the stand-in codex below; the app-server is
 * the in-memory fake.
 */

let dir: string;
let listingCodex: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rennet-mcp-flags-launch-"));
  listingCodex = join(dir, "listing-codex");
  await writeFile(
    listingCodex,
    '#!/bin/sh\nif [ "$1" = mcp ]; then printf \'%s\\n\' "$RENNET_TEST_INVENTORY"; exit 0; fi\necho "unexpected: $*" >&2\nexit 2\n',
  );
  await chmod(listingCodex, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const USER_SERVERS = [
  { name: "user_stdio", enabled: true, transport: { type: "stdio", command: "user-mcp" } },
  {
    name: "user.http",
    enabled: false,
    transport: { type: "streamable_http", url: "https://mcp.example.com/mcp" },
  },
];

function run(flags: string[], inventory: unknown = USER_SERVERS) {
  return runCli(["codex", "run", "--json", "--codex-bin", listingCodex, ...flags, "hi"], {
    env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: JSON.stringify(inventory) },
    script: { turn: fakeSteps.textTurn("ok") },
  });
}

describe("rennet codex run: the MCP flags reach the app-server launch", () => {
  it("without a flag the launch has only the base arguments (inherit: nothing is listed)", async () => {
    const { code, fake } = await run([], "this would be a shape failure if it were read");
    expect(code).toBe(0);
    expect(fake.launches[0]?.spec.args).toEqual(["app-server", ...APP_SERVER_BASE_ARGS]);
  });

  it("--mcp-none disables every configured server and plugins", async () => {
    const { code, fake } = await run(["--mcp-none"]);
    expect(code).toBe(0);
    expect(fake.launches[0]?.spec.args).toEqual([
      "app-server",
      ...APP_SERVER_BASE_ARGS,
      "-c",
      "features.plugins=false",
      "-c",
      'mcp_servers={ user_stdio = { enabled = false, command = "user-mcp" }, "user.http" = { enabled = false, url = "https://mcp.example.com/mcp" } }',
    ]);
  });

  it("--mcp-server adds exactly the requested servers, before the placeholders", async () => {
    const { code, fake } = await run([
      "--mcp-server",
      "tools=http://127.0.0.1:8123/mcp",
      "--mcp-server",
      "more tools=http://localhost:9/x?a=b",
    ]);
    expect(code).toBe(0);
    const table = fake.launches[0]?.spec.args.at(-1) ?? "";
    expect(fake.launches[0]?.spec.args.slice(0, 6)).toEqual([
      "app-server",
      ...APP_SERVER_BASE_ARGS,
      "-c",
      "features.plugins=false",
      "-c",
    ]);
    expect(table).toBe(
      "mcp_servers={ " +
        'tools = { enabled = true, url = "http://127.0.0.1:8123/mcp" }, ' +
        '"more tools" = { enabled = true, url = "http://localhost:9/x?a=b" }, ' +
        'user_stdio = { enabled = false, command = "user-mcp" }, ' +
        '"user.http" = { enabled = false, url = "https://mcp.example.com/mcp" } }',
    );
  });

  it("a requested name that is already configured fails the turn (exit 1) before codex starts", async () => {
    const { code, fake, events } = await run(["--mcp-server", "user_stdio=http://127.0.0.1:8123/mcp"]);
    expect(code).toBe(1);
    expect(fake.launches).toHaveLength(0);
    const terminal = events().at(-1) as TerminalEvent;
    expect(terminal.type).toBe("terminal");
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure?.message).toMatch(/user_stdio/);
    expect(JSON.stringify(terminal.failure)).toContain("MCP_NAME_COLLISION");
  });

  it("an inventory codex cannot list fails the turn (exit 1) before codex starts, in human mode too", async () => {
    const { code, fake, stderr, stdout } = await runCli(
      ["codex", "run", "--codex-bin", listingCodex, "--mcp-none", "hi"],
      {
        env: { PATH: process.env.PATH, RENNET_TEST_INVENTORY: '{"not":"an array"}' },
        script: { turn: fakeSteps.textTurn("ok") },
      },
    );
    expect(code).toBe(1);
    expect(fake.launches).toHaveLength(0);
    expect(stdout.text).toBe("");
    expect(stderr.text).toMatch(/MCP_INVENTORY_SHAPE|an array/);
  });
});
