import type { HarnessName } from "../harness/events.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { createColors, shouldUseColor } from "./color.js";
import type { EventRenderer, TextOutput } from "./event-renderer.js";
import { HumanRenderer } from "./human-renderer.js";
import { JsonRenderer } from "./json-renderer.js";
import { createSpinner } from "./spinner.js";
import { ValueRenderer } from "./value-renderer.js";

/**
 * `--json` → {@link JsonRenderer}; otherwise {@link HumanRenderer} (`stream`) or {@link ValueRenderer}
 * (`value`), with colour and spinner on stderr only when it is a terminal.
 */
export function createRenderer(
  options: { json: boolean; color: boolean; harness: HarnessName },
  io: ResolvedCliIo,
  text: TextOutput = "stream",
): EventRenderer {
  if (options.json) return new JsonRenderer(io.stdout, io.stderr, io.isTTY.stdout);
  const colors = createColors(shouldUseColor({ isTTY: io.isTTY.stderr, env: io.env, flag: options.color }));
  const output = {
    stdout: io.stdout,
    stderr: io.stderr,
    colors,
    spinner: createSpinner(io.stderr, { enabled: io.isTTY.stderr, decorate: colors.cyan }),
    stderrIsTTY: io.isTTY.stderr,
    harness: options.harness,
  };
  return text === "value"
    ? new ValueRenderer({ ...output, stdoutIsTTY: io.isTTY.stdout })
    : new HumanRenderer({ ...output, stdoutIsTTY: io.isTTY.stdout });
}
