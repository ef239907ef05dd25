import { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import type { TurnRunnerOptions } from "../../src/codex/turn/turn-runner-options.js";
import type { Launcher } from "../../src/process/app-server-process.js";
import type { FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";

/**
 * A turn runner wired to an in-memory fake app-server following `script`. `wrap` may replace the fake's
 * launcher (e.g. to inject a failing write or a spawn error).
 */
export function startFakeSession(
  script: FakeScript,
  options: Partial<TurnRunnerOptions> = {},
  wrap?: (fake: InMemoryAppServer) => Launcher,
): { fake: InMemoryAppServer; session: CodexTurnRunner } {
  const fake = new InMemoryAppServer(script);
  const session = new CodexTurnRunner({
    prompt: "hi",
    cwd: "/work/repo",
    codex: { type: "native", command: "codex" },
    launcher: wrap ? wrap(fake) : fake.launcher,
    ...options,
  });
  return { fake, session };
}
