import { createColors } from "../../../src/cli/color.js";
import { HumanRenderer } from "../../../src/cli/human-renderer.js";
import { createSpinner } from "../../../src/cli/spinner.js";
import type { EventBody, HarnessEvent } from "../../../src/harness/events.js";
import { TextSink } from "./cli-harness.js";

let seq = 0;

/** Stamps `body` as the next event of one session (increasing `seq`, fixed ids, no time). */
export function ev(body: EventBody): HarnessEvent {
  seq += 1;
  return { ...body, seq, harness: "codex", sessionId: "s", turnId: "t", at: "" } as HarnessEvent;
}

/** A human renderer without colours into text sinks; no spinner and no TTY unless asked. */
export function renderer(options: { stdoutIsTTY?: boolean; stderrIsTTY?: boolean; spinner?: boolean } = {}) {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const r = new HumanRenderer({
    stdout,
    stderr,
    colors: createColors(false),
    spinner: createSpinner(stderr, { enabled: options.spinner ?? false }),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    harness: "codex",
  });
  return { r, stdout, stderr };
}
