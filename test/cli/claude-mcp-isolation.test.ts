import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClaudeMcpIsolationReport } from "../../src/claude/mcp/mcp-isolation.js";
import { ISOLATION_PROBE_SERVER, judgePolicy } from "../../src/internal/test-hooks.js";
import { runClaudeCli } from "./helpers/claude-cli-harness.js";

/** What a terminal acts on: none may reach stdout or stderr raw. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

const INIT = { initialize: { response: { commands: [], claude_code_version: "2.1.332" } } };

const server = (name: string, status: string, scope: string) => ({
  name,
  status,
  scope,
  transport: "stdio",
  config: { type: "stdio", command: "secret-bearing-command", env: { TOKEN: "s3cret" } },
});

describe("rennet claude mcp-isolation (fake claude)", () => {
  it("a server Claude Code lists under the empty policy breaks isolation: exit 1, named with its scope", async () => {
    const { code, stdout, fake } = await runClaudeCli(["claude", "mcp-isolation"], {
      script: {
        controlReplies: {
          ...INIT,
          mcp_status: { response: { mcpServers: [server("usersrv", "connected", "user")] } },
        },
      },
    });
    expect(code).toBe(1);
    expect(stdout.text).toContain("usersrv (user scope) is in the turn's MCP servers");
    expect(stdout.text).toContain("MCP isolation is broken");
    // the server's configuration (which may hold secrets) is never printed
    expect(stdout.text).not.toContain("s3cret");
    expect(fake.launches).toHaveLength(2);
    // no prompt is ever written: no model request
    for (const launch of fake.launches) {
      expect(launch.peer.linesOf("user")).toEqual([]);
      expect(launch.spec.args).toContain("--strict-mcp-config");
      expect(launch.spec.args).toContain("--permission-mode=default");
    }
    expect(fake.launches[0]!.spec.args).toContain('--mcp-config={"mcpServers":{}}');
    expect(fake.launches[1]!.spec.args.join(" ")).toContain(`"${ISOLATION_PROBE_SERVER}":{"type":"http"`);
  });

  it("--json prints the report; a probe Claude calls connected but never reached is still a failure", async () => {
    const { code, stdout } = await runClaudeCli(["claude", "mcp-isolation", "--json"], {
      script: {
        controlReplies: {
          ...INIT,
          mcp_status: { response: { mcpServers: [server(ISOLATION_PROBE_SERVER, "connected", "dynamic")] } },
        },
      },
    });
    expect(code).toBe(1);
    const report = JSON.parse(stdout.text) as ClaudeMcpIsolationReport;
    expect(report.version).toBe("2.1.332");
    expect(report.runs.map((run) => run.policy)).toEqual(["empty", "loopback"]);
    expect(report.runs[1]!.problems).toEqual(["the loopback MCP server saw no connection from claude"]);
    expect(stdout.text).not.toContain("s3cret");
  });

  it("a Claude Code that does not answer mcp_status cannot prove it: exit 3", async () => {
    const { code, stderr } = await runClaudeCli(["claude", "mcp-isolation"], {
      script: { controlReplies: INIT },
    });
    expect(code).toBe(3);
    expect(stderr.text).toContain("does not report its MCP servers");
  });

  it("a claude that exits before answering: exit 3 with its stderr", async () => {
    const { code, stderr } = await runClaudeCli(["claude", "mcp-isolation"], {
      script: { startup: [{ stderr: "boom: cannot start\n" }, { exit: { code: 1 } }] },
    });
    expect(code).toBe(3);
    expect(stderr.text).toContain("boom: cannot start");
  });

  it("what claude says (its stderr, version, a server's status) reaches neither stream raw: no escape sequence", async () => {
    const osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07";
    const exited = await runClaudeCli(["claude", "mcp-isolation"], {
      script: { startup: [{ stderr: `boom ${osc52}\u009b2J\u202e\n` }, { exit: { code: 1 } }] },
    });
    expect(exited.code).toBe(3);
    expect(exited.stderr.text).toContain("boom \\u001b]52;c;cm0gLXJmIH4=\\u0007");
    const listed = await runClaudeCli(["claude", "mcp-isolation"], {
      script: {
        controlReplies: {
          initialize: { response: { commands: [], claude_code_version: "2.1.332\x1b]0;owned\x07" } },
          mcp_status: { response: { mcpServers: [server("usersrv", "connected\x1b[8m", "user")] } },
        },
      },
    });
    expect(listed.code).toBe(1);
    expect(listed.stdout.text).toContain("2.1.332\\u001b]0;owned\\u0007");
    expect(listed.stdout.text).toContain("connected\\u001b[8m");
    for (const text of [exited.stdout.text, exited.stderr.text, listed.stdout.text, listed.stderr.text])
      expect(text).not.toMatch(RAW_CONTROL);
  });
});

describe("rennet claude mcp-isolation --json on a terminal", () => {
  it("writes the same report with C1 controls and bidi overrides from claude as JSON escapes", async () => {
    const name = "srv\u009b2J\u202eevil";
    const { code, stdout } = await runClaudeCli(["claude", "mcp-isolation", "--json"], {
      isTTY: { stdout: true },
      script: {
        controlReplies: {
          ...INIT,
          mcp_status: { response: { mcpServers: [server(name, "connected", "user")] } },
        },
      },
    });
    expect(code).toBe(1);
    expect(stdout.text).toContain('"name":"srv\\u009b2J\\u202eevil"');
    expect(stdout.text).not.toMatch(RAW_CONTROL);
    const report = JSON.parse(stdout.text) as ClaudeMcpIsolationReport;
    expect(report.runs[0]!.servers[0]!.name).toBe(name);
  });
});

describe("judgePolicy", () => {
  const probe = {
    name: ISOLATION_PROBE_SERVER,
    status: "connected",
    scope: "dynamic",
    transport: "http",
    error: null,
  };
  it("holds for no server under the empty policy and for the connected, reached probe alone", () => {
    expect(judgePolicy("empty", [], 0)).toEqual([]);
    expect(judgePolicy("loopback", [probe], 1)).toEqual([]);
  });
  it("names every other server, a missing or failed probe, and one never reached", () => {
    expect(judgePolicy("empty", [probe], 0)).toHaveLength(1);
    expect(judgePolicy("loopback", [], 0)).toEqual([
      `the requested server ${ISOLATION_PROBE_SERVER} is not in the turn's MCP servers`,
      "the loopback MCP server saw no connection from claude",
    ]);
    expect(judgePolicy("loopback", [{ ...probe, status: "failed", error: "ECONNREFUSED" }], 1)).toEqual([
      `the requested server ${ISOLATION_PROBE_SERVER} is failed: ECONNREFUSED`,
    ]);
  });

  it("a --cwd that is no directory is a usage error (exit 2, as for `run`) and starts no claude", async () => {
    const missing = path.join(os.tmpdir(), "rennet-no-such-dir", "repo");
    const { code, stdout, stderr, fake } = await runClaudeCli(["claude", "mcp-isolation", "--cwd", missing]);
    expect(code).toBe(2);
    expect(stdout.text).toBe("");
    expect(stderr.text).toBe(
      `error: --cwd ${missing}: no such directory; create it or pass an existing one (${missing})\n` +
        "(see `rennet claude mcp-isolation --help`)\n",
    );
    expect(fake.launches).toEqual([]);
  });
});
