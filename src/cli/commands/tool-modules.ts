/**
 * `--tool MODULE`: the app tools a command line gives a turn, loaded from the user's own modules (ES or
 * CommonJS). Every export that is a `defineTool` value counts, and a default export may also be an array of
 * them or a plain object of them; a module
 * that offers none, cannot be found or throws while loading is a usage error naming it.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { errorMessage } from "../../errors.js";
import { isAppTool, type AppTool } from "../../tools/app-tool.js";
import type { McpPolicyValue } from "../../mcp/mcp-policy.js";
import { checkAppToolsServerName, toolSet, type ToolSet } from "../../tools/tool-set.js";
import { UsageError } from "../usage-error.js";

/**
 * The tools one module offers: its `defineTool` exports, a default export's array of them, and the values of a
 * default export that is a plain object (CommonJS `module.exports = tools`, whose names Node cannot see). Pure.
 */
function toolsOfModule(exports: Record<string, unknown>): AppTool[] {
  const tools: AppTool[] = [];
  const add = (value: unknown): void => {
    if (isAppTool(value)) tools.push(value);
    else if (Array.isArray(value)) tools.push(...value.filter(isAppTool));
  };
  for (const value of Object.values(exports)) add(value);
  const fallback = Object.hasOwn(exports, "default") ? exports.default : undefined;
  if (isPlainObject(fallback)) for (const value of Object.values(fallback)) add(value);
  return [...new Set(tools)];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || isAppTool(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Loads every `--tool` module (relative to `baseCwd`; none without the flag) and checks the tools together and
 * beside the turn's MCP policy, with the library's own checks (`agent` reaches the tools by a server name no
 * `--mcp-server` may take; `checkNames`, the agent's own check of the names). Throws {@link UsageError}.
 */
export async function loadToolModules(
  files: readonly string[] | undefined,
  baseCwd: string,
  command: string,
  turn: { mcp: McpPolicyValue; agent: string; checkNames?: (tools: ToolSet | null) => void },
): Promise<AppTool[]> {
  const tools: AppTool[] = [];
  if (files === undefined) return tools;
  for (const file of files) {
    if (file.trim() === "")
      throw new UsageError(
        "--tool is empty: give the path of a JavaScript module (ES or CommonJS) of tools",
        command,
      );
    const absolute = path.resolve(baseCwd, file);
    let exports: Record<string, unknown>;
    try {
      exports = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(toolModuleLoadFailure(file, absolute, error), command);
    }
    const found = toolsOfModule(exports);
    if (found.length === 0) {
      throw new UsageError(
        `--tool ${file}: the module exports no tool; export values made with defineTool from "rennet-adapters"`,
        command,
      );
    }
    tools.push(...found);
  }
  try {
    const set = toolSet(tools, "--tool");
    turn.checkNames?.(set);
    checkAppToolsServerName(set, turn.mcp, turn.agent, "--mcp-server");
  } catch (error) {
    throw new UsageError(errorMessage(error), command);
  }
  return tools;
}

/**
 * Why `--tool FILE` could not be loaded, naming the fix for a TypeScript module this Node cannot import
 * (`ERR_UNKNOWN_FILE_EXTENSION`: Node before type stripping). Pure.
 */
function toolModuleLoadFailure(file: string, absolute: string, error: unknown): string {
  const text = `--tool ${file}: cannot load ${absolute}: ${errorMessage(error)}`;
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_UNKNOWN_FILE_EXTENSION" || !/\.[cm]?tsx?$/i.test(absolute)) return text;
  return (
    `${text}; Node ${process.version} cannot import TypeScript: compile the module to JavaScript (e.g. with tsc) ` +
    "and give the .js file, or run rennet under a TypeScript loader (node --import tsx)"
  );
}
