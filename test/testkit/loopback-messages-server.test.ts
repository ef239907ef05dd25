import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  LoopbackMessagesServerClosedError,
  startLoopbackMessagesServer,
  type LoopbackMessagesServer,
} from "../../src/testkit/loopback-messages-server.js";
import type { MessagesScenario } from "../../src/testkit/messages-response-plan.js";
import * as scenarios from "../../src/testkit/messages-scenarios.js";
import * as modelScenarios from "../../src/testkit/model-scenarios.js";
import { isRennetError } from "../../src/errors.js";
import { parseServerSentEvents, type ParsedEvent } from "./sse-client.js";
import { expectScenarioServerRefusals } from "../helpers/refusal.js";

let server: LoopbackMessagesServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(scenario?: MessagesScenario, maxBodyBytes?: number): Promise<LoopbackMessagesServer> {
  server = await startLoopbackMessagesServer({
    ...(scenario ? { scenario } : {}),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
  });
  return server;
}

/** A request body like Claude Code's: the working directory in a system message, the turn's history after it. */
function body(history: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "claude-test-1",
    stream: true,
    system: [{ type: "text", text: "You are Claude Code." }],
    messages: [
      { role: "user", content: [{ type: "text", text: "Primary working directory: /work/repo\nDo it" }] },
      ...history,
    ],
    ...extra,
  };
}

const afterTool = (id: string) => [
  { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
];

function post(url: string, payload: unknown, path = "/v1/messages?beta=true"): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: JSON.stringify(payload),
  });
}

async function events(url: string, payload: unknown): Promise<ParsedEvent[]> {
  const response = await post(url, payload);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  return parseServerSentEvents(await response.text());
}

const types = (list: ParsedEvent[]) => list.map((event) => event.event);
const deltas = (list: ParsedEvent[]) =>
  list.filter((e) => e.event === "content_block_delta").map((e) => e.data.delta as Record<string, unknown>);
const blocks = (list: ParsedEvent[]) =>
  list
    .filter((e) => e.event === "content_block_start")
    .map((e) => e.data.content_block as Record<string, unknown>);

