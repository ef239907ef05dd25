import { RennetError } from "../errors.js";
import { createInMemoryTransportPair } from "../jsonl/in-memory-transport.js";
import type { StreamTransportOptions } from "../jsonl/stream-transport.js";
import type { StdioChild, LaunchSpec, Launcher, ProcessExit } from "../process/stdio-child.js";
import { FakePeer } from "./fake-peer.js";
import { checkFakeScript, FAKE_APP_SERVER_SCRIPT } from "./fake-script-check.js";
import type { FakeDeparture, FakeScript } from "./fake-script.js";

/** One launch of the in-memory fake, for assertions. */
export interface FakeLaunch {
  spec: LaunchSpec;
  peer: FakePeer;
  /** Whether the runner called `terminate()`. */
  readonly terminated: boolean;
  /** Resolves when the fake exited (by its script, on stdin EOF, or through `terminate()`). */
  readonly exit: Promise<ProcessExit>;
}

/**
 * A scriptable fake `codex app-server` that lives in memory: `launcher` plugs into the turn runner, and
 * `launches` records what was started and what the client sent. Frames cross real JSONL framing.
 */
export class InMemoryAppServer {
  readonly launches: FakeLaunch[] = [];
  readonly #script: FakeScript;
  readonly #framing: StreamTransportOptions;

  /**
   * `framing` sets the caps of the JSONL framing on both ends (default: the real defaults). Throws
   * `FAKE_SCRIPT_INVALID` naming the field for a step or reply the fake does not know.
   */
  constructor(script: FakeScript = {}, framing: StreamTransportOptions = {}) {
    checkFakeScript(script, FAKE_APP_SERVER_SCRIPT);
    this.#script = script;
    this.#framing = framing;
  }

  /** The most recent launch's peer (throws when nothing was launched). */
  get peer(): FakePeer {
    const last = this.launches.at(-1);
    if (!last) throw new RennetError("FAKE_NOT_LAUNCHED", "the fake app-server was never launched");
    return last.peer;
  }

  readonly launcher: Launcher = (spec) => this.#launch(spec);

  #launch(spec: LaunchSpec): StdioChild {
    const [client, server] = createInMemoryTransportPair(this.#framing);
    let resolveExit!: (exit: ProcessExit) => void;
    const exit = new Promise<ProcessExit>((resolve) => {
      resolveExit = resolve;
    });
    let exited = false;
    let terminated = false;
    const doExit = (code: number | null, signal: string | null, stdout: FakeDeparture): void => {
      if (exited) return;
      exited = true;
      peer.stop();
      const exit = (): void => resolveExit({ type: "exited", code, signal });
      switch (stdout) {
        case "close-first":
          // like a real process, the exit is observed after the pipe closes
          server.endRaw();
          setTimeout(exit, 1);
          return;
        case "close-after":
          exit();
          setTimeout(() => server.endRaw(), 5);
          return;
        case "together":
          exit();
          server.endRaw();
          return;
        case "keep-open":
          setTimeout(exit, 1);
      }
    };
    const peer = new FakePeer(server.transport, this.#script, {
      writeRaw: (text) => server.writeRaw(text),
      writeBytes: (bytes) => server.writeRaw(bytes),
      closeStdout: () => server.endRaw(),
      exit: (code, signal, options) => doExit(code, signal, options.stdout),
    });
    const launch: FakeLaunch = {
      spec,
      peer,
      get terminated() {
        return terminated;
      },
      exit,
    };
    this.launches.push(launch);
    return {
      pid: null,
      transport: client.transport,
      exit,
      stderrTail: () => this.#script.stderr ?? "",
      terminate: async () => {
        terminated = true;
        client.transport.endOutput();
        doExit(null, "SIGTERM", "close-first");
        await exit;
      },
    };
  }
}
