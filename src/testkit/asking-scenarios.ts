/**
 * Loopback model scenarios that make codex ask for approval when the call routes approvals to the app
 * (`approvals`): any command under mode `untrusted`, a command asking to leave the sandbox under `on-request`.
 */
import type { ModelScenario } from "./model-response-plan.js";
import { commandToolCall } from "./model-request-inputs.js";
import { command, type CommandOptions } from "./model-scenarios.js";
import {
  assistantMessageEvents,
  functionCallDone,
  modelUsage,
  responseCompleted,
  responseCreated,
  type ModelUsage,
} from "./responses-stream-events.js";

/**
 * Makes codex run `cmd` outside the sandbox (`sandbox_permissions: "require_escalated"` with `justification`,
 * which arrives as the approval request's `reason`): under approvals mode `on-request` codex asks before it runs
 * it, e.g. a write outside the workspace. Then `then`, as {@link command}.
 */
export function escalatedCommand(
  cmd: string,
  options: CommandOptions & { justification: string },
): ModelScenario {
  const { justification, ...rest } = options;
  return command(cmd, {
    ...rest,
    extraArguments: { sandbox_permissions: "require_escalated", justification, ...rest.extraArguments },
  });
}

/**
 * One response holding a message `text` and a call to run `cmd` (usage `usage`, default 1050 tokens;
 * `yieldTimeMs` as in `command`, default 10000): codex shows the message, then runs the command. For a turn that
 * has text before its first tool call (a limit that stops it keeps that text). Every later request gets `then`.
 * codex 0.171 reports this request's usage only once the command has exited or yielded.
 */
export function messageThenCommand(
  text: string,
  cmd: string,
  options: { then: string; usage?: ModelUsage; yieldTimeMs?: number },
): ModelScenario {
  return (request, index) => {
    if (index > 0) return command(cmd, { then: options.then })(request, index);
    const id = `resp_${request.index}`;
    return {
      type: "stream",
      events: [
        responseCreated(id),
        ...assistantMessageEvents(`msg_${request.index}`, [text]),
        functionCallDone(
          `fc_${request.index}`,
          `call_${request.index}`,
          ...commandToolCall(request, cmd, options),
        ),
        responseCompleted(id, options.usage ?? modelUsage(1000, 50)),
      ],
      end: "close",
    };
  };
}
