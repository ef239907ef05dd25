import { lstat, stat } from "node:fs/promises";
import path from "node:path";
import { RennetError } from "../../errors.js";
import { mcpArgs, settingSources } from "../turn-argv.js";
import { readRepositoryConfig } from "./read-repository-config.js";
import type { ClaudeRepositoryConfig } from "./repository-config.js";

/** What Claude Code does with one kind of repository file, for an untrusted and for a trusted turn. */
interface ProjectFileKind {
  /** Relative to the working directory, `/`-separated. */
  relative: string;
  /** What the file holds. */
  holds: string;
  untrusted: string;
  trusted: string;
  /** A JSON file whose hooks, MCP servers and other keys the report reads (bounded, see `readRepositoryConfig`). */
  json?: true;
}

const IGNORED = "ignored (--setting-sources=user)";
const NOT_LOADED = "not loaded (--setting-sources=user)";

/**
 * The repository files Claude Code reads on its own, with what a turn does with each (measured on 2.1.332 with
 * `--setting-sources user --strict-mcp-config`, the untrusted turn, against a plain `claude -p`).
 */
const CLAUDE_PROJECT_FILES: readonly ProjectFileKind[] = [
  {
    relative: ".claude/settings.json",
    holds: "project settings: hooks, env (ANTHROPIC_BASE_URL too), apiKeyHelper, permissions, MCP approvals",
    untrusted: IGNORED,
    trusted: "applied: its hooks and apiKeyHelper run, its env reaches Claude Code",
    json: true,
  },
  {
    relative: ".claude/settings.local.json",
    holds: "local settings: the same keys as settings.json",
    untrusted: IGNORED,
    trusted: "applied: its hooks and apiKeyHelper run, its env reaches Claude Code",
    json: true,
  },
  {
    relative: ".mcp.json",
    holds: "project MCP servers",
    untrusted: "not started (--strict-mcp-config: only the servers the call names)",
    trusted: 'not started either unless the call passes mcp: "inherit" (--strict-mcp-config)',
    json: true,
  },
  {
    relative: "CLAUDE.md",
    holds: "instructions",
    untrusted: NOT_LOADED,
    trusted: "reaches the prompt as instructions; nothing in it runs",
  },
  {
    relative: "CLAUDE.local.md",
    holds: "instructions",
    untrusted: NOT_LOADED,
    trusted: "reaches the prompt",
  },
  {
    relative: ".claude/CLAUDE.md",
    holds: "instructions",
    untrusted: NOT_LOADED,
    trusted: "reaches the prompt",
  },
  {
    relative: ".claude/rules",
    holds: "instruction rules",
    untrusted: NOT_LOADED,
    trusted: "reach the prompt",
  },
  { relative: ".claude/commands", holds: "slash commands", untrusted: NOT_LOADED, trusted: "loaded" },
  { relative: ".claude/agents", holds: "subagents", untrusted: NOT_LOADED, trusted: "loaded" },
  { relative: ".claude/skills", holds: "skills", untrusted: NOT_LOADED, trusted: "loaded" },
  { relative: ".claude/output-styles", holds: "output styles", untrusted: NOT_LOADED, trusted: "loaded" },
];

/** One repository file that is there. */
export interface ClaudeProjectFile {
  relative: string;
  path: string;
  /** What is at the path (a symlink is not followed). */
  kind: "file" | "directory" | "symlink" | "other";
  holds: string;
  /** What a turn with this report's trust does with it. */
  effect: string;
  /** For a settings file or `.mcp.json` that could be read: what it asks Claude Code to run or start. */
  config?: ClaudeRepositoryConfig;
  /** For a settings file or `.mcp.json` that was not read: why (a symlink, too large, not JSON, …). */
  problem?: string;
}

/** The trust a Claude Code turn in one directory gets, and the repository's own files there. JSON-serializable. */
export interface ClaudeProjectTrustReport {
  cwd: string;
  trusted: boolean;
  /** Why: the call's opt-in, or the default. */
  reason: string;
  /** The arguments that carry the decision (`--setting-sources=…`, the MCP isolation). */
  args: string[];
  /**
   * The repository's Claude Code files present in `cwd` (checked with `lstat`); only the settings files and
   * `.mcp.json` are read, as hostile input (no symlink followed, size-limited), never the instruction files.
   */
  files: ClaudeProjectFile[];
}

/**
 * The trust decision Rennet applies to a Claude Code turn in `cwd`: untrusted unless the call opts in
 * (`trustProject: true`), so only the user's settings apply (`--setting-sources=user`) and no MCP server starts
 * but the call's (`--strict-mcp-config`); trusted adds the project's and local settings. Lists which repository
 * files Claude Code would look at are there, with the hooks, MCP servers, `enableAllProjectMcpServers`, `env`
 * names and `apiKeyHelper` of the JSON ones. Rejects with `CWD_INVALID` when `cwd` is no directory; a file that
 * cannot be read is a `problem`, never a rejection.
 */
export async function checkClaudeProjectTrust(options: {
  cwd: string;
  trustProject?: boolean;
}): Promise<ClaudeProjectTrustReport> {
  const trusted = options.trustProject === true;
  const cwd = path.resolve(options.cwd);
  await checkDirectory(cwd);
  const files = await Promise.all(CLAUDE_PROJECT_FILES.map((kind) => presentFile(cwd, kind, trusted)));
  return {
    cwd,
    trusted,
    reason: trusted
      ? "the call opts in (trustProject: true, --trust-project)"
      : "the default: a repository is untrusted unless the call opts in (trustProject: true, --trust-project)",
    args: [`--setting-sources=${settingSources(trusted)}`, ...mcpArgs({ servers: {} })],
    files: files.filter((file): file is ClaudeProjectFile => file !== null),
  };
}

async function checkDirectory(cwd: string): Promise<void> {
  const problem = await stat(cwd).then(
    (info) => (info.isDirectory() ? null : "not a directory"),
    (error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" || error.code === "ENOTDIR"
        ? "no such directory"
        : `cannot be read (${error.code})`,
  );
  if (problem !== null) throw new RennetError("CWD_INVALID", `cwd ${cwd}: ${problem}`);
}

async function presentFile(
  cwd: string,
  kind: ProjectFileKind,
  trusted: boolean,
): Promise<ClaudeProjectFile | null> {
  const segments = kind.relative.split("/");
  const file = path.join(cwd, ...segments);
  const info = await lstat(file).catch(() => null);
  if (info === null) return null;
  const present: ClaudeProjectFile = {
    relative: kind.relative,
    path: file,
    kind: info.isSymbolicLink()
      ? "symlink"
      : info.isFile()
        ? "file"
        : info.isDirectory()
          ? "directory"
          : "other",
    holds: kind.holds,
    effect: trusted ? kind.trusted : kind.untrusted,
  };
  if (kind.json !== true) return present;
  if (present.kind === "symlink") present.problem = "a symlink: not followed, not read";
  else if (segments.length > 1 && (await isSymlink(path.join(cwd, ...segments.slice(0, -1)))))
    present.problem = `under a symlinked ${segments.slice(0, -1).join("/")}/: not followed, not read`;
  else {
    const read = await readRepositoryConfig(file);
    if (read.type === "read") present.config = read.config;
    else present.problem = read.problem;
  }
  return present;
}

async function isSymlink(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => null);
  return info?.isSymbolicLink() === true;
}
