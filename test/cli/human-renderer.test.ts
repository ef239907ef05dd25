import { describe, expect, it } from "vitest";
import { createSpinner } from "../../src/cli/spinner.js";
import { TextSink } from "./helpers/cli-harness.js";
import { ev, renderer } from "./helpers/human-render-harness.js";

describe("HumanRenderer", () => {
  it("ends an open line of text before writing to stderr when stdout is a terminal", () => {
    const { r, stdout } = renderer({ stdoutIsTTY: true });
    r.render(ev({ type: "text.delta", itemId: "m", text: "half a sen" }));
    r.render(ev({ type: "warning", method: "warning", message: "careful", native: {} }));
    r.render(ev({ type: "text.delta", itemId: "m", text: "tence" }));
    r.render(ev({ type: "text.completed", itemId: "m", text: "half a sentence" }));
    expect(stdout.text).toBe("half a sen\ntence\n");
  });

  it("leaves piped stdout text untouched by stderr activity", () => {
    const { r, stdout, stderr } = renderer({ stdoutIsTTY: false });
    r.render(ev({ type: "text.delta", itemId: "m", text: "half a sen" }));
    r.render(ev({ type: "warning", method: "warning", message: "careful", native: {} }));
    r.render(ev({ type: "text.delta", itemId: "m", text: "tence" }));
    r.render(ev({ type: "text.completed", itemId: "m", text: "half a sentence" }));
    expect(stdout.text).toBe("half a sentence\n");
    expect(stderr.text).toBe("! careful\n");
  });

  it("does not add a second newline after a message that ends with one, and completes a truncated stream", () => {
    const { r, stdout } = renderer();
    r.render(ev({ type: "text.delta", itemId: "a", text: "line\n" }));
    r.render(ev({ type: "text.completed", itemId: "a", text: "line\n" }));
    r.render(ev({ type: "text.delta", itemId: "b", text: "par" }));
    r.render(ev({ type: "text.completed", itemId: "b", text: "partial" }));
    expect(stdout.text).toBe("line\npartial\n");
  });

  it("prints the final message of turn/completed when no message item was seen", () => {
    const { r, stdout } = renderer();
    r.render(
      ev({
        type: "terminal",
        outcome: "completed",
        finalMessage: "from the fallback",
        usage: null,
        model: null,
        threadId: null,
        failure: null,
        cancellation: null,
      }),
    );
    expect(stdout.text).toBe("from the fallback\n");
  });

  it("shows a declined command and a failed MCP call", () => {
    const { r, stderr } = renderer();
    r.render(
      ev({
        type: "tool.completed",
        itemId: "c",
        tool: "command",
        title: "rm -rf /",
        status: "declined",
        exitCode: null,
        item: {},
      }),
    );
    r.render(
      ev({
        type: "tool.completed",
        itemId: "m",
        tool: "mcp",
        title: "a.b",
        status: "failed",
        exitCode: null,
        item: {},
      }),
    );
    expect(stderr.text).toBe("  ↳ declined\n  ↳ failed\n");
  });

  it("erases the spinner before the first output", () => {
    const { r, stderr, stdout } = renderer({ spinner: true });
    r.begin();
    expect(stderr.text).toBe("\r⠋ starting codex\x1b[K");
    r.render(ev({ type: "text.delta", itemId: "m", text: "hi" }));
    expect(stderr.text).toBe("\r⠋ starting codex\x1b[K\r\x1b[K");
    expect(stdout.text).toBe("hi");
    r.end();
    expect(stdout.text).toBe("hi\n");
  });
});

describe("spinner", () => {
  it("writes nothing when disabled", () => {
    const sink = new TextSink();
    const spinner = createSpinner(sink, { enabled: false });
    spinner.start("x");
    spinner.stop();
    expect(spinner.spinning).toBe(false);
    expect(sink.text).toBe("");
  });
});
