import { describe, expect, it } from "vitest";
import { resolveCliIo } from "../../src/cli/cli-io.js";
import type { EventRenderer } from "../../src/cli/event-renderer.js";
import { runTurnCommand, type TurnCommand } from "../../src/cli/run-turn-command.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { RennetError } from "../../src/errors.js";
import { parseMcpPolicy } from "../../src/mcp/mcp-policy.js";
import { FakeSignals, TextSink } from "./helpers/cli-harness.js";

/** A turn command whose library refuses the call by throwing `thrown` from its start. */
function refusedBy(thrown: unknown): { command: TurnCommand; calls: string[] } {
  const calls: string[] = [];
  const renderer: EventRenderer = {
    begin: () => calls.push("begin"),
    render: () => calls.push("render"),
    notice: (message) => calls.push(`notice ${message}`),
    end: () => calls.push("end"),
  };
  const command: TurnCommand = {
    command: "rennet codex run",
    executable: "codex",
    promptArgument: "hi",
    options: {
      cwd: process.cwd(),
      json: true,
      turnMs: null,
      color: false,
      mcp: parseMcpPolicy("inherit"),
      ephemeral: true,
      ask: false,
    },
    io: resolveCliIo({ stdout: new TextSink(), stderr: new TextSink(), signals: new FakeSignals() }),
    createRenderer: () => renderer,
    open: async () => () => {
      throw thrown;
    },
    askTerminal: () => {
      throw new Error("not asked");
    },
  };
  return { command, calls };
}

describe("runTurnCommand", () => {
  it("a call the library refuses before anything starts is a usage error naming the command", async () => {
    const { command, calls } = refusedBy(new RennetError("OPTIONS_INVALID", "images must be files"));
    const error = await runTurnCommand(command).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: "images must be files" });
    // the renderer is ended even so
    expect(calls.at(-1)).toBe("end");
  });

  it("anything else thrown by the start is not dressed as a usage error", async () => {
    const defect = new TypeError("a defect");
    const { command } = refusedBy(defect);
    await expect(runTurnCommand(command)).rejects.toBe(defect);
  });
});
