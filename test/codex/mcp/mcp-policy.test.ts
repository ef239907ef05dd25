import { describe, expect, it } from "vitest";
import { McpPolicyError } from "../../../src/mcp/mcp-policy-error.js";
import { checkLoopbackUrl } from "../../../src/mcp/loopback-url.js";
import { mcpPolicyFromFlags, parseMcpPolicy, type McpPolicy } from "../../../src/mcp/mcp-policy.js";
import { MAX_MCP_TIMEOUT_SEC, parseMcpServerFlag } from "../../../src/internal/test-hooks.js";
import { thrownBy } from "../../helpers/thrown.js";

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(McpPolicyError);
    return (error as McpPolicyError).code;
  }
}

describe("checkLoopbackUrl", () => {
  it.each([
    "http://127.0.0.1/mcp",
    "http://127.0.0.1:8123/mcp",
    "https://127.0.0.1:8443/",
    "http://127.255.255.254:1/x?y=1#z",
    "http://127.1.2.3",
    "http://localhost:3000/mcp",
    "HTTP://LOCALHOST:3000/mcp",
    "http://[::1]:9000/mcp",
    "https://[::1]/",
  ])("accepts %s", (url) => {
    expect(checkLoopbackUrl(url)).toEqual({ ok: true });
  });

  it.each([
    ["http://10.0.0.1/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://0.0.0.0:8080/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://example.com/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.0.0.1.evil.com/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://localhost.evil.com/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://localhost./mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.0.0.1@evil.com/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://evil.com@127.0.0.1/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://user:pass@127.0.0.1/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.0.0.1:80@evil.com/", "MCP_URL_NOT_LOOPBACK"],
    ["http://[::ffff:127.0.0.1]/", "MCP_URL_NOT_LOOPBACK"],
    ["http://[::2]/", "MCP_URL_NOT_LOOPBACK"],
    ["http://2130706433/", "MCP_URL_NOT_LOOPBACK"],
    ["http://0x7f.0.0.1/", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.1/", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.000.0.1/", "MCP_URL_NOT_LOOPBACK"],
    ["http://128.0.0.1/", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.0.0.256/", "MCP_URL_NOT_LOOPBACK"],
    ["http://127.0.0.1\\@evil.com/", "MCP_URL_INVALID"],
    ["http://127.0.0.1\t.evil.com/", "MCP_URL_INVALID"],
    ["http://127.0.0.1\n/", "MCP_URL_INVALID"],
    ["http://127.0.0.1 /", "MCP_URL_INVALID"],
    ["http://127.0.0.1\u007f/", "MCP_URL_INVALID"],
    ["ftp://127.0.0.1/", "MCP_URL_INVALID"],
    ["ws://127.0.0.1/", "MCP_URL_INVALID"],
    ["file:///tmp/x", "MCP_URL_INVALID"],
    ["//127.0.0.1/mcp", "MCP_URL_INVALID"],
    ["127.0.0.1:8080", "MCP_URL_INVALID"],
    ["http://127.0.0.1:0/", "MCP_URL_INVALID"],
    ["http://127.0.0.1:65536/", "MCP_URL_INVALID"],
    ["http://127.0.0.1:port/", "MCP_URL_INVALID"],
    ["", "MCP_URL_INVALID"],
  ])("refuses %j with %s", (url, code) => {
    const check = checkLoopbackUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.code).toBe(code);
  });
});

