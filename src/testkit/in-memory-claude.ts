import { CLAUDE_STDOUT_MAX_LINE_BYTES } from "../claude/claude-images.js";
import { RennetError } from "../errors.js";
import { createInMemoryTransportPair } from "../jsonl/in-memory-transport.js";
import type { LaunchSpec, Launcher, ProcessExit, StdioChild } from "../process/stdio-child.js";
import { FakeClaudePeer } from "./fake-claude-peer.js";
import { checkFakeScript, FAKE_CLAUDE_SCRIPT } from "./fake-script-check.js";
import type { FakeClaudeScript } from "./fake-claude-script.js";

/** One launch of the in-memory fake `claude`, for assertions. */
export interface FakeClaudeLaunch {
  spec: LaunchSpec;
  peer: FakeClaudePeer;
  /** What the fake wrote to stderr. */
  readonly stderr: string;
  /** Whether the session called `terminate()`. */
  readonly terminated: boolean;
  /** Resolves when the fake exited (by its script, on stdin EOF, `end_session`, or through `terminate()`). */
  readonly exit: Promise<ProcessExit>;
  /** Writes raw text to the fake's stdin, as a client with a bug would (e.g. a line that is not JSON). */
  writeStdin(text: string): void;
}

/**
 * A scriptable fake `claude` that lives in memory: `launcher` starts one per launch (lines cross the real JSONL
 * framing), and `launches` records what was started and what the client wrote. `--version` in the arguments
 * prints `<version> (Claude Code)` and exits 0.
 */
export class InMemoryClaude {
  readonly launches: FakeClaudeLaunch[] = [];
  readonly #script: FakeClaudeScript;

  /** Throws `FAKE_SCRIPT_INVALID` naming the field for a step or control reply the fake does not know. */
  constructor(script: FakeClaudeScript = {}) {
    checkFakeScript(script, FAKE_CLAUDE_SCRIPT);
    this.#script = script;
  }

  /** The most recent launch's peer (throws when nothing was launched). */
  get peer(): FakeClaudePeer {
    const last = this.launches.at(-1);
    if (!last) throw new RennetError("FAKE_NOT_LAUNCHED", "the fake claude was never launched");
    return last.peer;
  }

  readonly launcher: Launcher = (spec) => this.#launch(spec);

  #launch(spec: LaunchSpec): StdioChild {
    // the client reads with the line cap a Claude Code child gets
    const [client, server] = createInMemoryTransportPair({ maxLineBytes: CLAUDE_STDOUT_MAX_LINE_BYTES });
    let resolveExit!: (exit: ProcessExit) => void;
    const exit = new Promise<ProcessExit>((resolve) => (resolveExit = resolve));
    let exited = false;
    let terminated = false;
    let stderr = "";
    const end = (code: number | null, signal: string | null): void => {
      if (exited) return;
      exited = true;
      peer.stop();
      server.endRaw();
      // like a real process, the exit is observed after the pipe closes
      setTimeout(() => resolveExit({ type: "exited", code, signal }), 1);
    };
    const version = spec.args.includes("--version");
    const peer = new FakeClaudePeer(
      server.transport,
      version ? { ...this.#script, startup: [{ hang: true }] } : this.#script,
      {
        writeRaw: (text) => server.writeRaw(text),
        writeStderr: (text) => (stderr += text),
        closeStdout: () => server.endRaw(),
        exit: end,
        args: spec.args,
      },
    );
    if (version) {
      server.writeRaw(`${this.#script.version ?? "2.1.332"} (Claude Code)\n`);
      end(0, null);
    }
    this.launches.push({
      spec,
      peer,
      get stderr() {
        return stderr;
      },
      get terminated() {
        return terminated;
      },
      exit,
      writeStdin: (text) => client.writeRaw(text),
    });
    return {
      pid: null,
      transport: client.transport,
      exit,
      stderrTail: () => stderr.slice(-8192),
      terminate: async () => {
        terminated = true;
        client.transport.endOutput();
        end(null, "SIGTERM");
        await exit;
      },
    };
  }
}
