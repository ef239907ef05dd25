import { isRecord } from "../../json-record.js";
import { printableText } from "../../printable-text.js";

/** Entries listed per file; the rest are counted in {@link ClaudeRepositoryConfig.omitted}. */
export const MAX_LISTED_ENTRIES = 40;

/** One hook command a settings file registers. */
export interface ClaudeRepositoryHook {
  /** The hook event (`SessionStart`, `PreToolUse`, …). */
  event: string;
  /** The tool matcher, or null when the hook applies to every tool (or the event has none). */
  matcher: string | null;
  /** What runs: the command of a `command` hook, else `<type> hook`. */
  runs: string;
}

/** One MCP server a file declares. */
export interface ClaudeRepositoryMcpServer {
  name: string;
  /** `stdio`, `http`, `sse`, … as declared (`stdio` when a command is given without a type). */
  transport: string;
  /** The command line of a stdio server, or the URL of a remote one (headers and env values are not shown). */
  target: string;
}

/**
 * What a repository's Claude Code settings file (`.claude/settings.json`, `.claude/settings.local.json`) or
 * `.mcp.json` asks Claude Code to run or trust. Every string is {@link printableText}: escaped and cut, never raw.
 */
export interface ClaudeRepositoryConfig {
  hooks: ClaudeRepositoryHook[];
  mcpServers: ClaudeRepositoryMcpServer[];
  /** `enableAllProjectMcpServers`: true starts every `.mcp.json` server without asking; null when absent. */
  enableAllProjectMcpServers: boolean | null;
  /** `enabledMcpjsonServers`: the `.mcp.json` servers the settings approve. */
  enabledMcpjsonServers: string[];
  /** Names of the variables under `env` (values are not shown), e.g. `ANTHROPIC_BASE_URL`. */
  env: string[];
  /** `apiKeyHelper`: a command Claude Code runs to obtain an API key; null when absent. */
  apiKeyHelper: string | null;
  /** Entries beyond {@link MAX_LISTED_ENTRIES}, or not of the documented shape, left out of the lists. */
  omitted: number;
}

/** Reads a settings file's or `.mcp.json`'s decoded JSON object, whatever it holds. Pure; never throws. */
export function summarizeRepositoryConfig(json: Record<string, unknown>): ClaudeRepositoryConfig {
  const config: ClaudeRepositoryConfig = {
    hooks: [],
    mcpServers: [],
    enableAllProjectMcpServers: null,
    enabledMcpjsonServers: [],
    env: [],
    apiKeyHelper: null,
    omitted: 0,
  };
  const own = (key: string): unknown => (Object.hasOwn(json, key) ? json[key] : undefined);
  const listed = (count: number): boolean => {
    const room = count < MAX_LISTED_ENTRIES;
    if (!room) config.omitted += 1;
    return room;
  };
  readHooks(own("hooks"), config, listed);
  const servers = own("mcpServers");
  if (isRecord(servers))
    for (const [name, server] of Object.entries(servers))
      if (listed(config.mcpServers.length)) config.mcpServers.push(mcpServer(name, server));
  const enableAll = own("enableAllProjectMcpServers");
  if (typeof enableAll === "boolean") config.enableAllProjectMcpServers = enableAll;
  const enabled = own("enabledMcpjsonServers");
  if (Array.isArray(enabled))
    for (const name of enabled)
      if (listed(config.enabledMcpjsonServers.length))
        config.enabledMcpjsonServers.push(printableText(String(name), 80));
  const env = own("env");
  if (isRecord(env))
    for (const name of Object.keys(env))
      if (listed(config.env.length)) config.env.push(printableText(name, 80));
  const helper = own("apiKeyHelper");
  if (helper !== undefined && helper !== null) config.apiKeyHelper = printableText(String(helper));
  return config;
}

function readHooks(hooks: unknown, config: ClaudeRepositoryConfig, listed: (count: number) => boolean): void {
  if (!isRecord(hooks)) {
    if (hooks !== undefined) config.omitted += 1;
    return;
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      config.omitted += 1;
      continue;
    }
    for (const group of groups) {
      const matcher =
        isRecord(group) && typeof group.matcher === "string" && group.matcher !== "" ? group.matcher : null;
      const entries = isRecord(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : null;
      if (entries === null) {
        config.omitted += 1;
        continue;
      }
      for (const hook of entries) {
        if (!listed(config.hooks.length)) continue;
        config.hooks.push({
          event: printableText(event, 80),
          matcher: matcher === null ? null : printableText(matcher, 80),
          runs: hookRuns(hook),
        });
      }
    }
  }
}

function hookRuns(hook: unknown): string {
  if (!isRecord(hook)) return "(not an object)";
  const type = typeof hook.type === "string" ? hook.type : "command";
  if (type === "command" && typeof hook.command === "string") return printableText(hook.command);
  return `${printableText(type, 40)} hook`;
}

function mcpServer(name: string, server: unknown): ClaudeRepositoryMcpServer {
  const shown = printableText(name, 80);
  if (!isRecord(server)) return { name: shown, transport: "?", target: "(not an object)" };
  const url = typeof server.url === "string" ? server.url : null;
  const command = typeof server.command === "string" ? server.command : null;
  const declared = typeof server.type === "string" ? server.type : url !== null ? "http" : "stdio";
  const args = Array.isArray(server.args) ? server.args.map((arg) => String(arg)) : [];
  const target = command !== null ? [command, ...args].join(" ") : (url ?? "(no command or url)");
  return { name: shown, transport: printableText(declared, 20), target: printableText(target) };
}
