import type { HarnessName } from "../harness/events.js";

/** How the CLI's human output names a harness and the child it runs. */
export interface HarnessText {
  /** The agent, as the spinner names it (`starting codex`). */
  agent: string;
  /** Its child process, as a failure's detail names it (`app-server exit code 3`). */
  child: string;
  /** What to do when its executable was not found (ENOENT). */
  missingExecutableHint: string | null;
}

const TEXTS: ReadonlyMap<HarnessName, HarnessText> = new Map([
  [
    "codex",
    {
      agent: "codex",
      child: "app-server",
      missingExecutableHint:
        "pass the codex executable with --codex-bin PATH or RENNET_CODEX_BIN, or put `codex` on PATH",
    },
  ],
  [
    "claude-code",
    {
      agent: "claude",
      child: "claude",
      missingExecutableHint:
        "pass the claude executable with --claude-bin PATH or RENNET_CLAUDE_BIN, or put `claude` on PATH",
    },
  ],
]);

/** The texts of `harness`; a harness without its own is named by its id. Pure. */
export function harnessText(harness: HarnessName): HarnessText {
  return TEXTS.get(harness) ?? { agent: harness, child: harness, missingExecutableHint: null };
}
