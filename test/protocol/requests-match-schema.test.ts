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
import { KNOWN_NOTIFICATION_METHODS } from "../../src/codex/protocol/known-methods.js";
import {
  buildInitializeParams,
  buildThreadStartParams,
  buildTurnStartParams,
} from "../../src/codex/protocol/protocol-requests.js";
import { PINNED_CODEX_VERSION, TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { answerServerRequest } from "../../src/internal/test-hooks.js";

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
  async function serverRequestMethods(): Promise<string[]> {
    const serverRequest = await load("ServerRequest");
    return (serverRequest.oneOf as Schema[]).flatMap(
      (o) => ((o.properties as Schema).method as { enum: string[] }).enum,
    );
  }

  it.for(cases)("%s → %s", async ([method, schemaName, params], context) => {
    // older versions lack some server requests (0.72 has 4, the pinned one 10): codex never sends those
    if (!(await serverRequestMethods()).includes(method))
      context.skip(`codex ${testCodexVersion() ?? "(unknown)"} has no server request ${method}`);
    const reply = answerServerRequest(method, params);
    expect(reply.type).toBe("result");
    if (reply.type === "result") expect(await validate(schemaName, reply.result)).toEqual([]);
  });

  it("every server request method of the binary gets a deliberate answer (not -32601)", async () => {
    const methods = await serverRequestMethods();
    expect(methods.length).toBeGreaterThan(testCodexVersion() === PINNED_CODEX_VERSION ? 5 : 3);
    for (const method of methods) {
      const reply = answerServerRequest(method, {});
      expect(reply.type === "error" && reply.code === -32601, method).toBe(false);
    }
  });
});

describe("known notification methods", () => {
  /**
   * Notifications of older supported versions that Rennet does not know: each passes through as an `unknown`
   * event, and `rennet codex doctor` names it (see docs/compatibility.md).
   */
  const RETIRED = [
    "authStatusChange",
    "loginChatGptComplete",
    "sessionConfigured",
    "thread/realtime/transcriptUpdated",
  ];

  async function binaryMethods(): Promise<string[]> {
    const notification = await load("ServerNotification");
    return (notification.oneOf as Schema[]).flatMap(
      (o) => ((o.properties as Schema).method as { enum: string[] }).enum,
    );
  }

  it.runIf(testCodexVersion() === PINNED_CODEX_VERSION)(
    "match the pinned binary's ServerNotification schema exactly",
    async () => {
      const methods = await binaryMethods();
      // The TypeScript bindings also list two experimental methods that the JSON Schema omits.
      const experimental = ["rawResponse/completed", "rawResponseItem/completed"];
      expect([...KNOWN_NOTIFICATION_METHODS].filter((m) => !experimental.includes(m)).sort()).toEqual(
        [...methods].sort(),
      );
    },
  );

  it.runIf(testCodexVersion() !== PINNED_CODEX_VERSION)(
    `cover every notification of codex ${testCodexVersion() ?? "(unknown)"} but the documented retired ones`,
    async () => {
      const known = new Set<string>(KNOWN_NOTIFICATION_METHODS);
      const unknown = (await binaryMethods()).filter((method) => !known.has(method));
      expect(unknown.filter((method) => !RETIRED.includes(method))).toEqual([]);
    },
  );
});
