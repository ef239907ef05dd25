/** The CODEX_HOME the untrusted-project guard leaves out is the one codex itself uses, on each platform. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexHomeOf } from "../../src/codex/trust/untrusted-project-guard.js";

describe("codexHomeOf (pure)", () => {
  it("is CODEX_HOME when set", () => {
    expect(codexHomeOf({ CODEX_HOME: "/srv/codex", HOME: "/home/bob" }, "linux")).toBe(
      path.resolve("/srv/codex"),
    );
  });

  it("is $HOME/.codex on POSIX", () => {
    expect(codexHomeOf({ HOME: "/home/bob", USERPROFILE: "/x" }, "linux")).toBe(
      path.join("/home/bob", ".codex"),
    );
  });

  it("is the profile folder's .codex on Windows, whatever HOME says (codex asks Windows, not HOME)", () => {
    // Git for Windows, MSYS or a user's own HOME would otherwise make the real ~\.codex\config.toml look like a
    // repository's own file for a repository under the profile folder
    const env = { HOME: "H:\\", USERPROFILE: "C:\\Users\\bob" };
    expect(codexHomeOf(env, "win32")).toBe(path.join("C:\\Users\\bob", ".codex"));
  });
});
