#!/usr/bin/env node
// The smallest correct stream-json client of one Claude Code turn, the baseline of the Claude bench group: the
// same claude and the same arguments as a Rennet turn, the prompt on stdin, read stdout lines until `result`,
// then Claude's `end_session` control request and stdin EOF (as Rennet ends a turn), reading on until claude
// exits. Like Rennet, it gives each claude its own CLAUDE_CODE_TMPDIR (under the environment's), removed after. Exit 0 when the result is a success. The environment (HOME,
// ANTHROPIC_BASE_URL, IS_SANDBOX for root, …) comes from the bench.
//
//   node scripts/bench/claude-raw-client.js CLAUDE_BIN PROMPT
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

const ARGS = [
  "-p",
  "--input-format",
  "stream-json",
  "--output-format",
  "stream-json",
  "--verbose",
  "--include-partial-messages",
  "--permission-mode=bypassPermissions",
  "--no-session-persistence",
  "--setting-sources=user",
  "--strict-mcp-config",
  '--mcp-config={"mcpServers":{}}',
];

/** One turn; resolves with claude's exit code once it exited, and whether its result was a success. */
export async function rawClaudeTurn(claudeBin, prompt, cwd) {
  const tmpDir = mkdtempSync(path.join(process.env.CLAUDE_CODE_TMPDIR ?? os.tmpdir(), "raw-claude-"));
  const env = { ...process.env, CLAUDE_CODE_TMPDIR: tmpDir };
  const child = spawn(claudeBin, ARGS, { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  const exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  child.stdin.write(
    `${JSON.stringify({
      type: "user",
      session_id: "",
      message: { role: "user", content: [{ type: "text", text: prompt }] },
      parent_tool_use_id: null,
    })}\n`,
  );
  let ok = false;
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith("{")) continue;
    const frame = JSON.parse(line);
    if (frame.type === "result" && child.stdin.writable) {
      ok = frame.subtype === "success" && frame.is_error !== true;
      const end = { type: "control_request", request_id: "end", request: { subtype: "end_session" } };
      child.stdin.end(`${JSON.stringify(end)}\n`);
    }
  }
  const code = await exited;
  rmSync(tmpDir, { recursive: true, force: true });
  return { ok, code };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [claudeBin, prompt] = process.argv.slice(2);
  if (!claudeBin || !prompt) {
    process.stderr.write("usage: claude-raw-client.js CLAUDE_BIN PROMPT\n");
    process.exit(2);
  }
  const { ok } = await rawClaudeTurn(claudeBin, prompt, process.cwd());
  process.exitCode = ok ? 0 : 1;
}
