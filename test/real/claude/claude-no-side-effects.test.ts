/**
 * Rennet's own process never touches Claude Code's files in the user's HOME during a real turn: nothing under
 * `~/.claude/` (settings, projects, the credential file `.credentials.json`) and not `~/.claude.json`, which
 * Claude itself writes. Only Rennet's process is observed (the fs-access logger), not the claude it starts.
 */
import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { TEST_CLAUDE_BIN } from "../../helpers/claude-bin.js";
import { runLoggedTurn } from "../../helpers/logged-turn.js";
import { ClaudeSetups, claudeUnderTest, type ClaudeSetup } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
afterEach(() => setups.dispose());

/** The paths of Claude's own files in `home`: `~/.claude/…` and `~/.claude.json` (and its backups). */
function claudeOwnPaths(paths: string[], home: string): string[] {
  const dir = path.join(home, ".claude");
  return paths.filter(
    (p) => p === dir || p.startsWith(`${dir}${path.sep}`) || path.basename(p).startsWith(".claude.json"),
  );
}

async function loggedTurn(s: ClaudeSetup, touchCredentials: boolean) {
  await mkdir(path.join(s.home.dir, ".claude"), { recursive: true });
  await writeFile(path.join(s.home.dir, ".claude", ".credentials.json"), '{"note":"not a credential"}\n');
  return runLoggedTurn({
    harness: "claude",
    bin: TEST_CLAUDE_BIN,
    cwd: s.cwd,
    env: s.home.env(),
    touchCredentials,
  });
}

describe("real claude: Rennet's own process never touches Claude's files in HOME", () => {
  it("a full turn: nothing under ~/.claude, no ~/.claude.json (the logger does see Rennet's own files)", async () => {
    const s = await setups.create(scenarios.text("ok"));
    const { outcome, paths, stateDir } = await loggedTurn(s, false);
    expect(outcome).toBe("completed");
    expect(claudeOwnPaths(paths, s.home.dir)).toEqual([]);
    expect(paths.some((p) => p.startsWith(path.join(stateDir, "spawned")))).toBe(true);
    expect(paths.some((p) => /^\/proc\/\d+\/stat$/.test(p))).toBe(process.platform === "linux");
  });

  it("control: code in Rennet's process that reads ~/.claude/.credentials.json is caught", async () => {
    const s = await setups.create(scenarios.text("ok"));
    const { outcome, paths } = await loggedTurn(s, true);
    expect(outcome).toBe("completed");
    expect(claudeOwnPaths(paths, s.home.dir)).toEqual([
      path.join(s.home.dir, ".claude", ".credentials.json"),
    ]);
  });
});
