import { describe, expect, it } from "vitest";
import { compareCandidates, rankCandidates, type Rankable } from "../../src/discovery/rank.js";

describe("rankCandidates (pure)", () => {
  const c = (name: string, fields: Partial<Rankable>): Rankable & { name: string } => ({
    name,
    source: "process-path",
    kind: "posix",
    dirIndex: 0,
    order: 0,
    ...fields,
  });

  it("override, then user-installed CLIs by directory order, then desktop apps", () => {
    const ranked = rankCandidates([
      c("bundle", { source: "desktop-app", dirIndex: 0 }),
      c("known", { source: "known-location", dirIndex: 5 }),
      c("login", { source: "login-shell-path", dirIndex: 1 }),
      c("override", { source: "env-override", dirIndex: -1 }),
      c("path", { source: "process-path", dirIndex: 3 }),
    ]);
    expect(ranked.map((r) => r.name)).toEqual(["override", "login", "path", "known", "bundle"]);
  });

  it("on Windows a native exe beats a .cmd shim in an earlier directory", () => {
    const ranked = rankCandidates([
      c("cmd", { kind: "windows-cmd", dirIndex: 0 }),
      c("exe", { kind: "windows-exe", dirIndex: 4 }),
    ]);
    expect(ranked.map((r) => r.name)).toEqual(["exe", "cmd"]);
    expect(compareCandidates(c("a", { order: 1 }), c("b", { order: 2 }))).toBeLessThan(0);
  });
});
