import { describe, expect, it } from "vitest";
import { bypassRefusal } from "../../src/claude/bypass-refusal.js";
import { claudeCapabilities } from "../../src/claude/capabilities.js";
import { claudeTurnArgs, mcpArgs, settingSources } from "../../src/claude/turn-argv.js";
import { isRennetError } from "../../src/errors.js";

const newest = claudeCapabilities("2.1.332 (Claude Code)");

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isRennetError(error) ? error.code : `not a RennetError: ${String(error)}`;
  }
  return undefined;
}

describe("claudeTurnArgs", () => {
  it("defaults to a stream-json turn that asks no one, keeps no transcript and loads only the user's settings and no MCP server", () => {
    expect(claudeTurnArgs({ capabilities: newest })).toEqual([
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--permission-mode=bypassPermissions",
      "--replay-user-messages",
      "--no-session-persistence",
      "--setting-sources=user",
      "--strict-mcp-config",
      '--mcp-config={"mcpServers":{}}',
    ]);
  });

  it("passes every value in --flag=value form so that a value cannot become a flag", () => {
    const args = claudeTurnArgs({
      capabilities: newest,
      permissionMode: "acceptEdits",
      permissionPromptTool: "stdio",
      persistSession: true,
      resume: "5F0E7A51-0000-4000-8000-000000000000",
      model: "--dangerously-skip-permissions",
      effort: "xhigh",
      jsonSchema: { type: "object", properties: { a: { type: "string" } } },
      maxBudgetUsd: 0.5,
      trustProject: true,
      mcp: {
        servers: {
          app: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        },
      },
    });
    expect(args.slice(7)).toEqual([
      "--permission-mode=acceptEdits",
      "--replay-user-messages",
      "--permission-prompt-tool=stdio",
      // Claude Code finds a transcript by its lower-case id only
      "--resume=5f0e7a51-0000-4000-8000-000000000000",
      "--model=--dangerously-skip-permissions",
      "--effort=xhigh",
      '--json-schema={"type":"object","properties":{"a":{"type":"string"}}}',
      "--max-budget-usd=0.5",
      "--setting-sources=user,project,local",
      "--strict-mcp-config",
      '--mcp-config={"mcpServers":{"app":{"type":"http","url":"http://127.0.0.1:9/mcp","headers":{"Authorization":"Bearer ${TOKEN}"}}}}',
    ]);
    expect(args).not.toContain("--no-session-persistence");
  });

  it("leaves Claude's own MCP configuration in charge only for mcp: inherit", () => {
    expect(mcpArgs("inherit")).toEqual([]);
    const args = claudeTurnArgs({ capabilities: newest, mcp: "inherit" });
    expect(args.some((arg) => arg.includes("mcp"))).toBe(false);
  });

  it("keeps a server named like an Object.prototype member as a plain key", () => {
    expect(
      mcpArgs({ servers: JSON.parse('{"__proto__":{"type":"http","url":"http://127.0.0.1:1"}}') as never }),
    ).toEqual([
      "--strict-mcp-config",
      '--mcp-config={"mcpServers":{"__proto__":{"type":"http","url":"http://127.0.0.1:1"}}}',
    ]);
  });

  it("refuses what Claude Code would reject or misread, before anything starts", () => {
    for (const resume of [
      "my session title",
      "urn:uuid:5f0e7a51-0000-4000-8000-000000000000",
      "5f0e7a51000040008000000000000000",
      "{5f0e7a51-0000-4000-8000-000000000000}",
    ])
      expect(() => claudeTurnArgs({ capabilities: newest, resume })).toThrow(
        expect.objectContaining({ code: "RESUME_ID_INVALID", name: "InvalidTurnInputError" }),
      );
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, model: " " }))).toBe("OPTIONS_INVALID");
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, model: "a\nb" }))).toBe("OPTIONS_INVALID");
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, maxBudgetUsd: 0 }))).toBe("OPTIONS_INVALID");
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, maxBudgetUsd: Number.NaN }))).toBe(
      "OPTIONS_INVALID",
    );
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, effort: "extreme" }))).toBe("EFFORT_INVALID");
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, permissionMode: "yolo" as never }))).toBe(
      "OPTIONS_INVALID",
    );
    expect(codeOf(() => claudeTurnArgs({ capabilities: newest, jsonSchema: [] as never }))).toBe(
      "OPTIONS_INVALID",
    );
    expect(codeOf(() => mcpArgs({ servers: { "": {} } }))).toBe("OPTIONS_INVALID");
    expect(codeOf(() => mcpArgs({ servers: { a: "http://x" as never } }))).toBe("OPTIONS_INVALID");
  });

  it("refuses --effort on a version that lacks it, and xhigh before 2.1.111, naming the version that has it", () => {
    const old = claudeCapabilities("2.0.77 (Claude Code)");
    expect(() => claudeTurnArgs({ capabilities: old, effort: "low" })).toThrow(
      "Claude Code 2.0.77 cannot do --effort, which needs 2.1.38 or newer",
    );
    expect(codeOf(() => claudeTurnArgs({ capabilities: old, effort: "low" }))).toBe(
      "CLAUDE_UNSUPPORTED_VERSION",
    );
    const mid = claudeCapabilities("2.1.110");
    expect(claudeTurnArgs({ capabilities: mid, effort: "max" })).toContain("--effort=max");
    expect(() => claudeTurnArgs({ capabilities: mid, effort: "xhigh" })).toThrow("needs 2.1.111 or newer");
  });

  it("states the setting sources of an untrusted and a trusted project", () => {
    expect(settingSources(false)).toBe("user");
    expect(settingSources(true)).toBe("user,project,local");
  });
});

describe("bypassRefusal", () => {
  it("predicts Claude's refusal of bypassPermissions to root without IS_SANDBOX=1", () => {
    const base = { permissionMode: "bypassPermissions" as const, uid: 0, env: {} };
    expect(bypassRefusal(base)?.code).toBe("CLAUDE_BYPASS_REFUSED");
    expect(bypassRefusal(base)?.message).toContain("IS_SANDBOX=1");
    expect(bypassRefusal({ ...base, env: { IS_SANDBOX: "yes" } })?.code).toBe("CLAUDE_BYPASS_REFUSED");
    expect(bypassRefusal({ ...base, env: { IS_SANDBOX: "1" } })).toBeNull();
    expect(bypassRefusal({ ...base, uid: 1000 })).toBeNull();
    expect(bypassRefusal({ ...base, uid: null })).toBeNull();
    expect(bypassRefusal({ ...base, permissionMode: "acceptEdits" })).toBeNull();
  });
});
