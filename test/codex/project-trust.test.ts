import { describe, expect, it } from "vitest";
import { directoryChain, resolveDirectory } from "../../src/codex/trust/directory-chain.js";
import { decideTrust, describeTrust, trustOverride } from "../../src/codex/trust/project-trust.js";

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
  it("is untrusted by default, with the default as its source", () => {
    expect(decideTrust(directoryChain("/work/repo"), undefined)).toEqual({
      level: "untrusted",
      source: "default",
    });
    expect(decideTrust(directoryChain("/work/repo"), { "/elsewhere": { trust_level: "trusted" } })).toEqual({
      level: "untrusted",
      source: "default",
    });
  });

  it("takes the closest configured directory, whatever trailing separators the keys carry", () => {
    const projects = {
      "/work/": { trust_level: "trusted" },
      "/work/repo/": { trust_level: "untrusted" },
    };
    expect(decideTrust(directoryChain("/work/repo/pkg"), projects)).toEqual({
      level: "untrusted",
      source: "user-config",
      path: "/work/repo",
    });
    expect(decideTrust(directoryChain("/work/other"), projects)).toEqual({
      level: "trusted",
      source: "user-config",
      path: "/work",
    });
  });

  it("looks the directories up in the order given (the real path's chain before the one written)", () => {
    const projects = { "/real/repo": { trust_level: "trusted" } };
    expect(decideTrust(["/real/repo", "/real", "/", "/link"], projects)).toEqual({
      level: "trusted",
      source: "user-config",
      path: "/real/repo",
    });
  });

  it("skips entries without a known trust level", () => {
    const projects = { "/work/repo": { trust_level: "maybe" }, "/work": { trust_level: "trusted" } };
    expect(decideTrust(directoryChain("/work/repo"), projects)).toEqual({
      level: "trusted",
      source: "user-config",
      path: "/work",
    });
  });

  it("matches Windows keys written with either separator", () => {
    expect(decideTrust(directoryChain("C:\\src\\app"), { "C:/src": { trust_level: "trusted" } })).toEqual({
      level: "trusted",
      source: "user-config",
      path: "C:\\src",
    });
  });

  it("trustProject: true trusts what the user has not decided; false keeps out even what the user trusts", () => {
    expect(decideTrust(directoryChain("/work/repo"), {}, true)).toEqual({ level: "trusted", source: "call" });
    expect(decideTrust(directoryChain("/work/repo"), { "/work": { trust_level: "trusted" } }, false)).toEqual(
      { level: "untrusted", source: "call" },
    );
    // as `codex exec --trust`: a call cannot trust a directory the user's config marks untrusted
    const projects = { "/work/repo": { trust_level: "untrusted" } };
    expect(decideTrust(directoryChain("/work/repo/pkg"), projects, true)).toEqual({
      level: "untrusted",
      source: "user-config",
      path: "/work/repo",
    });
  });

  it("trustOverride states the decision for every directory given", () => {
    expect(trustOverride(directoryChain("/work/repo"), { level: "untrusted" })).toEqual({
      projects: {
        "/work/repo": { trust_level: "untrusted" },
        "/work": { trust_level: "untrusted" },
        "/": { trust_level: "untrusted" },
      },
    });
  });

  it("describeTrust says where the decision came from", () => {
    expect(describeTrust({ level: "untrusted", source: "default" })).toMatch(/^untrusted \(default: /);
    expect(describeTrust({ level: "trusted", source: "call" })).toBe("trusted (this call asked for it)");
    expect(describeTrust({ level: "trusted", source: "user-config", path: "/w" })).toBe(
      'trusted (your Codex config: [projects."/w"] trust_level = "trusted")',
    );
  });
});
