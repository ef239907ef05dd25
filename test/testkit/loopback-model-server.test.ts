import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { LoopbackModelServer } from "../../src/testkit/loopback-model-server.js";
import {
  LoopbackModelServerClosedError,
  startLoopbackModelServer,
} from "../../src/testkit/loopback-model-server.js";
import type { ModelScenario } from "../../src/testkit/model-response-plan.js";
import {
  COMMAND_CALL_USAGE,
  COMMAND_FOLLOW_UP_USAGE,
  REASONING_USAGE,
  TEXT_USAGE,
  command,
  failedResponse,
  hang,
  httpError,
  json,
  rawText,
  reasoning,
  sequence,
  stream,
  text,
  truncatedStream,
} from "../../src/testkit/model-scenarios.js";
import { wireUsage } from "../../src/testkit/responses-stream-events.js";
import * as messagesScenarios from "../../src/testkit/messages-scenarios.js";
import type { ParsedEvent } from "./sse-client.js";
import { parseServerSentEvents, postResponses, streamEvents, userTurnBody } from "./sse-client.js";
import { expectScenarioServerRefusals } from "../helpers/refusal.js";

let server: LoopbackModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(scenario?: ModelScenario): Promise<LoopbackModelServer> {
  server = await startLoopbackModelServer(scenario === undefined ? {} : { scenario });
  return server;
}

const types = (events: ParsedEvent[]): string[] => events.map((e) => e.event);
const deltas = (events: ParsedEvent[], type: string): string[] =>
  events.filter((e) => e.event === type).map((e) => e.data.delta as string);

