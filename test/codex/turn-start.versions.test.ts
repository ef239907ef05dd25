import { describe, expect, it } from "vitest";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { collect } from "../helpers/collect.js";
import { startFakeSession } from "../helpers/fake-session.js";

const userAgent = (version: string) => ({ result: { userAgent: `codex_cli_rs/${version} (fake)` } });
const MCP_FRAGMENT = { mcp_servers: { user_server: { enabled: false } } };

describe("the start sequence follows the version initialize reports", () => {
  it("refuses a codex older than the oldest supported before any thread work: spawn failure CODEX_UNSUPPORTED_VERSION", async () => {
    const { fake, session } = startFakeSession({
      replies: { initialize: userAgent("0.66.0") },
      turn: fakeSteps.textTurn("never"),
    });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNSUPPORTED_VERSION" });
    expect(terminal.failure?.message).toMatch(/0\.66\.0 is older than the oldest supported 0\.72\.0/);
    expect(fake.peer.requestsOf("thread/start")).toEqual([]);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it.each([
    ["0.72.0", "failed"],
    ["0.80.0", "completed"],
  ])(
    "codex %s with an output schema: refused before thread work where outputSchema would be ignored (%s)",
    async (version, outcome) => {
      const { fake, session } = startFakeSession(
        { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn('{"a":"x"}') },
        { outputSchema: { type: "object", properties: { a: { type: "string" } } } },
      );
      const { terminal } = await collect(session);
      expect(terminal.outcome).toBe(outcome);
      if (outcome === "failed") {
        expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNSUPPORTED_VERSION" });
        expect(terminal.failure?.message).toBe(
          "codex 0.72.0 cannot do structured output (`turn/start.outputSchema`), which needs 0.80.0 or " +
            "newer; upgrade with `npm i -g @openai/codex@latest`",
        );
        expect(fake.peer.requestsOf("thread/start")).toEqual([]);
      } else {
        expect(fake.peer.requestsOf("turn/start")[0]?.params).toHaveProperty("outputSchema");
      }
    },
  );

  it("0.122 (trust rewrite at thread/start) with an untrusted cwd: the thread starts read-only, the turn keeps full access", async () => {
    const { fake, session } = startFakeSession({
      replies: {
        initialize: userAgent("0.122.0"),
        "config/read": { result: { config: { projects: { "/work/repo": { trust_level: "untrusted" } } } } },
      },
      turn: fakeSteps.textTurn("ok"),
    });
    const { terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    const threadStart = fake.peer.requestsOf("thread/start")[0]?.params as Record<string, unknown>;
    expect(threadStart.sandbox).toBe("read-only");
    const turnStart = fake.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>;
    expect(turnStart.sandboxPolicy).toEqual({ type: "dangerFullAccess" });
  });

  it("the pinned generation starts the thread with full access", async () => {
    const { fake, session } = startFakeSession({ turn: fakeSteps.textTurn("ok") });
    await collect(session);
    const threadStart = fake.peer.requestsOf("thread/start")[0]?.params as Record<string, unknown>;
    expect(threadStart.sandbox).toBe("danger-full-access");
  });

  it.each([
    ["0.72.0", true],
    ["0.171.0", false],
  ])(
    "codex %s: the MCP policy goes into the thread config only where launch overrides miss threads (%s)",
    async (version, expected) => {
      const { fake, session } = startFakeSession(
        { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn("ok") },
        {
          prepare: () =>
            Promise.resolve({
              codex: { type: "native", command: "codex" },
              appServerArgs: [],
              mcpThreadConfig: MCP_FRAGMENT,
            }),
        },
      );
      expect((await collect(session)).terminal.outcome).toBe("completed");
      const config = (fake.peer.requestsOf("thread/start")[0]?.params as { config?: Record<string, unknown> })
        .config;
      expect(config !== undefined && "mcp_servers" in config).toBe(expected);
    },
  );

  describe("approvals routed on a codex that calls MCP tools unasked (before 0.117)", () => {
    const approvals = { mode: "untrusted" as const, onRequest: () => "accept" as const };
    const withServers = (mcpServersMayStart: boolean | undefined) => ({
      approvals,
      approvalMode: "untrusted" as const,
      prepare: () =>
        Promise.resolve({
          codex: { type: "native" as const, command: "codex" },
          appServerArgs: [],
          ...(mcpServersMayStart === undefined ? {} : { mcpServersMayStart }),
        }),
    });
    const warningsOf = async (version: string, options: Record<string, unknown>) => {
      const { session } = startFakeSession(
        { replies: { initialize: userAgent(version) }, turn: fakeSteps.textTurn("ok") },
        options,
      );
      const { events, terminal } = await collect(session);
      expect(terminal.outcome).toBe("completed");
      return events
        .map((event) => (event.type === "warning" ? event.method : event.type))
        .filter(
          (type) => type === "session.started" || type === "turn.started" || type.startsWith("rennet/"),
        );
    };

    it("0.116 with the user's servers inherited: a warning right after session.started", async () => {
      expect(await warningsOf("0.116.0", withServers(undefined))).toEqual([
        "session.started",
        "rennet/mcpToolCallsUnasked",
        "turn.started",
      ]);
    });

    it.each([
      ["0.117.0 (it asks)", "0.117.0", withServers(true)],
      ["0.116.0 without approvals", "0.116.0", {}],
      ["0.116.0 with a policy that starts no server", "0.116.0", withServers(false)],
    ])("%s: no warning", async (_name, version, options) => {
      expect(await warningsOf(version, options)).toEqual(["session.started", "turn.started"]);
    });
  });
});
