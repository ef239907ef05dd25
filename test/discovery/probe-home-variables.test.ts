/**
 * Discovery's probes start in the repository. codex and claude resolve a relative CODEX_HOME / CLAUDE_CONFIG_DIR
 * against their working directory (codex 0.171.0's `--version` resolves CODEX_HOME there and creates helper
 * binaries under it), so each probe gets it resolved against the process's current directory instead.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverClaude } from "../../src/claude/discovery/discover-claude.js";
import { discoverCodex } from "../../src/codex/discovery/discover.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";

const sb = sandboxPerTest();

/** A fake `name` that logs the variable it was given, then prints `version`. */
async function fake(name: string, variable: string, version: string): Promise<{ log: string; dir: string }> {
  const dir = await sb().dir("bin");
  const log = path.join(sb().root, "seen.log");
  const script = `#!/bin/sh\necho "$${variable}" >> '${log}'\necho '${version}'\n`;
  await fs.writeFile(path.join(dir, name), script, { mode: 0o755 });
  return { log, dir };
}

describe.skipIf(process.platform === "win32")("probes get a relative home variable absolute", () => {
  it.each([
    ["codex", "CODEX_HOME", "codex-cli 0.171.0", discoverCodex],
    ["claude", "CLAUDE_CONFIG_DIR", "2.1.332 (Claude Code)", discoverClaude],
  ] as const)("%s: %s", async (name, variable, version, discover) => {
    const { log, dir } = await fake(name, variable, version);
    const repo = await sb().dir("repo");
    const env = sb().env({ PATH: dir, [variable]: "rel-home" });
    await discover({ ...sb().options(env), cwd: repo, loginShell: false, cache: "off" });
    const seen = (await fs.readFile(log, "utf8")).split("\n").filter(Boolean);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([path.resolve("rel-home")]));
  });
});
