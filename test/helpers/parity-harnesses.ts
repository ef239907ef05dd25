/**
 * One app, two harnesses: the same call made through `createCodex()` or `createClaudeCode()`, each driven by
 * its in-memory fake peer. A condition is given as the script each fake follows for it, so a parity test runs
 * the same app code on both and compares what comes out.
 */
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { TerminalEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript } from "../../src/testkit/fake-claude-script.js";
import type { FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

/** The client an app was given: either harness's, used only through the calls both have. */
export type ParityClient = ReturnType<typeof createCodex> | ReturnType<typeof createClaudeCode>;

/** A client driven by a fake, and how many children the fake was asked to start. */
export interface FakeClient {
  client: ParityClient;
  launches: () => number;
}

/** What each fake does for one condition. */
export interface ParityScripts {
  codex: FakeScript;
  claude: FakeClaudeScript;
}

/** One harness of the pair: its name and a client on its fake following that harness's script. */
export interface ParityHarness {
  name: "codex" | "claude-code";
  make(scripts: ParityScripts, clientOptions?: { interruptGraceMs?: number }): FakeClient;
}

/** The two harnesses, Codex first. */
export const PARITY_HARNESSES: readonly ParityHarness[] = [
  {
    name: "codex",
    make(scripts, clientOptions = {}) {
      const fake = new InMemoryAppServer(scripts.codex);
      const client = createCodex({ launcher: fake.launcher, env: {}, ...clientOptions });
      return { client, launches: () => fake.launches.length };
    },
  },
  {
    name: "claude-code",
    make(scripts, clientOptions = {}) {
      const fake = new InMemoryClaude(scripts.claude);
      const env = { IS_SANDBOX: "1", PATH: process.env.PATH };
      const client = createClaudeCode({ launcher: fake.launcher, env, ...clientOptions });
      return { client, launches: () => fake.launches.length };
    },
  },
];

/**
 * What a terminal frame says about how the session ended, without what differs by harness by design (ids,
 * times, usage, the agent's own texts and classification): the outcome, the failure's source, the fields it
 * carries and its process and deadline details, the cancellation.
 */
export function terminalShape(terminal: TerminalEvent): Record<string, unknown> {
  const failure = terminal.failure as Record<string, unknown> | null;
  const detail = (key: string): Record<string, unknown> =>
    failure !== null && key in failure ? { [key]: failure[key] } : {};
  return {
    outcome: terminal.outcome,
    failure:
      failure === null
        ? null
        : {
            source: failure.source,
            fields: Object.keys(failure).sort(),
            ...detail("exitCode"),
            ...detail("signal"),
            ...detail("timeout"),
            ...detail("errno"),
          },
    cancellation: terminal.cancellation,
  };
}
