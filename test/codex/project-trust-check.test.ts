import { mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explicitCodex } from "../../src/codex/launch/codex-launch.js";
import { formatProjectTrustReport } from "../../src/codex/trust/format-project-trust.js";
import { checkProjectTrust, type ProjectTrustReport } from "../../src/codex/trust/project-trust-check.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

const userAgent = (version: string) => ({ result: { userAgent: `codex_cli_rs/${version} (fake)` } });

let root = "";
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-trust-check-")));
  await mkdir(path.join(root, "repo", ".codex"), { recursive: true });
  await writeFile(path.join(root, "repo", ".codex", "config.toml"), "");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function check(version: string, projects: unknown = {}, trustProject?: boolean, approvals?: boolean) {
  const fake = new InMemoryAppServer({
    replies: { initialize: userAgent(version), "config/read": { result: { config: { projects } } } },
  });
  const report = await checkProjectTrust({
    codex: explicitCodex("/opt/codex"),
    cwd: path.join(root, "repo"),
    env: { CODEX_HOME: path.join(root, "home") },
    launcher: fake.launcher,
    ...(trustProject !== undefined ? { trustProject } : {}),
    ...(approvals !== undefined ? { approvals } : {}),
  });
  return { fake, report };
}

describe("checkProjectTrust", () => {
  it("rejects before starting codex in a directory whose .codex/config.toml is not a regular file", async () => {
    const file = path.join(root, "repo", ".codex", "config.toml");
    await unlink(file);
    await symlink("/dev/zero", file);
    const fake = new InMemoryAppServer({ replies: { initialize: userAgent("0.120.0") } });
    await expect(
      checkProjectTrust({
        codex: explicitCodex("/opt/codex"),
        cwd: path.join(root, "repo"),
        env: { CODEX_HOME: path.join(root, "home") },
        launcher: fake.launcher,
      }),
    ).rejects.toMatchObject({ code: "PROJECT_CONFIG_NOT_A_FILE", details: { files: [file] } });
    expect(fake.launches).toHaveLength(0);
  });

  it("asks codex for the user's entry in the directory, with no thread, and stops it", async () => {
    const repo = path.join(root, "repo");
    const { fake, report } = await check("0.171.0", { [repo]: { trust_level: "trusted" } });
    expect(report).toEqual({
      cwd: repo,
      codexVersion: "0.171.0",
      trust: { level: "trusted", source: "user-config", path: repo },
      projectLayer: "loaded",
      refusedFiles: [],
      trustedLayerRestricted: true,
      agentsMdNeedsTrust: true,
    });
    expect(fake.peer.requestsOf("config/read")[0]?.params).toMatchObject({ cwd: repo });
    expect(fake.peer.requestsOf("thread/start")).toEqual([]);
    expect(fake.launches[0]?.spec.cwd).toBe(repo);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each<[string, Partial<ProjectTrustReport>]>([
    ["0.72.0", { projectLayer: "not-read", refusedFiles: [], agentsMdNeedsTrust: false }],
    ["0.80.0", { projectLayer: "refused", refusedFiles: [] /* filled below */ }],
    ["0.89.0", { projectLayer: "kept-out", refusedFiles: [], trustedLayerRestricted: false }],
    ["0.171.0", { projectLayer: "kept-out", refusedFiles: [], trustedLayerRestricted: true }],
  ])("codex %s, untrusted by default", async (version, expected) => {
    const { report } = await check(version);
    expect(report.trust).toEqual({ level: "untrusted", source: "default" });
    if (version === "0.80.0") expected.refusedFiles = [path.join(root, "repo", ".codex", "config.toml")];
    expect(report).toMatchObject(expected);
  });

  it("shows what trustProject would decide", async () => {
    const { report } = await check("0.80.0", {}, true);
    expect(report).toMatchObject({ trust: { level: "trusted", source: "call" }, projectLayer: "loaded" });
    const { fake, report: off } = await check("0.171.0", {}, false);
    expect(off).toMatchObject({ trust: { level: "untrusted", source: "call" }, projectLayer: "kept-out" });
    expect(fake.peer.requestsOf("config/read")).toEqual([]);
  });
});

describe("checkProjectTrust with approvals", () => {
  it("shows that an untrusted turn with approvals is refused where codex 0.80-0.121 would apply .codex/rules", async () => {
    await unlink(path.join(root, "repo", ".codex", "config.toml"));
    await mkdir(path.join(root, "repo", ".codex", "rules"));
    const rules = path.join(root, "repo", ".codex", "rules");
    const { report } = await check("0.100.0", {}, undefined, true);
    expect(report).toMatchObject({ projectLayer: "refused", refusedFiles: [rules] });
    expect(formatProjectTrustReport(report, { color: false })).toContain(
      "applies a repository's .codex/rules to a turn with approvals whatever its trust",
    );
    const { report: plain } = await check("0.100.0");
    expect(plain).toMatchObject({ projectLayer: "kept-out", refusedFiles: [] });
    const { report: newer } = await check("0.122.0", {}, undefined, true);
    expect(newer).toMatchObject({ projectLayer: "kept-out", refusedFiles: [] });
  });
});

describe("formatProjectTrustReport", () => {
  const base: ProjectTrustReport = {
    cwd: "/src/app",
    codexVersion: "0.125.0",
    trust: { level: "untrusted", source: "default" },
    projectLayer: "kept-out",
    refusedFiles: [],
    trustedLayerRestricted: false,
    agentsMdNeedsTrust: false,
  };
  const format = (report: Partial<ProjectTrustReport>) =>
    formatProjectTrustReport({ ...base, ...report }, { color: false });

  it("untrusted: the layer is not loaded, how to opt in, and what still reaches the model", () => {
    const text = format({});
    expect(text).toMatch(/^Project trust: untrusted {2}\/src\/app\n/);
    expect(text).toContain("is not loaded");
    expect(text).toContain("--trust-project (trustProject: true) trusts it for one call");
    expect(text).toContain("codex 0.125.0 still sends the repository's AGENTS.md to the model");
    expect(format({ agentsMdNeedsTrust: true })).not.toContain("AGENTS.md");
  });

  it("prints the repository's paths escaped: a directory name cannot drive the terminal", () => {
    const evil = "/src/evil\x1b]0;title\x07\u202edir";
    const text = format({
      cwd: evil,
      trust: { level: "trusted", source: "user-config", path: evil },
      projectLayer: "refused",
      refusedFiles: [`${evil}/.codex/config.toml`],
    });
    for (const raw of ["\x1b", "\x07", "\u202e"]) expect(text).not.toContain(raw);
    expect(text).toContain("Project trust: trusted  /src/evil\\u001b]0;title\\u0007\\u202edir\n");
    expect(text).toContain('[projects."/src/evil\\u001b]0;title\\u0007\\u202edir"]');
    expect(text).toContain("found /src/evil\\u001b]0;title\\u0007\\u202edir/.codex/config.toml");
  });

  it("refused: the files and the fix", () => {
    const text = format({
      codexVersion: "0.80.0",
      projectLayer: "refused",
      refusedFiles: ["/src/app/.codex/config.toml"],
    });
    expect(text).toContain(
      "refused: codex 0.80.0 loads a repository's .codex/config.toml whatever its trust",
    );
    expect(text).toContain("found /src/app/.codex/config.toml");
    expect(text).toContain("fix     upgrade Codex");
  });

  it("trusted: loaded, and where trust also hands over the provider, notify and hooks, a note", () => {
    const trusted = { trust: { level: "trusted", source: "call" }, projectLayer: "loaded" } as const;
    expect(format(trusted)).toContain("can also choose your model provider");
    expect(format({ ...trusted, trustedLayerRestricted: true })).not.toContain("model provider");
  });
});