describe("parseMcpPolicy", () => {
  const ok = { name: "tools", url: "http://127.0.0.1:8123/mcp" };

  it("passes inherit, the empty policy and a full spec through as equal frozen copies", () => {
    expect(parseMcpPolicy("inherit")).toBe("inherit");
    const empty: McpPolicy = { servers: [] };
    expect(parseMcpPolicy(empty)).toEqual(empty);
    const full: McpPolicy = {
      servers: [
        {
          ...ok,
          bearerTokenEnvVar: "TOOLS_TOKEN",
          httpHeaders: { "X-Trace": 'a "quoted" value ü', Authorization: "Bearer x" },
          startupTimeoutSec: 2.5,
          toolTimeoutSec: MAX_MCP_TIMEOUT_SEC,
        },
      ],
    };
    const parsed = parseMcpPolicy(full);
    expect(parsed).toEqual(full);
    expect(parsed).not.toBe(full);
    expect(Object.isFrozen(parsed)).toBe(true);
  });

  it("returns a value it made as it is, and a caller's later change does not reach the copy", () => {
    const headers: Record<string, string> = { "X-A": "1" };
    const servers = [{ ...ok, httpHeaders: headers }];
    const parsed = parseMcpPolicy({ servers });
    expect(parseMcpPolicy(parsed)).toBe(parsed);
    servers[0] = { name: "remote", url: "http://10.0.0.1/", httpHeaders: headers };
    headers["X-A"] = "changed";
    expect(parsed).toEqual({ servers: [{ ...ok, httpHeaders: { "X-A": "1" } }] });
    expect(() => (parsed as unknown as { servers: unknown[] }).servers.push(ok)).toThrow(TypeError);
  });

  it.each([
    ["bearer_token_env_var", "bearerTokenEnvVar"],
    ["http_headers", "httpHeaders"],
    ["headers", "httpHeaders"],
    ["startupTimeoutSecs", "startupTimeoutSec"],
    ["URL", "url"],
  ])("names the field meant by an unknown field %s (%s)", (field, meant) => {
    expect(() => parseMcpPolicy({ servers: [{ ...ok, [field]: "X" }] })).toThrow(
      `MCP server "tools": unknown field "${field}": did you mean ${meant}? (allowed:`,
    );
  });

  it("accepts hostile but non-empty names: quoting is the renderer's job", () => {
    for (const name of ["a.b c", 'q"uo\\te', "ünï", "ctl\u0001", "del\u007f", "__proto__"]) {
      expect(codeOf(() => parseMcpPolicy({ servers: [{ ...ok, name }] }))).toBeNull();
    }
  });

  it.each<[string, unknown, string]>([
    ["an empty name", { servers: [{ ...ok, name: "" }] }, "MCP_NAME_EMPTY"],
    ["a duplicate name", { servers: [ok, { ...ok, url: "http://localhost:1/" }] }, "MCP_NAME_DUPLICATE"],
    ["a remote URL", { servers: [{ ...ok, url: "https://mcp.example.com/" }] }, "MCP_URL_NOT_LOOPBACK"],
    ["a non-string name", { servers: [{ ...ok, name: 3 }] }, "MCP_SPEC_INVALID"],
    ["a missing url", { servers: [{ name: "x" }] }, "MCP_SPEC_INVALID"],
    ["an unknown field", { servers: [{ ...ok, bearer_token_env_var: "X" }] }, "MCP_SPEC_INVALID"],
    ["a type field", { servers: [{ ...ok, type: "http" }] }, "MCP_SPEC_INVALID"],
    ["an empty env var name", { servers: [{ ...ok, bearerTokenEnvVar: "" }] }, "MCP_SPEC_INVALID"],
    ["an env var name with =", { servers: [{ ...ok, bearerTokenEnvVar: "A=B" }] }, "MCP_SPEC_INVALID"],
    [
      "a header name with a space",
      { servers: [{ ...ok, httpHeaders: { "X Bad": "v" } }] },
      "MCP_SPEC_INVALID",
    ],
    [
      "a header value with CRLF",
      { servers: [{ ...ok, httpHeaders: { "X-A": "v\r\nX-B: w" } }] },
      "MCP_SPEC_INVALID",
    ],
    ["a non-string header value", { servers: [{ ...ok, httpHeaders: { "X-A": 1 } }] }, "MCP_SPEC_INVALID"],
    ["a zero timeout", { servers: [{ ...ok, startupTimeoutSec: 0 }] }, "MCP_SPEC_INVALID"],
    ["an infinite timeout", { servers: [{ ...ok, toolTimeoutSec: Infinity }] }, "MCP_SPEC_INVALID"],
    [
      "a timeout above a day",
      { servers: [{ ...ok, toolTimeoutSec: MAX_MCP_TIMEOUT_SEC + 1 }] },
      "MCP_SPEC_INVALID",
    ],
    ["a policy without servers", { server: [] }, "MCP_SPEC_INVALID"],
    ["a policy field besides servers", { servers: [ok], inherit: true }, "MCP_SPEC_INVALID"],
  ])("refuses %s", (_what, policy, code) => {
    expect(codeOf(() => parseMcpPolicy(policy as McpPolicy))).toBe(code);
  });

  it("names the offending server and the fix in the message", () => {
    const error = thrownBy(() =>
      parseMcpPolicy({ servers: [{ name: "remote", url: "http://10.1.2.3/mcp" }] }),
    );
    expect(error).toBeInstanceOf(McpPolicyError);
    expect((error as Error).message).toContain('"remote"');
    expect((error as Error).message).toContain("127.0.0.0/8");
  });
});

