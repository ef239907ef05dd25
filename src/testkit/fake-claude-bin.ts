#!/usr/bin/env node
/**
 * The executable fake `claude`: `node fake-claude-bin.js [claude's options…]`. It follows the JSON script in the
 * file named by `RENNET_FAKE_CLAUDE_SCRIPT` (or inline JSON in `RENNET_FAKE_CLAUDE_SCRIPT_JSON`), speaking
 * stream-json on stdio. `--version` prints `<version> (Claude Code)`. When `RENNET_FAKE_CLAUDE_LOG` is set it
 * appends one JSON line `{"fake":"argv","argv":[…]}` at start, then every line the client wrote.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { StreamTransport } from "../jsonl/stream-transport.js";
import { FakeClaudePeer } from "./fake-claude-peer.js";
import type { FakeClaudeScript } from "./fake-claude-script.js";

function loadScript(): FakeClaudeScript {
  const inline = process.env.RENNET_FAKE_CLAUDE_SCRIPT_JSON;
  if (inline) return JSON.parse(inline) as FakeClaudeScript;
  const file = process.env.RENNET_FAKE_CLAUDE_SCRIPT;
  if (file) return JSON.parse(readFileSync(file, "utf8")) as FakeClaudeScript;
  return {};
}

const script = loadScript();
const args = process.argv.slice(2);
const log = process.env.RENNET_FAKE_CLAUDE_LOG;
if (log) appendFileSync(log, `${JSON.stringify({ fake: "argv", argv: args })}\n`);
if (script.ignoreSigterm) process.on("SIGTERM", () => {});
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write(`${script.version ?? "2.1.332"} (Claude Code)\n`);
  process.exit(0);
}
const refused = (script.unknownOptions ?? []).find((option) =>
  args.some((arg) => arg === option || arg.startsWith(`${option}=`)),
);
if (refused !== undefined) {
  process.stderr.write(`error: unknown option '${refused}'\n`);
  process.exit(1);
}

const transport = new StreamTransport(process.stdin, process.stdout);
new FakeClaudePeer(transport, script, {
  received: (line) => {
    if (log) appendFileSync(log, `${JSON.stringify(line)}\n`);
  },
  writeRaw: (text) => process.stdout.write(text),
  writeStderr: (text) => process.stderr.write(text),
  closeStdout: () => process.stdout.end(),
  args,
  exit: (code, signal) =>
    process.stdout.end(() => {
      if (signal) process.kill(process.pid, signal as NodeJS.Signals);
      else process.exit(code ?? 0);
    }),
});
