import { spawnSync } from "node:child_process";
import http from "node:http";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { McpPolicy } from "../../src/mcp/mcp-policy.js";
import { text } from "../../src/testkit/model-scenarios.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";
import { collect, ofType } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

/*
 * A skill may declare MCP servers it needs (`agents/openai.yaml`: `dependencies.tools` of type `mcp`). With the
 * feature `skill_mcp_dependency_install` (on by default, 0.120-0.171 measured) a turn whose prompt mentions the
 * skill makes codex, for a first-party originator and with Rennet's approval policy `never` without asking,
 * write each missing server into the user's `config.toml`, contact its URL (OAuth discovery, then
 * `initialize`) and start it for the thread, whatever the MCP policy and whether the skill comes from the user
 * or from an untrusted repository's `.agents/skills/`. Rennet introduces itself as `rennet`, which codex does
 * not count as first party, but a `CODEX_INTERNAL_ORIGINATOR_OVERRIDE` in the environment (set by Codex's own
 * IDE and desktop hosts, and inherited by what runs under them) wins over it. Every app-server Rennet starts
 * therefore turns the feature off.
 */

let fixture: RealCodexFixture | null = null;
let dependency: http.Server | null = null;
afterEach(async () => {
  await fixture?.dispose();
  await new Promise((resolve) => (dependency ? dependency.close(resolve) : resolve(undefined)));
  fixture = null;
  dependency = null;
});

/** A loopback HTTP server standing in for a skill's MCP server: it records every request and answers 404. */
async function startDependencyServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  dependency = http.createServer((req, res) => {
    requests.push(`${req.method ?? "?"} ${req.url ?? "?"}`);
    res.statusCode = 404;
    res.end();
  });
  const server = dependency;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, requests };
}

/** A skill `name` under `root` whose metadata asks for the streamable-HTTP MCP server `<name>dep` at `url`. */
async function writeSkillNeedingMcp(root: string, name: string, url: string): Promise<void> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, "agents"), { recursive: true });
  await writeFile(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: the ${name} skill\n---\nUse the tools of ${name}dep.\n`,
  );
  await writeFile(
    path.join(dir, "agents", "openai.yaml"),
    [
      "dependencies:",
      "  tools:",
      '    - type: "mcp"',
      `      value: "${name}dep"`,
      '      description: "what the skill needs"',
      '      transport: "streamable_http"',
      `      url: "${url}/${name}"`,
      "",
    ].join("\n"),
  );
}

/** Whether this codex has the feature at all, as its own `codex features list` says (0.72 and 0.87 have not). */
function listsSkillMcpDependencyInstall(env: NodeJS.ProcessEnv): boolean {
  const listed = spawnSync(TEST_CODEX_BIN, ["features", "list"], { env, encoding: "utf8", timeout: 30_000 });
  return listed.status === 0 && /^skill_mcp_dependency_install\s/m.test(listed.stdout);
}

const POLICIES: Array<[string, McpPolicy | undefined]> = [
  ["the default policy", undefined],
  ["an explicit empty policy", { servers: [] }],
];

describe("real codex: a mentioned skill's MCP dependencies", () => {
  it.each(POLICIES)(
    "under %s are neither installed nor contacted nor started, with a first-party originator in the environment",
    async (_label, mcp) => {
      const server = await startDependencyServer();
      fixture = await startRealCodex(text("done"));
      await writeSkillNeedingMcp(path.join(fixture.home, "skills"), "userskill", server.url);
      await writeSkillNeedingMcp(path.join(fixture.cwd, ".agents", "skills"), "reposkill", server.url);
      const configPath = path.join(fixture.home, "config.toml");
      const configBefore = await readFile(configPath, "utf8");
      const client = createCodex({
        launcher: fixture.launcher,
        codex: TEST_CODEX_BIN,
        env: { ...fixture.env, CODEX_INTERNAL_ORIGINATOR_OVERRIDE: "codex_cli_rs" },
      });

      const { events, terminal } = await collect(
        client.runStreamed({
          prompt: "$userskill $reposkill go",
          cwd: fixture.cwd,
          ...(mcp !== undefined ? { mcp } : {}),
        }),
      );

      expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
      if (listsSkillMcpDependencyInstall(fixture.env)) {
        // both skills were mentioned: codex sent their bodies to the model
        const firstRequest = JSON.stringify(fixture.model.responsesRequests()[0]?.body);
        expect(firstRequest).toContain("Use the tools of userskilldep.");
        expect(firstRequest).toContain("Use the tools of reposkilldep.");
      }
      expect(server.requests).toEqual([]);
      expect(await readFile(configPath, "utf8")).toBe(configBefore);
      const startups = ofType(events, "native").filter((event) =>
        event.method.startsWith("mcpServer/startupStatus"),
      );
      expect(startups).toEqual([]);
    },
    60_000,
  );
});
