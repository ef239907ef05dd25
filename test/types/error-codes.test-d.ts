/**
 * Type-level tests of the error codes a caller switches on: `RennetErrorCode` is the union of every code of
 * docs/errors.md (test/package/docs-match-code.test.ts keeps the two equal), `instanceof RennetError` and
 * `isRennetError` narrow `code` to it, so a misspelt code fails to compile and a `switch` can be exhaustive; a
 * spawn failure's `code` is one too.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  isRennetError,
  RennetError,
  SteerError,
  TurnFailedError,
  type FailedTerminalEvent,
  type RennetErrorCode,
  type TerminalEvent,
} from "../../src/index.js";

declare const thrown: unknown;

describe("RennetError's code", () => {
  it("is a RennetErrorCode after instanceof RennetError", () => {
    if (thrown instanceof RennetError) {
      expectTypeOf(thrown.code).toEqualTypeOf<RennetErrorCode>();
      // @ts-expect-error a misspelt code is no RennetErrorCode
      if (thrown.code === "SCHEMA_UNSUPORTED") return;
    }
  });

  it("is a RennetErrorCode after isRennetError, and the code it checks must be one", () => {
    if (isRennetError(thrown)) expectTypeOf(thrown.code).toEqualTypeOf<RennetErrorCode>();
    if (isRennetError(thrown, "TURN_FAILED")) expectTypeOf(thrown.code).toEqualTypeOf<"TURN_FAILED">();
    // @ts-expect-error a misspelt code is no RennetErrorCode
    isRennetError(thrown, "TURN_FIALED");
  });

  it("keeps a subclass's own type after instanceof", () => {
    if (thrown instanceof TurnFailedError) {
      expectTypeOf(thrown.terminal).toEqualTypeOf<FailedTerminalEvent>();
      expectTypeOf(thrown.code).toEqualTypeOf<"TURN_FAILED">();
    }
    if (thrown instanceof SteerError)
      expectTypeOf(thrown.code).toEqualTypeOf<
        "TURN_NOT_RUNNING" | "STEER_UNSUPPORTED" | "STEER_REFUSED" | "STEER_INPUT_INVALID"
      >();
  });

  it("is a union of the documented codes, not any string", () => {
    expectTypeOf<RennetErrorCode>().not.toEqualTypeOf<string>();
    expectTypeOf<"TURN_FAILED" | "CWD_INVALID" | "CLI_USAGE">().toMatchTypeOf<RennetErrorCode>();
    expectTypeOf<"TURN_FIALED">().not.toMatchTypeOf<RennetErrorCode>();
  });
});

describe("a spawn failure's code", () => {
  it("is a RennetErrorCode, so it is compared with the documented codes", () => {
    const terminal = {} as TerminalEvent;
    if (terminal.outcome === "failed" && terminal.failure.source === "spawn") {
      expectTypeOf(terminal.failure.code).toEqualTypeOf<RennetErrorCode | undefined>();
      // @ts-expect-error a misspelt code is no RennetErrorCode
      if (terminal.failure.code === "CODEX_UNAVAILIBLE") return;
    }
  });
});
