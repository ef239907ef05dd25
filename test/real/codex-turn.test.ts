import { afterEach, describe, expect, it } from "vitest";
import { command, httpError, text } from "../../src/testkit/model-scenarios.js";
import { collect, ofType } from "../helpers/collect.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

describe("real codex, offline", () => {
  it("a text turn completes with streamed text and usage", async () => {
    fixture = await startRealCodex(text("Hello from the loopback model"));
    const session = fixture.client.runStreamed({ prompt: "say hello", cwd: fixture.cwd });
    const { events, terminal } = await collect(session);
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("Hello from the loopback model");
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Hello from the loopback model");
    expect(terminal.usage?.inputTokens).toBe(120);
  });

  it("a command turn runs the command, streams its output and sums usage over both model requests", async () => {
    fixture = await startRealCodex(
      command("echo rennet-first; sleep 1; echo rennet-second", { then: "done", yieldTimeMs: 30_000 }),
    );
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "run it", cwd: fixture.cwd }),
    );
    expect(terminal.outcome).toBe("completed");
    const started = ofType(events, "tool.started");
    expect(started[0]?.tool).toBe("command");
    // Output that arrives while the command runs is streamed as tool.output (codex 0.171.0 does not stream
    // what the command printed before its first poll; that part is only in aggregatedOutput).
    expect(
      ofType(events, "tool.output")
        .map((e) => e.text)
        .join(""),
    ).toContain("rennet-second");
    const completed = ofType(events, "tool.completed")[0];
    expect(completed?.exitCode).toBe(0);
    // what aggregatedOutput holds differs by version (0.171 keeps both lines, 0.130 only what followed the poll)
    expect(completed?.item.aggregatedOutput).toContain("rennet-second\n");
    expect(terminal.usage?.inputTokens).toBe(1000 + 1300);
    expect(terminal.usage?.outputTokens).toBe(50 + 70);
  });

  it("a model HTTP error is a turn failure carrying the provider message", async () => {
    fixture = await startRealCodex(httpError(400, "loopback says no"));
    const { terminal } = await collect(fixture.client.runStreamed({ prompt: "fail", cwd: fixture.cwd }));
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure?.source).toBe("turn");
    expect(terminal.failure?.message).toContain("loopback says no");
  });
});

describe("spawn failure", () => {
  it("a missing executable ends with a spawn failure CODEX_UNAVAILABLE before anything is spawned", async () => {
    const { createCodex } = await import("../../src/codex/client/codex-client.js");
    const client = createCodex({ codex: "/nonexistent/rennet/codex" });
    const { events, terminal } = await collect(client.runStreamed({ prompt: "x" }));
    expect(events).toHaveLength(1);
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({ source: "spawn", errno: null, code: "CODEX_UNAVAILABLE" });
    expect(terminal.failure?.message).toContain("/nonexistent/rennet/codex: not found");
  });
});

describe("discovery in the client", () => {
  it("without an explicit codex, the client discovers one (RENNET_CODEX_BIN first) and runs the turn", async () => {
    fixture = await startRealCodex(text("discovered"));
    const { createCodex } = await import("../../src/codex/client/codex-client.js");
    const { TEST_CODEX_BIN } = await import("../helpers/codex-bin.js");
    const env = { ...fixture.env, RENNET_CODEX_BIN: TEST_CODEX_BIN, SHELL: "/nonexistent/shell" };
    const client = createCodex({ env, discovery: { cacheDir: fixture.cwd } });
    const { events, terminal } = await collect(client.runStreamed({ prompt: "hi", cwd: fixture.cwd }));
    expect(terminal.outcome).toBe("completed");
    expect(terminal.finalMessage).toBe("discovered");
    expect(ofType(events, "session.started")[0]?.harnessVersion).toBe(testCodexVersion());
  });

  it("when nothing can be discovered, the turn fails before spawning with CODEX_UNAVAILABLE", async () => {
    const { createCodex } = await import("../../src/codex/client/codex-client.js");
    const { mkdtemp, rm } = await import("node:fs/promises");
    const os = await import("node:os");
    const path = await import("node:path");
    const empty = await mkdtemp(path.join(os.tmpdir(), "rennet-nocodex-"));
    try {
      const env = {
        PATH: empty,
        HOME: empty,
        SHELL: "/nonexistent/shell",
        RENNET_CODEX_BIN: path.join(empty, "codex"),
      };
      const client = createCodex({ env, discovery: { cacheDir: empty, homedir: empty, systemRoot: empty } });
      const { events, terminal } = await collect(client.runStreamed({ prompt: "hi", cwd: empty }));
      expect(events).toHaveLength(1);
      expect(terminal.failure).toMatchObject({ source: "spawn", code: "CODEX_UNAVAILABLE", errno: null });
      expect(terminal.failure?.message).toContain("rennet codex doctor");
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe("hostile configuration", () => {
  it("a config.toml codex cannot load ends the turn with one failure that keeps codex's own explanation", async () => {
    fixture = await startRealCodex(text("never"));
    const { writeFile } = await import("node:fs/promises");
    const path = await import("node:path");
    await writeFile(
      path.join(fixture.home, "config.toml"),
      'model = "x"\n[mcp_servers.broken]\nenabled = false\n',
    );
    const { events, terminal } = await collect(
      fixture.client.runStreamed({ prompt: "hi", cwd: fixture.cwd }),
    );
    expect(ofType(events, "terminal")).toHaveLength(1);
    expect(terminal.outcome).toBe("failed");
    const failure = terminal.failure;
    expect(failure?.source === "exit" || failure?.source === "jsonrpc").toBe(true);
    const detail = failure?.source === "exit" ? failure.stderrTail : failure?.message;
    expect(detail).toMatch(/broken|transport|config/i);
    expect(fixture.model.responsesRequests()).toHaveLength(0);
  });
});
