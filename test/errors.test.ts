/** Every error class is a RennetError with a stable code and its own name; the table is docs/errors.md. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../src/cli/usage-error.js";
import { CodexUnavailableError } from "../src/codex/codex-unavailable-error.js";
import { LaunchCwdError } from "../src/discovery/launch-cwd-error.js";
import type { DiscoveryReport } from "../src/discovery/discovery-report.js";
import { McpPolicyError } from "../src/mcp/mcp-policy-error.js";
import { InvalidSchemaError } from "../src/schema/schema-validator.js";
import { UnsupportedSchemaError } from "../src/schema/unsupported-schema-error.js";
import { InvalidEffortError } from "../src/codex/client/reasoning-effort.js";
import { RennetError } from "../src/errors.js";
import { TurnCancelledError, TurnFailedError } from "../src/harness/errors.js";
import type { CancelledTerminalEvent, FailedTerminalEvent, TerminalEvent } from "../src/harness/events.js";
import { ConnectionClosedError, JsonRpcResponseError, RequestTimeoutError } from "../src/jsonl/errors.js";
import { LoopbackModelServerClosedError } from "../src/testkit/loopback-model-server.js";
import { UntrustedProjectConfigError } from "../src/codex/trust/untrusted-project-guard.js";
import { REPO_ROOT } from "./helpers/codex-bin.js";
import { SpawnRegistryError } from "../src/internal/test-hooks.js";

const terminal = {
  type: "terminal",
  outcome: "failed",
  failure: { source: "exit", message: "exited with code 1" },
  cancellation: { reason: "stop" },
} as unknown as TerminalEvent;

const report = { available: false, reason: "nothing found", candidates: [] } as unknown as DiscoveryReport;

const cases: Array<[error: RennetError, name: string, code: string]> = [
  [new TurnFailedError(terminal as FailedTerminalEvent), "TurnFailedError", "TURN_FAILED"],
  [
    new TurnCancelledError(terminal as unknown as CancelledTerminalEvent),
    "TurnCancelledError",
    "TURN_CANCELLED",
  ],
  [new CodexUnavailableError(report), "CodexUnavailableError", "CODEX_UNAVAILABLE"],
  [new LaunchCwdError("C:\\x", "Ubuntu", "no"), "LaunchCwdError", "LAUNCH_CWD_UNMAPPABLE"],
  [new InvalidEffortError("huge"), "InvalidEffortError", "EFFORT_INVALID"],
  [new InvalidSchemaError("bad"), "InvalidSchemaError", "SCHEMA_INVALID"],
  [
    new UnsupportedSchemaError([{ pointer: "#", message: "no" }]),
    "UnsupportedSchemaError",
    "SCHEMA_UNSUPPORTED",
  ],
  [new McpPolicyError("MCP_NAME_EMPTY", "empty"), "McpPolicyError", "MCP_NAME_EMPTY"],
  [new JsonRpcResponseError("thread/start", -32600, "no", null), "JsonRpcResponseError", "JSONRPC_ERROR"],
  [new RequestTimeoutError("initialize", 5), "RequestTimeoutError", "REQUEST_TIMEOUT"],
  [new ConnectionClosedError("initialize", "eof"), "ConnectionClosedError", "CONNECTION_CLOSED"],
  [new SpawnRegistryError("unsafe"), "SpawnRegistryError", "SPAWN_REGISTRY_UNAVAILABLE"],
  [new LoopbackModelServerClosedError(2, 1), "LoopbackModelServerClosedError", "LOOPBACK_MODEL_CLOSED"],
  [new UsageError("bad flag", "rennet codex run"), "UsageError", "CLI_USAGE"],
  [
    new UntrustedProjectConfigError("0.80.0", ["/r/.codex/config.toml"]),
    "UntrustedProjectConfigError",
    "UNTRUSTED_PROJECT_CONFIG",
  ],
];

describe("error classes", () => {
  it.each(cases)("%s is a RennetError named %s with code %s", (error, name, code) => {
    expect(error).toBeInstanceOf(RennetError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.message).not.toBe("");
  });

  it("docs/errors.md lists every code with its class", () => {
    const doc = readFileSync(path.join(REPO_ROOT, "docs", "errors.md"), "utf8");
    for (const [, name, code] of cases)
      expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\| \`${name}\` \\|`));
  });

  it("keeps the cause and the details it is given", () => {
    const cause = new Error("root");
    const error = new RennetError("INTERNAL_ERROR", "it broke", { cause, details: { step: 2 } });
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ step: 2 });
    expect(new McpPolicyError("MCP_INVENTORY_FAILED", "x", { cause }).cause).toBe(cause);
    expect(new LoopbackModelServerClosedError(3, 1).details).toEqual({ awaited: 3, received: 1 });
  });

  it("CodexUnavailableError keeps its report and says what to do; a message replaces the default", () => {
    const fromDiscovery = new CodexUnavailableError(report);
    expect(fromDiscovery.report).toBe(report);
    expect(fromDiscovery.message).toContain("nothing found");
    expect(fromDiscovery.message).toContain("rennet codex doctor");
    const fromCli = new CodexUnavailableError(null, "Codex is unavailable: pass --codex-bin PATH.");
    expect(fromCli.report).toBeNull();
    expect(fromCli.message).toBe("Codex is unavailable: pass --codex-bin PATH.");
  });
});
