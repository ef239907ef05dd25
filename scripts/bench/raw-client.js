#!/usr/bin/env node
// The minimal raw client the benchmark compares Rennet against. Plain node, no dependencies. It does exactly:
// spawn `<codex> app-server`, initialize, initialized, thread/start, turn/start, read to turn/completed, kill.
// The params are the ones Rennet sends (src/codex/protocol/protocol-requests.ts; the thread's config states the cwd as
// trusted, as Rennet does for a cwd without a configured project). Server requests are refused.
// usage: node raw-client.js CODEX_BIN PROMPT   (thread cwd = the current directory; exit 0 iff completed)
// As a module: `rawTurn(codexBin, prompt, cwd)` runs one such turn in the importing process.
import { spawn } from "node:child_process";

/** One raw turn; resolves with the turn's status (`completed`, `closed` when codex went away, …). */
export async function rawTurn(codexBin, prompt, cwd) {
  const child = spawn(codexBin, ["app-server"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  const exited = new Promise((resolve) => {
    child.once("exit", resolve);
    child.once("error", resolve);
  });
  const pending = new Map();
  let nextId = 1;
  let completeTurn;
  const turnCompleted = new Promise((resolve) => (completeTurn = resolve));
  child.once("error", (error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    completeTurn("spawn-error");
  });

  const send = (frame) => child.stdin.write(`${JSON.stringify(frame)}\n`);
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      pending.set(nextId, { resolve, reject });
      send({ id: nextId++, method, params });
    });

  function onFrame(frame) {
    if (frame.method === undefined) {
      const waiter = pending.get(frame.id);
      pending.delete(frame.id);
      if (frame.error) waiter?.reject(new Error(`${frame.error.code}: ${frame.error.message}`));
      else waiter?.resolve(frame.result);
    } else if (frame.id !== undefined) {
      send({ id: frame.id, error: { code: -32601, message: "not supported by the raw client" } });
    } else if (frame.method === "turn/completed") completeTurn(frame.params.turn.status);
  }

  let rest = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      if (end > start) onFrame(JSON.parse(text.slice(start, end)));
      start = end + 1;
    }
    rest = text.slice(start);
  });
  child.stdout.once("end", () => {
    for (const waiter of pending.values()) waiter.reject(new Error("app-server closed its stdout"));
    completeTurn("closed");
  });

  try {
    await request("initialize", { clientInfo: { name: "rennet", title: "Rennet", version: "0.1.0" } });
    send({ method: "initialized" });
    const thread = await request("thread/start", {
      cwd,
      approvalPolicy: "never",
      sandbox: "danger-full-access",
      ephemeral: true,
      config: { projects: { [cwd]: { trust_level: "trusted" } } },
    });
    await request("turn/start", {
      threadId: thread.thread.id,
      input: [{ type: "text", text: prompt }],
      cwd,
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    return await turnCompleted;
  } finally {
    child.stdin.end();
    child.kill("SIGTERM");
    await exited;
  }
}

if (process.argv[1] === import.meta.filename) {
  const [codexBin, prompt] = process.argv.slice(2);
  try {
    const status = await rawTurn(codexBin, prompt, process.cwd());
    process.exitCode = status === "completed" ? 0 : 1;
  } catch (error) {
    process.stderr.write(`raw-client: ${error.message}\n`);
    process.exitCode = 1;
  }
}
