/**
 * Protocol check: generate the JSON Schema from the pinned codex binary and validate every request and reply
 * the adapter sends against it. Nothing generated is committed.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AjvModule from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerServerRequest } from "../../src/codex/turn/approvals.js";
import { KNOWN_NOTIFICATION_METHODS } from "../../src/codex/turn/known-methods.js";
import {
  buildInitializeParams,
  buildThreadStartParams,
  buildTurnStartParams,
} from "../../src/codex/protocol-requests.js";
import { TEST_CODEX_BIN } from "../helpers/codex-bin.js";

const Ajv = AjvModule.default ?? AjvModule;
type Schema = Record<string, unknown>;

let dir = "";
let home = "";
const schemas = new Map<string, Schema>();

async function load(name: string): Promise<Schema> {
  const cached = schemas.get(name);
  if (cached) return cached;
  const schema = JSON.parse(await readFile(path.join(dir, `${name}.json`), "utf8")) as Schema;
  schemas.set(name, schema);
  return schema;
}

async function validate(schemaName: string, value: unknown): Promise<string[]> {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const check = ajv.compile(await load(schemaName));
  if (check(value)) return [];
  return (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rennet-schema-"));
  home = await mkdtemp(path.join(os.tmpdir(), "rennet-schema-home-"));
  await promisify(execFile)(TEST_CODEX_BIN, ["app-server", "generate-json-schema", "--out", dir], {
    env: { ...process.env, CODEX_HOME: home },
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe("requests Rennet sends validate against the pinned codex schema", () => {
  const turnOptions = { prompt: "hello", cwd: "/tmp/repo", model: "gpt-test" };

  it.each([
    ["initialize", buildInitializeParams()],
    ["thread/start", buildThreadStartParams(turnOptions)],
    [
      "thread/start",
      buildThreadStartParams({
        ...turnOptions,
        threadConfig: { projects: { "/tmp/repo": { trust_level: "trusted" } } },
      }),
    ],
    ["turn/start", buildTurnStartParams("thr_1", turnOptions)],
    [
      "turn/start",
      buildTurnStartParams("thr_1", {
        ...turnOptions,
        outputSchema: {
          type: "object",
          properties: { a: { type: "string" } },
          required: ["a"],
          additionalProperties: false,
        },
        effort: "high",
      }),
    ],
    ["turn/interrupt", { threadId: "thr_1", turnId: "turn_1" }],
  ])("%s", async (method, params) => {
    expect(await validate("ClientRequest", { id: 1, method, params })).toEqual([]);
  });

  it("rejects a request the binary would refuse (the check can fail)", async () => {
    const bad = {
      ...buildTurnStartParams("thr_1", turnOptions),
      sandboxPolicy: { type: "danger-full-access" },
    };
    expect(await validate("ClientRequest", { id: 1, method: "turn/start", params: bad })).not.toEqual([]);
  });

  it("the initialized notification", async () => {
    expect(await validate("ClientNotification", { method: "initialized" })).toEqual([]);
  });
});

describe("replies to server requests validate against their response schemas", () => {
  const cases: [string, string, unknown][] = [
    ["item/commandExecution/requestApproval", "CommandExecutionRequestApprovalResponse", {}],
    ["item/fileChange/requestApproval", "FileChangeRequestApprovalResponse", {}],
    ["item/permissions/requestApproval", "PermissionsRequestApprovalResponse", {}],
    ["item/tool/requestUserInput", "ToolRequestUserInputResponse", {}],
    [
      "mcpServer/elicitation/request",
      "McpServerElicitationRequestResponse",
      { _meta: { codex_approval_kind: "mcp_tool_call" } },
    ],
    ["mcpServer/elicitation/request", "McpServerElicitationRequestResponse", { _meta: null }],
    ["execCommandApproval", "ExecCommandApprovalResponse", {}],
    ["applyPatchApproval", "ApplyPatchApprovalResponse", {}],
  ];
  it.each(cases)("%s → %s", async (method, schemaName, params) => {
    const reply = answerServerRequest(method, params);
    expect(reply.type).toBe("result");
    if (reply.type === "result") expect(await validate(schemaName, reply.result)).toEqual([]);
  });

  it("every server request method of the pinned binary gets a deliberate answer (not -32601)", async () => {
    const serverRequest = await load("ServerRequest");
    const methods = (serverRequest.oneOf as Schema[]).flatMap(
      (o) => ((o.properties as Schema).method as { enum: string[] }).enum,
    );
    expect(methods.length).toBeGreaterThan(5);
    for (const method of methods) {
      const reply = answerServerRequest(method, {});
      expect(reply.type === "error" && reply.code === -32601, method).toBe(false);
    }
  });
});

describe("known notification methods", () => {
  it("match the pinned binary's ServerNotification schema exactly", async () => {
    const notification = await load("ServerNotification");
    const methods = (notification.oneOf as Schema[]).flatMap(
      (o) => ((o.properties as Schema).method as { enum: string[] }).enum,
    );
    // The TypeScript bindings also list two experimental methods that the JSON Schema omits.
    const experimental = ["rawResponse/completed", "rawResponseItem/completed"];
    expect([...KNOWN_NOTIFICATION_METHODS].filter((m) => !experimental.includes(m)).sort()).toEqual(
      [...methods].sort(),
    );
  });
});
