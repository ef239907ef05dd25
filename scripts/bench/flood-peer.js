#!/usr/bin/env node
// A tiny fake `codex app-server` for the streaming benchmark: it answers initialize, config/read, thread/start
// and turn/start like the testkit's fake, then floods RENNET_BENCH_DELTAS (default 100000) agent-message
// deltas and completes the turn. The lines are prebuilt and written in large batches, honouring backpressure,
// so the peer costs as little as possible next to the client that reads them. Exits on stdin EOF or SIGTERM.
// usage: node flood-peer.js app-server
const THREAD_ID = "thr_flood";
const TURN_ID = "turn_flood";
const ITEM_ID = "msg_flood";
const deltas = Number(process.env.RENNET_BENCH_DELTAS ?? 100_000);
const ids = { threadId: THREAD_ID, turnId: TURN_ID };

const line = (frame) => `${JSON.stringify(frame)}\n`;
const notification = (method, params) => line({ method, params });
const turn = (status) => ({ id: TURN_ID, items: [], status, error: null });
const item = (text) => ({ type: "agentMessage", id: ITEM_ID, text, phase: "final_answer" });

const REPLIES = {
  initialize: { userAgent: "codex_cli_rs/0.171.0 (flood)", platformFamily: "unix", platformOs: "linux" },
  "config/read": { config: {}, origins: {} },
  "thread/start": { thread: { id: THREAD_ID, cwd: "/tmp" }, model: "flood-model", cwd: "/tmp" },
  "turn/start": { turn: turn("inProgress") },
};

function floodBatches() {
  const batches = [];
  let batch = notification("turn/started", { threadId: THREAD_ID, turn: turn("inProgress") });
  batch += notification("item/started", { ...ids, item: item("") });
  for (let index = 0; index < deltas; index++) {
    batch += notification("item/agentMessage/delta", { ...ids, itemId: ITEM_ID, delta: `w${index % 10} ` });
    if (batch.length > 256 * 1024) {
      batches.push(batch);
      batch = "";
    }
  }
  batch += notification("item/completed", { ...ids, item: item("(flood)") });
  batches.push(batch + notification("turn/completed", { threadId: THREAD_ID, turn: turn("completed") }));
  return batches;
}

function writeAll(batches) {
  let index = 0;
  const next = () => {
    while (index < batches.length) if (!process.stdout.write(batches[index++])) return;
  };
  process.stdout.on("drain", next);
  next();
}

function onFrame(frame) {
  if (frame.method === undefined || frame.id === undefined) return;
  const result = Object.hasOwn(REPLIES, frame.method) ? REPLIES[frame.method] : undefined;
  process.stdout.write(
    line(
      result === undefined
        ? { id: frame.id, error: { code: -32601, message: `flood peer: no ${frame.method}` } }
        : { id: frame.id, result },
    ),
  );
  if (frame.method === "turn/start") writeAll(floodBatches());
}

let rest = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  for (const text of lines) if (text.trim() !== "") onFrame(JSON.parse(text));
});
process.stdin.on("end", () => process.exit(0));
