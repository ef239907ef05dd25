#!/usr/bin/env node
// One offline Claude Code turn through Anthropic's Claude Agent SDK `query()`, on a given claude executable
// (`pathToClaudeCodeExecutable`), the baseline of the Claude bench group. Exit 0 when the turn's result is a
// success. The environment (HOME, ANTHROPIC_BASE_URL, …) comes from the bench.
//
//   node scripts/bench/claude-sdk-client.js SDK_ENTRY CLAUDE_BIN PROMPT
import { pathToFileURL } from "node:url";

/** Loads the SDK at `entry` and returns its turn: resolves true when the turn's result was a success. */
export async function agentSdkTurn(entry) {
  const { query } = await import(pathToFileURL(entry).href);
  return async (claudeBin, prompt, cwd) => {
    let result = null;
    for await (const message of query({
      prompt,
      options: {
        pathToClaudeCodeExecutable: claudeBin,
        cwd,
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
    return result?.subtype === "success" && !result.is_error;
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [entry, claudeBin, prompt] = process.argv.slice(2);
  if (!entry || !claudeBin || !prompt) {
    process.stderr.write("usage: claude-sdk-client.js SDK_ENTRY CLAUDE_BIN PROMPT\n");
    process.exit(2);
  }
  const turn = await agentSdkTurn(entry);
  process.exitCode = (await turn(claudeBin, prompt, process.cwd())) ? 0 : 1;
}
