import { expect } from "vitest";
import type { HarnessEvent } from "../../src/harness/events.js";
import { ofType } from "./collect.js";

/**
 * The documented order of an approval's events: for each `approval.requested` (at least one), its
 * `approval.resolved`, then the `request.answered` with its reply on the wire, all before the terminal frame.
 */
export function expectApprovalEventOrder(events: readonly HarnessEvent[]): void {
  const requested = ofType(events, "approval.requested");
  expect(requested.length).toBeGreaterThan(0);
  for (const request of requested) {
    const at = events.indexOf(request);
    const resolved = events.findIndex(
      (e) => e.type === "approval.resolved" && e.requestId === request.requestId,
    );
    const answered = events.findIndex(
      (e) => e.type === "request.answered" && String(e.requestId) === request.requestId,
    );
    expect(at).toBeLessThan(resolved);
    expect(resolved).toBeLessThan(answered);
    expect(answered).toBeLessThan(events.length - 1);
  }
  expect(events.at(-1)?.type).toBe("terminal");
}
