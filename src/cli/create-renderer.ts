import type { ResolvedCliIo } from "./cli-io.js";
import { createColors, shouldUseColor } from "./color.js";
import type { EventRenderer } from "./event-renderer.js";
import { HumanRenderer } from "./human-renderer.js";
import { JsonRenderer } from "./json-renderer.js";
import { createSpinner } from "./spinner.js";

/** `--json` → {@link JsonRenderer}; otherwise {@link HumanRenderer} with colour and spinner only on a terminal. */
export function createRenderer(options: { json: boolean; color: boolean }, io: ResolvedCliIo): EventRenderer {
  if (options.json) return new JsonRenderer(io.stdout, io.stderr);
  const colors = createColors(shouldUseColor({ isTTY: io.isTTY.stderr, env: io.env, flag: options.color }));
  return new HumanRenderer({
    stdout: io.stdout,
    stderr: io.stderr,
    colors,
    spinner: createSpinner(io.stderr, { enabled: io.isTTY.stderr, decorate: colors.cyan }),
    stdoutIsTTY: io.isTTY.stdout,
  });
}
