import { asRecord } from "../../json-record.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { decideTrust, type TrustDecision } from "./project-trust.js";
import { trustDirectories } from "./trust-directories.js";
import { trustEntryDirectories } from "./trust-entry-directories.js";

/** A cwd's trust decision and the directories it is to be stated for (see `trustOverride`). */
export interface ProjectTrustLookup {
  decision: TrustDecision;
  /** The cwd and its ancestors, symlink-resolved and as given, closest first. */
  directories: string[];
}

/**
 * The trust for `cwd` (see `decideTrust`): `trustProject: false` decides alone (nothing is read); otherwise the
 * user's own entry is read through `config/read` (Rennet never opens the user's config file), for the directories
 * codex itself consults (`trustEntryDirectories`: the cwd, its project root, a worktree's main root), never
 * another ancestor. Rejects with the connection's errors.
 */
export async function lookUpProjectTrust(
  conn: JsonRpcConnection,
  cwd: string,
  options: { trustProject?: boolean | undefined; timeoutMs: number },
): Promise<ProjectTrustLookup> {
  const directories = trustDirectories(cwd);
  if (options.trustProject === false) return { decision: decideTrust([], null, false), directories };
  const read = await conn.request(
    "config/read",
    { cwd, includeLayers: false },
    { timeoutMs: options.timeoutMs },
  );
  const projects = asRecord(asRecord(read).config).projects;
  return {
    decision: decideTrust(await trustEntryDirectories(cwd), projects, options.trustProject),
    directories,
  };
}
