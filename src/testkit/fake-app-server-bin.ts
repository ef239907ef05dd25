#!/usr/bin/env node
/**
 * The executable fake app-server: `node fake-app-server-bin.js [app-server …]`. It follows the JSON script in
 * the file named by `RENNET_FAKE_SCRIPT` (or inline JSON in `RENNET_FAKE_SCRIPT_JSON`), speaking JSONL on stdio.
 * It appends every frame the client sent to `RENNET_FAKE_LOG` (one JSON line each) when that is set.
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { StreamTransport } from "../jsonl/stream-transport.js";
import { FakePeer } from "./fake-peer.js";
import type { FakeScript } from "./fake-script.js";

function loadScript(): FakeScript {
  const inline = process.env.RENNET_FAKE_SCRIPT_JSON;
  if (inline) return JSON.parse(inline) as FakeScript;
  const file = process.env.RENNET_FAKE_SCRIPT;
  if (file) return JSON.parse(readFileSync(file, "utf8")) as FakeScript;
  return {};
}

const script = loadScript();
if (script.ignoreSigterm) process.on("SIGTERM", () => {});
if (script.stderr) process.stderr.write(script.stderr);
if (process.argv.includes("--version")) {
  process.stdout.write("codex-cli 0.171.0-fake\n");
  process.exit(0);
}

const transport = new StreamTransport(process.stdin, process.stdout);
const log = process.env.RENNET_FAKE_LOG;
new FakePeer(transport, script, {
  received: (frame) => {
    if (log) appendFileSync(log, `${JSON.stringify(frame)}\n`);
  },
  writeRaw: (text) => process.stdout.write(text),
  writeBytes: (bytes) => process.stdout.write(bytes),
  closeStdout: () => process.stdout.end(),
  exit: (code, signal, { stdout }) => {
    // what the script wrote reaches the pipe before the exit: process.exit drops writes still queued
    const finish = (): void => {
      process.stdout.write("", () => {
        if (signal) process.kill(process.pid, signal as NodeJS.Signals);
        else process.exit(code ?? 0);
      });
    };
    if (stdout === "close-first") process.stdout.end(finish);
    else if (stdout === "close-after") holdStdoutThen(finish);
    else finish();
  },
});

/**
 * Leaves a short-lived grandchild holding stdout, then runs `exit`: the client sees this process exit before
 * its stdout closes (when the grandchild ends, about 150 ms later), as with a launcher whose child outlives it.
 */
function holdStdoutThen(exit: () => void): void {
  const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 150)"], {
    stdio: ["ignore", "inherit", "ignore"],
  });
  holder.once("spawn", exit);
  holder.once("error", exit);
}