describe("startLoopbackModelServer", () => {
  it("refuses a scenario that is not a function and a maxBodyBytes that is not a positive integer up front", async () => {
    await expectScenarioServerRefusals(startLoopbackModelServer, (started) => (server = started));
  });

  it("listens on 127.0.0.1 and gives a /v1 base URL", async () => {
    const model = await start();
    expect(model.url).toBe(`http://127.0.0.1:${model.port}/v1`);
    expect(model.port).toBeGreaterThan(0);
  });

  it("text: streams one delta per chunk, the done message, and completed with usage", async () => {
    const model = await start(text("Hello loopback world", { chunks: 3 }));
    const response = await postResponses(model.url, userTurnBody());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = parseServerSentEvents(await response.text());
    expect(types(events)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    // The SSE `event:` field and the `type` inside the JSON agree.
    for (const event of events) expect(event.data.type).toBe(event.event);
    expect(deltas(events, "response.output_text.delta").join("")).toBe("Hello loopback world");
    const done = events[5]?.data.item as { type: string; content: { type: string; text: string }[] };
    expect(done.type).toBe("message");
    expect(done.content).toEqual([{ type: "output_text", text: "Hello loopback world" }]);
    const completed = events[6]?.data.response as { usage: unknown };
    expect(completed.usage).toEqual(wireUsage(TEXT_USAGE));
  });

  it("text: splits by words by default, takes explicit chunks, and can omit usage", async () => {
    const model = await start(text("one two  three"));
    expect(deltas(await streamEvents(model.url, userTurnBody()), "response.output_text.delta")).toEqual([
      "one ",
      "two  ",
      "three",
    ]);
    model.setScenario(text("abc", { chunks: ["a", "bc"], usage: null }));
    const events = await streamEvents(model.url, userTurnBody());
    expect(deltas(events, "response.output_text.delta")).toEqual(["a", "bc"]);
    expect(events.at(-1)?.data.response).toEqual({ id: expect.any(String) as unknown });
    expect(() => text("abc", { chunks: ["a", "b"] })).toThrow(
      expect.objectContaining({ code: "SCENARIO_INVALID" }),
    );
    expect(() => text("abc", { chunks: 0 })).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("json and rawText: the message text is the serialized value, or exactly the raw text", async () => {
    const model = await start(json({ answer: 42, tags: ["x"] }));
    const jsonEvents = await streamEvents(model.url, userTurnBody());
    expect(JSON.parse(deltas(jsonEvents, "response.output_text.delta").join(""))).toEqual({
      answer: 42,
      tags: ["x"],
    });
    model.setScenario(rawText("{not json"));
    const rawEvents = await streamEvents(model.url, userTurnBody());
    expect(deltas(rawEvents, "response.output_text.delta")).toEqual(["{not json"]);
    expect(() => json(undefined)).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("command: where the request offers only `shell` (codex before 0.98), the call is a `shell` argv", async () => {
    const model = await start(command("echo hi", { then: "done", yieldTimeMs: 1500 }));
    const tools = [
      { type: "function", name: "shell" },
      { type: "function", name: "update_plan" },
    ];
    const first = await streamEvents(model.url, { ...userTurnBody("run it"), tools });
    const call = first[1]?.data.item as { name: string; arguments: string };
    expect(call.name).toBe("shell");
    expect(JSON.parse(call.arguments)).toEqual({ command: ["bash", "-lc", "echo hi"], timeout_ms: 1500 });
    const both = [...tools, { type: "function", name: "exec_command" }];
    const second = await streamEvents(model.url, { ...userTurnBody("run it"), tools: both });
    expect((second[1]?.data.item as { name: string }).name).toBe("exec_command");
  });

  it("command: the first request gets an exec_command call, the follow-up with its output gets the message", async () => {
    const model = await start(command("echo hi", { then: "It printed hi.", yieldTimeMs: 1500 }));
    const first = await streamEvents(model.url, userTurnBody("run it"));
    expect(types(first)).toEqual(["response.created", "response.output_item.done", "response.completed"]);
    const call = first[1]?.data.item as { type: string; name: string; call_id: string; arguments: string };
    expect(call.type).toBe("function_call");
    expect(call.name).toBe("exec_command");
    expect(JSON.parse(call.arguments)).toEqual({ cmd: "echo hi", yield_time_ms: 1500 });
    expect((first[2]?.data.response as { usage: unknown }).usage).toEqual(wireUsage(COMMAND_CALL_USAGE));

    const followUpInput = [
      ...(userTurnBody("run it").input as unknown[]),
      { type: "function_call", name: "exec_command", arguments: call.arguments, call_id: call.call_id },
      { type: "function_call_output", call_id: call.call_id, output: "hi\n" },
    ];
    const second = await streamEvents(model.url, { model: "mock-model", input: followUpInput });
    expect(deltas(second, "response.output_text.delta").join("")).toBe("It printed hi.");
    expect((second.at(-1)?.data.response as { usage: unknown }).usage).toEqual(
      wireUsage(COMMAND_FOLLOW_UP_USAGE),
    );
    expect(COMMAND_CALL_USAGE.totalTokens).not.toBe(COMMAND_FOLLOW_UP_USAGE.totalTokens);

    // A later user message starts over: the next turn of the same thread runs the command again.
    const nextTurn = [...followUpInput, ...(userTurnBody("again").input as unknown[])];
    const third = await streamEvents(model.url, { model: "mock-model", input: nextTurn });
    expect((third[1]?.data.item as { type: string }).type).toBe("function_call");
  });

  it("reasoning: summary parts with deltas, the reasoning item, then the message", async () => {
    const model = await start(reasoning(["First thought.", "Second thought."], "Answer."));
    const events = await streamEvents(model.url, userTurnBody());
    expect(types(events)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(deltas(events, "response.reasoning_summary_text.delta")).toEqual([
      "First thought.",
      "Second thought.",
    ]);
    expect(
      events.filter((e) => e.event.startsWith("response.reasoning")).map((e) => e.data.summary_index),
    ).toEqual([0, 0, 1, 1]);
    expect(events[6]?.data.item).toMatchObject({
      type: "reasoning",
      summary: [
        { type: "summary_text", text: "First thought." },
        { type: "summary_text", text: "Second thought." },
      ],
    });
    expect((events.at(-1)?.data.response as { usage: unknown }).usage).toEqual(wireUsage(REASONING_USAGE));
  });

  it("httpError: the status with an OpenAI-style body, or a body given as is", async () => {
    const model = await start(httpError(503, "upstream is down"));
    const response = await postResponses(model.url, userTurnBody());
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { message: "upstream is down", type: "server_error", param: null, code: null },
    });
    model.setScenario(httpError(400, "bad request"));
    expect(await (await postResponses(model.url, userTurnBody())).json()).toMatchObject({
      error: { message: "bad request", type: "invalid_request_error" },
    });
    model.setScenario(httpError(500, { custom: true }));
    const custom = await postResponses(model.url, userTurnBody());
    expect(custom.status).toBe(500);
    expect(await custom.json()).toEqual({ custom: true });
    expect(() => httpError(200)).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("failedResponse and truncatedStream: no response.completed", async () => {
    const model = await start(failedResponse("it broke", "server_error"));
    const failed = await streamEvents(model.url, userTurnBody());
    expect(types(failed)).toEqual(["response.created", "response.failed"]);
    expect(failed[1]?.data.response).toMatchObject({ error: { code: "server_error", message: "it broke" } });
    model.setScenario(truncatedStream("half"));
    const truncated = await streamEvents(model.url, userTurnBody());
    expect(types(truncated)).not.toContain("response.completed");
    expect(deltas(truncated, "response.output_text.delta")).toEqual(["half"]);
  });

  it("stream: custom events with a delay still all arrive, in order", async () => {
    const model = await start(
      stream(
        [
          { type: "response.created", response: { id: "r" } },
          { type: "custom.event", n: 1 },
        ],
        { delayMs: 5 },
      ),
    );
    const events = await streamEvents(model.url, userTurnBody());
    expect(events.map((e) => e.data)).toEqual([
      { type: "response.created", response: { id: "r" } },
      { type: "custom.event", n: 1 },
    ]);
  });

  it("hang: sends response.created, keeps the stream open, and close() ends it", async () => {
    const model = await start(hang());
    const response = await postResponses(model.url, userTurnBody());
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = "";
    while (!received.includes("\n\n")) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error("the hanging stream ended early");
      received += new TextDecoder().decode(chunk.value);
    }
    expect(parseServerSentEvents(received).map((e) => e.event)).toEqual(["response.created"]);
    const next = reader.read().then(
      (chunk) => (chunk.done ? "ended" : "data"),
      () => "ended",
    );
    await model.close();
    await expect(next).resolves.toBe("ended");
  });

  it("close() also ends a stream that is waiting between delayed events, and is idempotent", async () => {
    const model = await start(
      stream([{ type: "response.created" }, { type: "never.sent" }], { delayMs: 60_000 }),
    );
    const response = await postResponses(model.url, userTurnBody());
    const body = response.text().then(
      (value) => value,
      () => "",
    );
    await model.waitForResponsesRequests(1);
    await Promise.all([model.close(), model.close()]);
    expect(await body).not.toContain("never.sent");
  });

  it("many concurrent delayed streams put no MaxListenersExceededWarning into the test's process", async () => {
    const model = await start(
      stream([{ type: "response.created" }, { type: "never.sent" }], { delayMs: 60_000 }),
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const bodies = Array.from({ length: 12 }, () =>
        postResponses(model.url, userTurnBody())
          .then((response) => response.text())
          .catch(() => ""),
      );
      await model.waitForResponsesRequests(12);
      await new Promise((resolve) => setImmediate(resolve));
      await model.close();
      await Promise.all(bodies);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it("records every request in order: method, path, lower-cased headers, parsed body", async () => {
    const model = await start(text("ok"));
    await streamEvents(model.url, { model: "m1", input: [] });
    const notFound = await fetch(`${model.url}/models?client=x`);
    expect(notFound.status).toBe(404);
    await (await postResponses(model.url, { model: "m2" }, { "X-Custom-Header": "yes" })).text();
    expect(model.requests.map((r) => [r.index, r.method, r.path])).toEqual([
      [0, "POST", "/v1/responses"],
      [1, "GET", "/v1/models?client=x"],
      [2, "POST", "/v1/responses"],
    ]);
    expect(model.requests[2]?.headers["x-custom-header"]).toBe("yes");
    expect(model.requests[2]?.body).toEqual({ model: "m2" });
    expect(model.requests[2]?.rawBody).toBe('{"model":"m2"}');
    expect(model.responsesRequests().map((r) => r.index)).toEqual([0, 2]);
  });

  it("decodes a gzip request body and keeps a non-JSON body as raw text", async () => {
    const model = await start(text("ok"));
    await (
      await fetch(`${model.url}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipSync(JSON.stringify({ model: "zipped" })),
      })
    ).text();
    await (await fetch(`${model.url}/responses`, { method: "POST", body: "not json" })).text();
    expect(model.requests[0]?.body).toEqual({ model: "zipped" });
    expect(model.requests[1]?.body).toBeNull();
    expect(model.requests[1]?.rawBody).toBe("not json");
  });

  it("maxBodyBytes caps the decoded body too: a small gzip body that inflates past it is a 413, not recorded", async () => {
    server = await startLoopbackModelServer({ maxBodyBytes: 1024 * 1024 });
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const response = await fetch(`${server.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: bomb,
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("over 1048576 bytes");
    expect(server.requests).toEqual([]);
  });

  it("sequence: request i gets scenario i; exhausted answers 503 naming the sequence; setScenario restarts", async () => {
    const model = await start(sequence([text("first"), text("second")]));
    expect(deltas(await streamEvents(model.url, userTurnBody()), "response.output_text.delta")).toEqual([
      "first",
    ]);
    expect(deltas(await streamEvents(model.url, userTurnBody()), "response.output_text.delta")).toEqual([
      "second",
    ]);
    const exhausted = await postResponses(model.url, userTurnBody());
    expect(exhausted.status).toBe(503);
    expect(JSON.stringify(await exhausted.json())).toContain("exhausted at request 2");

    model.setScenario(sequence([text("a"), text("b")], { whenExhausted: "repeat-last" }));
    const answers: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      answers.push(
        deltas(await streamEvents(model.url, userTurnBody()), "response.output_text.delta").join(""),
      );
    }
    expect(answers).toEqual(["a", "b", "b"]);
    expect(() => sequence([])).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("answers a Messages API (Claude Code) scenario with a 503 naming the scenarios it needs", async () => {
    const model = await start(messagesScenarios.text("for claude") as unknown as ModelScenario);
    const response = await postResponses(model.url, userTurnBody());
    expect(response.status).toBe(503);
    const message = JSON.stringify(await response.json());
    expect(message).toContain("message_start");
    expect(message).toContain("modelScenarios");
  });

  it("a scenario whose answer is not a plan becomes a 503 saying so, not a reset connection", async () => {
    const plans: unknown[] = [
      undefined,
      { type: "text" },
      { type: "http-error", status: 99, body: {} },
      { type: "stream", events: "x", end: "close" },
      { type: "stream", events: [], end: "later" },
    ];
    const model = await start((_request, index) => plans[index] as never);
    for (const plan of plans) {
      const response = await postResponses(model.url, userTurnBody());
      expect(response.status, JSON.stringify(plan)).toBe(503);
      expect(JSON.stringify(await response.json())).toContain("scenario returned");
    }
  });

  it("a scenario that throws becomes a 503 with its message", async () => {
    const model = await start(() => {
      throw new Error("scenario bug");
    });
    const response = await postResponses(model.url, userTurnBody());
    expect(response.status).toBe(503);
    expect(JSON.stringify(await response.json())).toContain("scenario bug");
  });

  it("waitForResponsesRequests resolves once enough requests arrived", async () => {
    const model = await start(text("ok"));
    const waiting = model.waitForResponsesRequests(2);
    await streamEvents(model.url, { model: "a" });
    await fetch(`${model.url}/other`).then((r) => r.text());
    await streamEvents(model.url, { model: "b" });
    const received = await waiting;
    expect(received.map((r) => (r.body as { model: string }).model)).toEqual(["a", "b"]);
    await expect(model.waitForResponsesRequests(1)).resolves.toHaveLength(2);
  });

  it("waitForResponsesRequests refuses a count that is not a whole number instead of waiting forever", async () => {
    const model = await start(text("ok"));
    for (const count of [Number.NaN, -1, 1.5, "2"])
      await expect(model.waitForResponsesRequests(count as never)).rejects.toMatchObject({
        code: "TESTKIT_OPTIONS_INVALID",
        details: { option: "count" },
      });
  });

  it("waitForResponsesRequests rejects on close with a coded error, and on abort with the signal's reason", async () => {
    const model = await start(text("ok"));
    const controller = new AbortController();
    const reason = new Error("gave up");
    const aborted = model.waitForResponsesRequests(1, { signal: controller.signal });
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);

    const waiting = model.waitForResponsesRequests(1);
    await model.close();
    await expect(waiting).rejects.toBeInstanceOf(LoopbackModelServerClosedError);
    await expect(waiting).rejects.toMatchObject({ code: "LOOPBACK_MODEL_CLOSED" });
    await expect(model.waitForResponsesRequests(1)).rejects.toMatchObject({ code: "LOOPBACK_MODEL_CLOSED" });
  });
});
