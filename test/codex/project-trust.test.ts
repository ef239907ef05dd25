import { describe, expect, it } from "vitest";
import { directoryChain, resolveDirectory } from "../../src/codex/directory-chain.js";
import { decideTrust, trustOverride } from "../../src/codex/project-trust.js";

describe("directoryChain", () => {
  it("walks a POSIX path up to the root, closest first, ignoring trailing separators", () => {
    expect(directoryChain("/work/repo/pkg/")).toEqual(["/work/repo/pkg", "/work/repo", "/work", "/"]);
    expect(directoryChain("/")).toEqual(["/"]);
  });

  it("walks Windows drive and UNC paths in Windows syntax", () => {
    expect(directoryChain("C:\\Users\\me\\repo")).toEqual([
      "C:\\Users\\me\\repo",
      "C:\\Users\\me",
      "C:\\Users",
      "C:\\",
    ]);
    expect(directoryChain("C:/Users/me")).toEqual(["C:\\Users\\me", "C:\\Users", "C:\\"]);
    expect(directoryChain("\\\\wsl.localhost\\Ubuntu\\home\\me")).toEqual([
      "\\\\wsl.localhost\\Ubuntu\\home\\me",
      "\\\\wsl.localhost\\Ubuntu\\home",
      "\\\\wsl.localhost\\Ubuntu\\",
    ]);
  });

  it("resolveDirectory is the chain's first entry", () => {
    for (const p of ["/a/b/", "C:\\x\\", "\\\\srv\\share\\d"])
      expect(resolveDirectory(p)).toBe(directoryChain(p)[0]);
  });
});

describe("decideTrust", () => {
  it("is trusted by default, with no source", () => {
    expect(decideTrust("/work/repo", undefined)).toEqual({ level: "trusted", from: null });
    expect(decideTrust("/work/repo", { "/elsewhere": { trust_level: "untrusted" } })).toEqual({
      level: "trusted",
      from: null,
    });
  });

  it("takes the closest configured ancestor, whatever trailing separators the keys carry", () => {
    const projects = {
      "/work/": { trust_level: "trusted" },
      "/work/repo/": { trust_level: "untrusted" },
    };
    expect(decideTrust("/work/repo/pkg", projects)).toEqual({ level: "untrusted", from: "/work/repo" });
    expect(decideTrust("/work/other", projects)).toEqual({ level: "trusted", from: "/work" });
  });

  it("skips entries without a known trust level", () => {
    const projects = { "/work/repo": { trust_level: "maybe" }, "/work": { trust_level: "untrusted" } };
    expect(decideTrust("/work/repo", projects)).toEqual({ level: "untrusted", from: "/work" });
  });

  it("matches Windows keys written with either separator", () => {
    expect(decideTrust("C:\\src\\app", { "C:/src": { trust_level: "untrusted" } })).toEqual({
      level: "untrusted",
      from: "C:\\src",
    });
  });

  it("trustOverride states the decision for exactly the cwd", () => {
    expect(trustOverride("/work/repo", { level: "untrusted", from: "/work" })).toEqual({
      projects: { "/work/repo": { trust_level: "untrusted" } },
    });
  });
});
