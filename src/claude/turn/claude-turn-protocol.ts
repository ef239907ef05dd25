/**
 * The protocol half of a Claude Code turn, loaded behind the client's door once the child is spawned (it loads
 * while Claude Code starts): the line mapper, the app's part (control requests, steers, limits) and the app
 * tools. The runner keeps the lifecycle; these are built per session.
 */
import { ClaudeEventMapper } from "../event-mapper.js";
import { ClaudeAppLoop, type ClaudeAppLoopHost } from "./claude-app-loop.js";
import { ClaudeAppTools, type ClaudeAppToolsOptions } from "./claude-app-tools.js";
import type { ApprovalOptions, TurnLimits } from "../../harness/approvals.js";
import type { ToolSet } from "../../tools/tool-set.js";
import type { ControlRequestIds } from "./control-request-ids.js";

/** One session's mapper and app loop, and the constructor of its app tools (when the call has some). */
export interface ClaudeTurnProtocol {
  mapper: ClaudeEventMapper;
  app: ClaudeAppLoop;
  openAppTools(options: ClaudeAppToolsOptions): ClaudeAppTools;
}

/**
 * The mapper (told whether the call has app tools, which thread it resumes and which control requests the turn
 * sent, `requestIds`) and the app loop of one session.
 */
export function openClaudeTurnProtocol(
  options: {
    approvals?: ApprovalOptions;
    limits?: TurnLimits;
    tools?: ToolSet | null;
    resumes?: string;
    requestIds: ControlRequestIds;
  },
  host: ClaudeAppLoopHost,
): ClaudeTurnProtocol {
  return {
    mapper: new ClaudeEventMapper({
      appTools: options.tools != null,
      resumes: options.resumes ?? null,
      sentRequest: (id) => options.requestIds.sent(id),
    }),
    app: new ClaudeAppLoop(options, host),
    openAppTools: (toolOptions) => new ClaudeAppTools(toolOptions),
  };
}