describe("credentials in a refused URL", () => {
  it.each([
    ["userinfo", "http://me:TOPSECRET@127.0.0.1/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["userinfo on a remote host", "http://me:TOPSECRET@evil.com/mcp", "MCP_URL_NOT_LOOPBACK"],
    ["userinfo with two @", "http://me@x:TOPSECRET@127.0.0.1/", "MCP_URL_NOT_LOOPBACK"],
    ["userinfo and a space", "http://me:TOPSECRET@127.0.0.1 /mcp", "MCP_URL_INVALID"],
  ])("are not echoed in the error (%s)", (_what, url, code) => {
    const error = thrownBy(() => parseMcpPolicy({ servers: [{ name: "t", url }] }));
    expect(error).toMatchObject({ code });
    expect((error as Error).message).not.toContain("TOPSECRET");
    expect((error as Error).message).toContain("***@");
  });

  it("are not echoed by a --mcp-server value without NAME=", () => {
    const error = thrownBy(() => parseMcpServerFlag("http://me:TOPSECRET@127.0.0.1/mcp"));
    expect(error).toMatchObject({ code: "MCP_FLAG_INVALID" });
    expect((error as Error).message).not.toContain("TOPSECRET");
  });
});

describe("parseMcpServerFlag", () => {
  it("splits at the first =", () => {
    expect(parseMcpServerFlag("tools=http://127.0.0.1:8123/mcp?a=b")).toEqual({
      name: "tools",
      url: "http://127.0.0.1:8123/mcp?a=b",
    });
  });

  it.each([
    ["no equals sign", "tools", "MCP_FLAG_INVALID"],
    ["an empty name", "=http://127.0.0.1/", "MCP_NAME_EMPTY"],
    ["an empty url", "tools=", "MCP_URL_INVALID"],
    ["a remote url", "tools=http://example.com/", "MCP_URL_NOT_LOOPBACK"],
  ])("refuses %s", (_what, flag, code) => {
    expect(codeOf(() => parseMcpServerFlag(flag))).toBe(code);
  });
});

describe("mcpPolicyFromFlags", () => {
  it("maps the CLI flags to a policy", () => {
    expect(mcpPolicyFromFlags({})).toBe("inherit");
    expect(mcpPolicyFromFlags({ mcpServer: [] })).toBe("inherit");
    expect(mcpPolicyFromFlags({ mcpNone: true })).toEqual({ servers: [] });
    expect(mcpPolicyFromFlags({ mcpServer: ["a=http://127.0.0.1:1/", "b=http://[::1]:2/"] })).toEqual({
      servers: [
        { name: "a", url: "http://127.0.0.1:1/" },
        { name: "b", url: "http://[::1]:2/" },
      ],
    });
  });

  it("refuses --mcp-none with --mcp-server, and a repeated name", () => {
    expect(codeOf(() => mcpPolicyFromFlags({ mcpNone: true, mcpServer: ["a=http://127.0.0.1:1/"] }))).toBe(
      "MCP_FLAG_INVALID",
    );
    expect(
      codeOf(() => mcpPolicyFromFlags({ mcpServer: ["a=http://127.0.0.1:1/", "a=http://127.0.0.1:2/"] })),
    ).toBe("MCP_NAME_DUPLICATE");
  });
});
