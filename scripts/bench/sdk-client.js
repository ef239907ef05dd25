#!/usr/bin/env node
// One turn through OpenAI's Codex TypeScript SDK (`@openai/codex-sdk`, which runs `codex exec
// --experimental-json`), for comparison with Rennet: the same codex binary (codexPathOverride), the same
// environment, the same full-access, never-ask policy, the current directory as the working directory.
// usage: node sdk-client.js CODEX_BIN PROMPT   (exit 0 iff the turn completed)
// As a module: `sdkTurn(codexBin, prompt, cwd)` runs one such turn in the importing process.
import { Codex } from "@openai/codex-sdk";

/** One SDK turn in `cwd`; rejects when it ends without a final response. */
export async function sdkTurn(codexBin, prompt, cwd) {
  const codex = new Codex({ codexPathOverride: codexBin, env: { ...process.env } });
  const thread = codex.startThread({
    workingDirectory: cwd,
    skipGitRepoCheck: true,
    sandboxMode: "danger-full-access",
    approvalPolicy: "never",
  });
  const turn = await thread.run(prompt);
  if (turn.finalResponse === "") throw new Error("the turn ended without a final response");
}

if (process.argv[1] === import.meta.filename) {
  const [codexBin, prompt] = process.argv.slice(2);
  try {
    await sdkTurn(codexBin, prompt, process.cwd());
  } catch (error) {
    process.stderr.write(`sdk-client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
