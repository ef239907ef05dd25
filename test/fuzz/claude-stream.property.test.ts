/**
 * Property-based fuzzing of a Claude Code turn through the public client and the real framing, against the
 * in-memory fake claude: random owned text and tool calls, another session's lines, a subagent's lines, unknown
 * line types, malformed and split lines, stderr, and an end that is a `result`, an API error or an exit without
 * one. Every session keeps the event contract, whatever the order.
 */
import fc from "fast-check";
import { describe, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { FakeClaudeStep } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { FUZZ_SEED, fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzz-config.js";

const RUNS = fuzzRuns(150, 4);
const OTHER_SESSION = "0f0f0f0f-1111-4222-8333-444455556666";
const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

console.log(`[fuzz] claude-stream.property seed ${FUZZ_SEED} (replay: FUZZ_SEED=${FUZZ_SEED})`);

/** One random piece of a turn, and what the client must make of it. */
type Segment =
  | { kind: "text"; text: string; chunks: string[] }
  | { kind: "tool"; id: string; command: string; exitCode: number }
  | { kind: "foreign"; text: string }
  | { kind: "subagent"; id: string; text: string }
  | { kind: "unknown"; name: string }
  | { kind: "malformed"; raw: string }
  | { kind: "stderr"; text: string };

type Ending = { kind: "result" } | { kind: "apiError"; status: number } | { kind: "exit"; code: number };

const word = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" });
let ids = 0;
const segment: fc.Arbitrary<Segment> = fc.oneof(
  word.chain((text) =>
    fc
      .array(fc.nat(text.length), { maxLength: 3 })
      .map((cuts): Segment => ({ kind: "text", text, chunks: chunksOf(text, cuts) })),
  ),
  fc
    .record({ command: word, exitCode: fc.constantFrom(0, 1, 2) })
    .map((s): Segment => ({ kind: "tool", id: `toolu_${++ids}`, ...s })),
  word.map((text): Segment => ({ kind: "foreign", text: `FOREIGN ${text}` })),
  word.map((text): Segment => ({ kind: "subagent", id: `toolu_${++ids}`, text: `SUB ${text}` })),
  fc
    .constantFrom("zz_future", "future_line", "x_heartbeat")
    .map((name): Segment => ({ kind: "unknown", name })),
  fc
    .constantFrom("{not json\n", "[1,2]\n", "null\n", '"text"\n')
    .map((raw): Segment => ({ kind: "malformed", raw })),
  word.map((text): Segment => ({ kind: "stderr", text: `${text}\n` })),
);
const ending: fc.Arbitrary<Ending> = fc.oneof(
  { arbitrary: fc.constant<Ending>({ kind: "result" }), weight: 4 },
  fc.constantFrom(429, 500, 529).map((status): Ending => ({ kind: "apiError", status })),
  fc.constantFrom(0, 1).map((code): Ending => ({ kind: "exit", code })),
);

function chunksOf(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts)].sort((a, b) => a - b).filter((cut) => cut > 0 && cut < text.length);
  const chars = [...text];
  const bounds = [0, ...points.map((cut) => Math.min(cut, chars.length)), chars.length];
  const chunks = bounds.slice(1).map((end, i) => chars.slice(bounds[i], end).join(""));
  return chunks.filter((chunk) => chunk !== "");
}

function stepsOf(piece: Segment): FakeClaudeStep[] {
  switch (piece.kind) {
    case "text":
      return claudeSteps.text(piece.text, { chunks: piece.chunks });
    case "tool":
      return claudeSteps.bash(piece.id, piece.command, { output: "out", exitCode: piece.exitCode });
    case "foreign":
      return [claudeSteps.init({ sessionId: OTHER_SESSION }), ...claudeSteps.text(piece.text)].map((step) =>
        "send" in step ? { send: { ...step.send, session_id: OTHER_SESSION } } : step,
      );
    case "subagent":
      return [
        ...claudeSteps.toolUse(piece.id, "Task", { prompt: "sub" }),
        ...claudeSteps.text(piece.text, { parentToolId: piece.id }),
        claudeSteps.toolResult(piece.id, "sub done"),
      ];
    case "unknown":
      return [{ send: { type: piece.name, session_id: "4b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3" } }];
    case "malformed":
      return [{ raw: piece.raw }];
    case "stderr":
      return [{ stderr: piece.text }];
  }
}

