import { describe, expect, it } from "vitest";
import type { TerminalEvent } from "../../src/harness/events.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { startCli } from "./helpers/cli-harness.js";
import { waitFor } from "../helpers/wait.js";

describe("rennet codex run: SIGINT/SIGTERM", () => {
  it("SIGINT mid-turn interrupts the turn, prints the cancelled terminal frame and exits 130", async () => {
    const cli = startCli(["codex", "run", "--json", "hi"], { script: { turn: [fakeSteps.turnStarted()] } });
    await cli.waitForStdout('"turn.started"');
    expect(cli.signals.listenerCount).toBe(3); // SIGINT, SIGTERM and SIGHUP
    cli.signals.emit("SIGINT");
    expect(await cli.exit).toBe(130);
    const events = cli.events();
    const terminal = events.at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { via: "interrupted", reason: "received SIGINT" },
    });
    expect(cli.fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(cli.fake.launches[0]?.terminated).toBe(true);
    expect(cli.stderr.text).toContain("SIGINT: cancelling the turn (codex gets up to 2 s to stop");
    expect(cli.signals.listenerCount).toBe(0);
  });

  it("a second SIGINT while cancelling keeps waiting for the bounded cleanup and sends no second interrupt", async () => {
    const cli = startCli(["codex", "run", "hi"], {
      script: {
        turn: [fakeSteps.turnStarted(), ...fakeSteps.agentMessage("m", ["partial answer"])],
        onInterrupt: [{ delayMs: 50 }, fakeSteps.turnCompleted("interrupted")],
      },
    });
    await cli.waitForStdout("partial answer\n");
    cli.signals.emit("SIGINT");
    cli.signals.emit("SIGINT");
    expect(await cli.exit).toBe(130);
    expect(cli.fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(cli.stderr.text).toContain(
      "SIGINT: already cancelling; waiting (at most 2 s plus cleanup) until codex's",
    );
    expect(cli.stderr.text).toMatch(/⊘ cancelled \(interrupted\): received SIGINT · model fake-model\n$/);
    expect(cli.signals.listenerCount).toBe(0);
  });

  it("SIGTERM cancels too; codex that does not answer the interrupt is killed after the grace", async () => {
    const cli = startCli(["codex", "run", "--json", "hi"], {
      script: { turn: [fakeSteps.turnStarted()], replies: { "turn/interrupt": { noReply: true } } },
      interruptGraceMs: 20,
    });
    await cli.waitForStdout('"turn.started"');
    cli.signals.emit("SIGTERM");
    expect(await cli.exit).toBe(130);
    const terminal = cli.events().at(-1) as TerminalEvent;
    expect(terminal).toMatchObject({
      outcome: "cancelled",
      cancellation: { via: "killed", reason: "received SIGTERM" },
    });
    expect(cli.fake.launches[0]?.terminated).toBe(true);
  });

  it("SIGINT while the prompt is still being read from stdin spawns nothing and exits 130", async () => {
    const cli = startCli(["codex", "run", "--json", "-"], { stdin: null });
    await waitFor(() => cli.signals.listenerCount > 0, "the CLI watching signals");
    cli.signals.emit("SIGINT");
    expect(await cli.exit).toBe(130);
    expect(cli.fake.launches).toHaveLength(0);
    const events = cli.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "terminal",
      outcome: "cancelled",
      cancellation: { via: "before-turn" },
    });
    expect(cli.signals.listenerCount).toBe(0);
  });

  it("a turn that completes is not affected by signal listeners, which are removed at the end", async () => {
    const cli = startCli(["codex", "run", "hi"], { script: { turn: fakeSteps.textTurn("ok") } });
    expect(await cli.exit).toBe(0);
    expect(cli.signals.listenerCount).toBe(0);
    cli.signals.emit("SIGINT"); // after the end: nothing happens, nothing throws
    expect(cli.fake.peer.requestsOf("turn/interrupt")).toHaveLength(0);
  });
});
