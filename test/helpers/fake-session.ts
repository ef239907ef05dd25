import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import { CodexTurnRunner } from "../../src/codex/turn/turn-runner.js";
import { turnRuntime } from "../../src/codex/turn/turn-child.js";
import type { TurnRunnerOptions } from "../../src/codex/turn/turn-runner-options.js";
import type { Launcher } from "../../src/process/stdio-child.js";
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
  const session = runnerOn(wrap ? wrap(fake) : fake.launcher, {
    prompt: "hi",
    cwd: "/work/repo",
    ...options,
  });
  return { fake, session };
}

/** A turn runner on `launcher` with the tests' defaults (prompt "x", a native `codex`), overridden by `options`. */
export function runnerOn(launcher: Launcher, options: Partial<TurnRunnerOptions> = {}): CodexTurnRunner {
  return new CodexTurnRunner({
    runtime: turnRuntime,
    prompt: "x",
    codex: { type: "native", command: "codex" },
    launcher,
    ...options,
  });
}

/**
 * One session through the public client against the in-memory fake, read to its end. `turnMs` only keeps a
 * session that never ends from hanging the suite: no expectation may depend on it.
 */
export async function runFakeClientSession(
  script: FakeScript,
): Promise<{ fake: InMemoryAppServer; events: HarnessEvent[]; terminal: TerminalEvent }> {
  const fake = new InMemoryAppServer(script);
  const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({
    prompt: "hi",
    timeouts: { turnMs: 5_000 },
  });
  const events: HarnessEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { fake, events, terminal: await session.result };
}