describe("startLoopbackMessagesServer", () => {
  it("refuses a scenario that is not a function and a maxBodyBytes that is not a positive integer up front", async () => {
    await expectScenarioServerRefusals(startLoopbackMessagesServer, (started) => (server = started));
  });

  it("gives a base URL for ANTHROPIC_BASE_URL and answers a text turn from message_start to message_stop", async () => {
    const model = await start(scenarios.text("Hello from the loopback"));
    expect(model.url).toBe(`http://127.0.0.1:${model.port}`);
    const answer = await events(model.url, body());
    expect(types(answer)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(deltas(answer).map((d) => d.text)).toEqual(["Hello ", "from ", "the ", "loopback"]);
    expect(answer[0]?.data).toEqual({
      type: "message_start",
      message: expect.objectContaining({
        id: "msg_loopback_0",
        model: "claude-test-1",
        usage: {
          input_tokens: 11,
          cache_creation_input_tokens: 3,
          cache_read_input_tokens: 5,
          output_tokens: 1,
        },
      }),
    });
    expect(answer.at(-2)?.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 7 },
    });
  });

  it("records every request, answers count_tokens and 404s anything else in the Anthropic error shape", async () => {
    const model = await start();
    expect(
      (await post(model.url, body(), "/v1/messages/count_tokens").then((r) => r.json())) as unknown,
    ).toEqual({
      input_tokens: expect.any(Number),
    });
    const missing = await fetch(`${model.url}/`, { method: "HEAD" });
    expect(missing.status).toBe(404);
    const other = await post(model.url, {}, "/v1/complete");
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      type: "error",
      error: { type: "not_found_error", message: "loopback: no route for POST /v1/complete" },
    });
    await events(model.url, body());
    expect(model.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/messages/count_tokens",
      "HEAD /",
      "POST /v1/complete",
      "POST /v1/messages?beta=true",
    ]);
    expect(model.messagesRequests()).toHaveLength(1);
    expect(model.messagesRequests()[0]?.headers["x-api-key"]).toBe("k");
    expect((model.messagesRequests()[0]?.body as { model: string }).model).toBe("claude-test-1");
  });

  it("folds the answer into one JSON message for a request without stream: true", async () => {
    const model = await start(scenarios.bash("echo hi", { then: "done", before: "Running." }));
    const response = await post(model.url, body([], { stream: false }));
    expect(await response.json()).toEqual(
      expect.objectContaining({
        type: "message",
        stop_reason: "tool_use",
        content: [
          { type: "text", text: "Running." },
          {
            type: "tool_use",
            id: "toolu_loopback_0_1",
            name: "Bash",
            input: { command: "echo hi", description: "run a command" },
          },
        ],
      }),
    );
  });

  it("streams many deltas, thinking, and custom events", async () => {
    const many = await start(scenarios.text("x".repeat(500), { chunks: 500 }));
    expect(deltas(await events(many.url, body()))).toHaveLength(500);
    many.setScenario(scenarios.thinking("Let me think.", "Answer."));
    const thought = await events(many.url, body());
    expect(blocks(thought).map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(deltas(thought).map((d) => d.type)).toEqual(["thinking_delta", "signature_delta", "text_delta"]);
    many.setScenario(scenarios.stream([{ type: "ping" }]));
    expect(types(await events(many.url, body()))).toEqual(["ping"]);
  });

  it("calls a tool on the first step and answers `then` once the result is in the history", async () => {
    const model = await start(scenarios.bash("echo hi; exit 3", { then: "Bash done." }));
    const first = await events(model.url, body());
    expect(blocks(first)).toEqual([{ type: "tool_use", id: "toolu_loopback_0_0", name: "Bash", input: {} }]);
    expect(
      JSON.parse(
        deltas(first)
          .map((d) => d.partial_json)
          .join(""),
      ),
    ).toEqual({
      command: "echo hi; exit 3",
      description: "run a command",
    });
    expect(first.at(-2)?.data.delta).toEqual({ stop_reason: "tool_use", stop_sequence: null });
    const second = await events(model.url, body(afterTool("toolu_loopback_0_0")));
    expect(
      deltas(second)
        .map((d) => d.text)
        .join(""),
    ).toBe("Bash done.");
  });

  it("resolves file paths against the working directory Claude states, and names Claude's tools", async () => {
    const input = async (scenario: MessagesScenario) => {
      const model = await start(scenario);
      const first = await events(model.url, body());
      await model.close();
      const tool = blocks(first).find((b) => b.type === "tool_use");
      return [
        tool?.name,
        JSON.parse(
          deltas(first)
            .map((d) => d.partial_json ?? "")
            .join("") || "{}",
        ),
      ];
    };
    expect(await input(scenarios.edit("a.txt", "beta", "BETA", { then: "ok" }))).toEqual([
      "Edit",
      { file_path: "/work/repo/a.txt", old_string: "beta", new_string: "BETA" },
    ]);
    expect(await input(scenarios.write("/abs/new.txt", "x\n", { then: "ok" }))).toEqual([
      "Write",
      { file_path: "/abs/new.txt", content: "x\n" },
    ]);
    expect(
      await input(scenarios.todoWrite([{ content: "First", status: "in_progress" }], { then: "ok" })),
    ).toEqual(["TodoWrite", { todos: [{ activeForm: "First", content: "First", status: "in_progress" }] }]);
    expect(await input(scenarios.taskCreate("First", { then: "ok" }))).toEqual([
      "TaskCreate",
      { subject: "First", description: "First", activeForm: "First" },
    ]);
    expect(await input(scenarios.mcpTool("loop", "echo", { text: "hi" }, { then: "ok" }))).toEqual([
      "mcp__loop__echo",
      { text: "hi" },
    ]);
    expect(await input(scenarios.structuredOutput({ answer: 42 }))).toEqual([
      "StructuredOutput",
      { answer: 42 },
    ]);
  });

  it("chains tool calls one per step: TaskCreate, then TaskUpdate, then the text", async () => {
    const model = await start(scenarios.taskCreate("First", { then: "Tasks set.", thenStatus: "completed" }));
    const names = [];
    let history: unknown[] = [];
    for (let step = 0; step < 3; step++) {
      const answer = await events(model.url, body(history));
      const tool = blocks(answer).find((b) => b.type === "tool_use");
      names.push(
        tool?.name ??
          deltas(answer)
            .map((d) => d.text)
            .join(""),
      );
      if (tool) history = [...history, ...afterTool(String(tool.id))];
    }
    expect(names).toEqual(["TaskCreate", "TaskUpdate", "Tasks set."]);
  });

  it("answers provider errors with their status, Anthropic type and headers", async () => {
    const model = await start();
    const cases: [number, string][] = [
      [400, "invalid_request_error"],
      [401, "authentication_error"],
      [429, "rate_limit_error"],
      [500, "api_error"],
      [529, "overloaded_error"],
    ];
    for (const [status, type] of cases) {
      model.setScenario(
        scenarios.httpError(status, `loopback ${status}`, { headers: { "retry-after": "1" } }),
      );
      const response = await post(model.url, body());
      expect(response.status).toBe(status);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({
        type: "error",
        error: { type, message: `loopback ${status}` },
      });
    }
    expect(() => scenarios.httpError(200)).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("answers successive requests from a sequence, and fails loudly past its end", async () => {
    const model = await start(scenarios.sequence([scenarios.text("one"), scenarios.httpError(529, "busy")]));
    expect(deltas(await events(model.url, body())).map((d) => d.text)).toEqual(["one"]);
    expect((await post(model.url, body())).status).toBe(529);
    const past = await post(model.url, body());
    expect(past.status).toBe(500);
    const exhausted = JSON.stringify(await past.json());
    expect(exhausted).toContain("sequence of 2 exhausted at request 3");
    expect(exhausted).toContain("add a scenario or pass exhausted:");
    model.setScenario(
      scenarios.sequence([scenarios.text("a"), scenarios.text("b")], { exhausted: "repeat-last" }),
    );
    for (const expected of ["a", "b", "b"])
      expect(deltas(await events(model.url, body())).map((d) => d.text)).toEqual([expected]);
    expect(() => scenarios.sequence([])).toThrow(expect.objectContaining({ code: "SCENARIO_INVALID" }));
  });

  it("answers a Responses API (codex) scenario with a 500 naming the scenarios it needs, streamed or not", async () => {
    const model = await start(modelScenarios.text("for codex"));
    for (const payload of [body(), body([], { stream: false })]) {
      const response = await post(model.url, payload);
      expect(response.status).toBe(500);
      const message = JSON.stringify(await response.json());
      expect(message).toContain("response.created");
      expect(message).toContain("messagesScenarios");
    }
  });

  it("answers 500 when a scenario's answer is not a plan, instead of resetting the connection", async () => {
    const plans: unknown[] = [undefined, { type: "http-error", status: 1000, body: {} }, { type: "stream" }];
    const model = await start((_request, index) => plans[index] as never);
    for (const plan of plans) {
      const response = await post(model.url, body());
      expect(response.status, JSON.stringify(plan)).toBe(500);
      expect(JSON.stringify(await response.json())).toContain("scenario returned");
    }
  });

  it("answers 500 with the message of a scenario that throws", async () => {
    const model = await start(() => {
      throw new Error("scenario bug");
    });
    const response = await post(model.url, body());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "api_error", message: "loopback: scenario threw: scenario bug" },
    });
  });

  it("hangs without an answer, or after message_start, until the server closes", async () => {
    const model = await start(scenarios.hang());
    const pending = post(model.url, body()).then(
      () => "answered",
      () => "failed",
    );
    await model.waitForMessagesRequests(1);
    model.setScenario(scenarios.hang({ after: "message_start" }));
    const started = await post(model.url, body());
    expect(started.status).toBe(200);
    const reader = started.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(parseServerSentEvents(first).map((e) => e.event)).toEqual(["message_start"]);
    await model.close();
    expect(await pending).toBe("failed");
    await expect(reader.read()).rejects.toThrow();
  });

  it("waits for requests, rejects waiters when it closes and on abort", async () => {
    const model = await start();
    const waiting = model.waitForMessagesRequests(1);
    await events(model.url, body());
    expect(await waiting).toHaveLength(1);
    const controller = new AbortController();
    const aborted = model.waitForMessagesRequests(5, { signal: controller.signal });
    controller.abort(new Error("stop waiting"));
    await expect(aborted).rejects.toThrow("stop waiting");
    const orphan = model.waitForMessagesRequests(2);
    await model.close();
    const error = await orphan.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoopbackMessagesServerClosedError);
    expect(isRennetError(error, "LOOPBACK_MESSAGES_CLOSED")).toBe(true);
    await expect(model.waitForMessagesRequests(3)).rejects.toBeInstanceOf(LoopbackMessagesServerClosedError);
    await model.close();
  });

  it("decodes a gzip body and refuses one over the limit with 413", async () => {
    const model = await start(undefined, 64);
    const small = await fetch(`${model.url}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(JSON.stringify({ a: 1 })),
    });
    expect(small.status).toBe(200);
    expect(model.requests[0]?.body).toEqual({ a: 1 });
    const big = await post(model.url, body());
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { type: string } }).error.type).toBe("request_too_large");
  });
});
