/**
 * The `thread/start` sandbox that keeps codex from persisting a trust decision into the user's config.toml.
 *
 * codex 0.120–0.124 (`trustRewriteAtThreadStart`) write `trust_level = "trusted"` for the cwd's project at
 * `thread/start` whenever the project is not trusted and the thread's requested or effective sandbox can write
 * it (`workspace-write`, `danger-full-access`): an `untrusted` entry is overwritten, and neither the thread's
 * `config.projects` nor a launch `-c projects={…}` override stops it. A thread started `read-only` is not
 * written for; the turn still gets full access from `turn/start`'s `sandboxPolicy: {type: "dangerFullAccess"}`
 * (measured on 0.72–0.171: the turn can write outside the cwd, config.toml stays byte-identical). A trusted
 * decision needs nothing: stating `trusted` in the thread config already stops the write. Pure.
 */
import type { CodexCapabilities } from "../versions/capabilities.js";
import type { TrustDecision } from "./project-trust.js";

/** The sandbox Rennet normally starts a thread with. */
const DEFAULT_THREAD_SANDBOX = "danger-full-access";

export type ThreadStartSandbox = typeof DEFAULT_THREAD_SANDBOX | "workspace-write" | "read-only";

/**
 * `read-only` for an untrusted decision on a codex that rewrites trust at `thread/start`, else
 * {@link DEFAULT_THREAD_SANDBOX}. The caller must keep sending `sandboxPolicy: {type: "dangerFullAccess"}` on
 * every `turn/start`.
 */
export function trustSafeThreadSandbox(
  decision: Pick<TrustDecision, "level">,
  capabilities: Pick<CodexCapabilities, "trustRewriteAtThreadStart">,
  approvals = false,
): ThreadStartSandbox {
  if (capabilities.trustRewriteAtThreadStart && decision.level === "untrusted") return "read-only";
  return approvals ? APPROVALS_THREAD_SANDBOX : DEFAULT_THREAD_SANDBOX;
}

/**
 * The sandbox of a turn whose approvals the app answers: writes inside the cwd (and the temporary directories),
 * no network; what goes beyond asks. On a codex that rewrites trust it is `read-only` for an untrusted project,
 * for the whole turn (with approvals the turn keeps the thread's sandbox).
 */
const APPROVALS_THREAD_SANDBOX = "workspace-write";
