/**
 * Sessions of one Claude Code client share the discovery of their working directory: one session that ends while
 * that discovery runs (cancelled, or at its deadline) leaves it running for the others; the last one to leave
 * stops it.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { collect } from "../helpers/collect.js";
import { tempDir } from "../helpers/temp.js";

const FAKE_CLAUDE = path.join(REPO_ROOT, "dist", "testkit", "fake-claude-bin.js");
/** How long the fake's `--version` (discovery's probe) takes: the window in which a session is cancelled. */
const PROBE_MS = 1_000;

beforeAll(() => {
  if (!existsSync(FAKE_CLAUDE)) throw new Error(`${FAKE_CLAUDE} is missing: run \`npm run build\` first`);
});

/** A client whose only `claude` (on PATH) answers `--version` after {@link PROBE_MS} and runs a text turn. */
async function slowlyFoundClaude(): Promise<{
  client: ReturnType<typeof createClaudeCode>;
  cwd: string;
  /** How many probes ran to their end. */
  probed: () => Promise<number>;
}> {
  const root = await tempDir("claude-shared-discovery");
  const probes = path.join(root, "probes.log");
  const bin = path.join(root, "bin");
  const home = path.join(root, "home");
  await Promise.all([fs.mkdir(bin), fs.mkdir(home)]);
  const script = [
    "#!/bin/sh",
    `case "$1" in --version) /bin/sleep ${PROBE_MS / 1000}; echo probed >> '${probes}'; echo '2.1.332 (Claude Code)';;`,
    `*) exec '${process.execPath}' '${FAKE_CLAUDE}' "$@";; esac`,
    // past npm's placeholder size, as a real binary is
    `# ${"x".repeat(8_192)}`,
    "",
  ].join("\n");
  await fs.writeFile(path.join(bin, "claude"), script, { mode: 0o755 });
  const env = {
    PATH: bin,
    HOME: home,
    IS_SANDBOX: "1",
    RENNET_FAKE_CLAUDE_SCRIPT_JSON: JSON.stringify({ turn: claudeSteps.textTurn("hello") }),
  };
  const probed = () =>
    fs.readFile(probes, "utf8").then(
      (text) => text.split("\n").filter(Boolean).length,
      () => 0,
    );
  return { client: createClaudeCode({ env, reapOrphans: false }), cwd: root, probed };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("a session cancelled during the shared discovery does not fail another session waiting for it", async () => {
  const { client, cwd } = await slowlyFoundClaude();
  const first = client.runStreamed({ prompt: "a", cwd, timeouts: { turnMs: 20_000 } });
  // the first session's discovery is under way (its probe sleeps) when the second one joins it
  await settle(PROBE_MS / 3);
  const second = client.runStreamed({ prompt: "b", cwd, timeouts: { turnMs: 20_000 } });
  await settle(PROBE_MS / 10);
  first.cancel(new Error("only the first"));
  const [a, b] = await Promise.all([collect(first), collect(second)]);
  expect(a.terminal.cancellation).toEqual({ via: "before-turn", reason: "only the first" });
  expect(b.terminal).toMatchObject({ outcome: "completed", finalMessage: "hello", failure: null });
}, 30_000);

it("a session at its deadline during the shared discovery does not fail another one", async () => {
  const { client, cwd } = await slowlyFoundClaude();
  const first = client.runStreamed({ prompt: "a", cwd, timeouts: { turnMs: PROBE_MS / 2 } });
  await settle(PROBE_MS / 4);
  const second = client.runStreamed({ prompt: "b", cwd, timeouts: { turnMs: 20_000 } });
  const [a, b] = await Promise.all([collect(first), collect(second)]);
  expect(a.terminal.failure).toMatchObject({ source: "turn", timeout: { step: "turn" } });
  expect(b.terminal).toMatchObject({ outcome: "completed", finalMessage: "hello", failure: null });
}, 30_000);

it("the last session to leave stops the discovery; the next session starts another", async () => {
  const { client, cwd, probed } = await slowlyFoundClaude();
  const first = client.runStreamed({ prompt: "a", cwd, timeouts: { turnMs: 20_000 } });
  await settle(PROBE_MS / 3);
  const second = client.runStreamed({ prompt: "b", cwd, timeouts: { turnMs: 20_000 } });
  await settle(PROBE_MS / 10);
  first.cancel("a");
  second.cancel("b");
  const [a, b] = await Promise.all([collect(first), collect(second)]);
  expect([a.terminal.cancellation, b.terminal.cancellation]).toEqual([
    { via: "before-turn", reason: "a" },
    { via: "before-turn", reason: "b" },
  ]);
  // the probe was killed in its sleep
  await settle(PROBE_MS);
  expect(await probed()).toBe(0);
  const third = await collect(client.runStreamed({ prompt: "c", cwd, timeouts: { turnMs: 20_000 } }));
  expect(third.terminal).toMatchObject({ outcome: "completed", finalMessage: "hello" });
}, 30_000);
