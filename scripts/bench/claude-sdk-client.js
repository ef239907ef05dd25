#!/usr/bin/env node
// One offline Claude Code turn through Anthropic's Claude Agent SDK `query()`, on a given claude executable
// (`pathToClaudeCodeExecutable`), the baseline of the Claude bench group. Exit 0 when the turn's result is a
// success. The environment (HOME, ANTHROPIC_BASE_URL, …) comes from the bench.
//
//   node scripts/bench/claude-sdk-client.js SDK_ENTRY CLAUDE_BIN PROMPT
import { pathToFileURL } from "node:url";

const [entry, claudeBin, prompt] = process.argv.slice(2);
if (!entry || !claudeBin || !prompt) {
  process.stderr.write("usage: claude-sdk-client.js SDK_ENTRY CLAUDE_BIN PROMPT\n");
  process.exit(2);
}
const { query } = await import(pathToFileURL(entry).href);
let result = null;
for await (const message of query({
  prompt,
  options: {
    pathToClaudeCodeExecutable: claudeBin,
    cwd: process.cwd(),
    env: { ...process.env },
    includePartialMessages: true,
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
    persistSession: false,
    settingSources: ["user"],
    strictMcpConfig: true,
  },
})) {
  if (message.type === "result") result = message;
}
process.exitCode = result?.subtype === "success" && !result.is_error ? 0 : 1;