function endingSteps(end: Ending, finalText: string | null): FakeClaudeStep[] {
  if (end.kind === "result") return [claudeSteps.result({ result: finalText ?? "" })];
  if (end.kind === "apiError") return claudeSteps.apiError(end.status, `provider said ${end.status}`);
  return [{ exit: { code: end.code } }];
}

/** What went wrong with one session's events, given what it was sent (empty when the contract held). */
function violations(sent: Segment[], end: Ending, events: HarnessEvent[], result: TerminalEvent): string[] {
  // a malformed line fails the turn where it stands: what came after it is never read
  const cut = sent.findIndex((p) => p.kind === "malformed");
  const pieces = cut === -1 ? sent : sent.slice(0, cut);
  const found: string[] = [];
  const terminals = events.filter((e) => e.type === "terminal");
  if (terminals.length !== 1) found.push(`${terminals.length} terminal events`);
  if (events.at(-1) !== result) found.push("the last event is not session.result");
  if (events.some((e, i) => e.seq !== i + 1)) found.push("seq is not 1..n");
  const foreignLines = pieces.filter((p) => p.kind === "foreign").reduce((n, p) => n + stepsOf(p).length, 0);
  const foreign = events.filter((e) => e.type === "passthrough" && e.reason === "foreign").length;
  if (foreign !== foreignLines)
    found.push(`${foreign} foreign passthroughs for ${foreignLines} foreign lines`);
  const unknown = events.filter((e) => e.type === "passthrough" && e.reason === "unknown").length;
  const unknownLines = pieces.filter((p) => p.kind === "unknown").length;
  if (unknown < unknownLines) found.push(`${unknown} unknown passthroughs for ${unknownLines} unknown lines`);
  for (const event of events) {
    const text = event.type === "text.delta" || event.type === "text.completed" ? event.text : "";
    if (text.includes("FOREIGN")) found.push(`a foreign text reached the owned turn: ${text}`);
    if (text.includes("SUB ") && (event.type === "text.delta" || !("parentToolId" in event)))
      found.push(`a subagent's text reached the owned turn: ${text}`);
  }
  const started = events.filter((e) => e.type === "tool.started").map((e) => e.itemId);
  const completed = events.filter((e) => e.type === "tool.completed").map((e) => e.itemId);
  if ([...started].sort().join() !== [...completed].sort().join())
    found.push(`tools started ${started.join()} but completed ${completed.join()}`);
  const ownedTexts = pieces.filter((p) => p.kind === "text").map((p) => p.text);
  const malformed = cut !== -1;
  if (malformed) {
    if (result.outcome !== "failed" || result.failure?.source !== "parse")
      found.push(
        `a malformed line ended ${result.outcome}/${result.failure?.source ?? "-"}, not failed/parse`,
      );
  } else if (end.kind === "result") {
    if (result.outcome !== "completed")
      found.push(`a result ended ${result.outcome}: ${result.failure?.message}`);
    const expected = ownedTexts.at(-1) ?? "";
    if (result.outcome === "completed" && (result.finalMessage ?? "") !== expected)
      found.push(`finalMessage ${JSON.stringify(result.finalMessage)}, expected ${JSON.stringify(expected)}`);
  } else if (result.outcome !== "failed")
    found.push(`an ${end.kind} ending was ${result.outcome}, not failed`);
  return found;
}

describe("random Claude Code streams (in memory, real framing)", () => {
  it(
    "one terminal, last, seq 1..n; foreign and subagent text never owned; tools paired; outcome follows the end",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { maxLength: 8 }), ending, async (pieces, end) => {
          const owned = pieces.filter((p) => p.kind === "text");
          const fake = new InMemoryClaude({
            turn: [
              claudeSteps.init(),
              ...pieces.flatMap(stepsOf),
              ...endingSteps(end, owned.at(-1)?.text ?? null),
            ],
          });
          const session = createClaudeCode({ launcher: fake.launcher, env: ENV }).runStreamed({
            prompt: "p",
          });
          const events: HarnessEvent[] = [];
          for await (const event of session.events) events.push(event);
          const found = violations(pieces, end, events, await session.result);
          if (found.length > 0) throw new Error(found.join("\n"));
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 60),
  );
});
