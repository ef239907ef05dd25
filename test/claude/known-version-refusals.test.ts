/**
 * A Claude Code whose version is known before the spawn (a `cli.js` states it in its `// Version:` header; discovery
 * reads `--version`) is refused a call it cannot do before it is started: `CLAUDE_UNSUPPORTED_VERSION`, naming the
 * version, the first release that can, and the fix. Nothing is run (the fake logs every run).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ClaudeEffort } from "../../src/claude/client/claude-call-options.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { TurnFailedError } from "../../src/harness/errors.js";
import { fakeRuns, writeFakeClaude } from "./discovery/fake-claude-files.js";
import { tempDir } from "../helpers/temp.js";

async function refusal(header: string, call: { effort?: ClaudeEffort; approvals?: boolean }) {
  const dir = await tempDir("claude-known-version");
  const log = path.join(dir, "runs.log");
  const claude = await writeFakeClaude(path.join(dir, "cli.js"), log, { kind: "node", header });
  const client = createClaudeCode({ claude, env: { IS_SANDBOX: "1", PATH: process.env.PATH } });
  const error = await client
    .run({
      prompt: "hi",
      cwd: dir,
      ...(call.effort !== undefined ? { effort: call.effort } : {}),
      ...(call.approvals ? { approvals: { onRequest: () => "accept" as const } } : {}),
    })
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(TurnFailedError);
  return { failure: (error as TurnFailedError).terminal.failure, runs: fakeRuns(log) };
}

describe("a Claude Code of a known version too old for the call", () => {
  it.each([
    ["--effort", "2.0.77", { effort: "high" }, "2.1.38"],
    ["--effort xhigh", "2.1.110", { effort: "xhigh" }, "2.1.111"],
    ["approvals", "2.0.77", { approvals: true }, "2.1.112"],
  ] as const)("%s on %s is refused before claude starts", async (feature, version, call, minimum) => {
    const { failure, runs } = await refusal(version, call);
    expect(runs).toEqual([]);
    expect(failure).toMatchObject({ source: "spawn", code: "CLAUDE_UNSUPPORTED_VERSION" });
    expect(failure.message).toContain(`Claude Code ${version} cannot do ${feature}, which needs ${minimum}`);
    expect(failure.message).toContain("npm i -g @anthropic-ai/claude-code@latest");
  });
});
