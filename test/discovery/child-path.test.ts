import { execFileSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { launchSpec } from "../../src/discovery/executable-launch.js";
import { tempDir } from "../helpers/temp.js";

// The child starts in the repository: an empty or relative PATH entry would let the repository supply the
// commands the agent runs (`rg`, `git`, `node`).
describe.runIf(process.platform !== "win32")("the PATH a launched child gets", () => {
  it("keeps only absolute entries of the inherited PATH, in order", () => {
    const spec = launchSpec({ type: "native", command: "/opt/agent" }, [], {
      cwd: "/repo",
      baseEnv: { PATH: ":/usr/local/bin::bin:./tools:~/bin:/usr/bin:.:", HOME: "/home/u" },
    });
    expect(spec.env?.PATH).toBe("/usr/local/bin:/usr/bin");
    expect(spec.env?.HOME).toBe("/home/u");
  });

  it("keeps only absolute entries of a PATH the launch sets (the login-shell PATH)", () => {
    const spec = launchSpec(
      {
        type: "node-launcher",
        node: "/usr/bin/node",
        script: "/opt/agent.js",
        env: { PATH: "node_modules/.bin:/opt/bin" },
      },
      [],
      { cwd: "/repo", baseEnv: { PATH: "/usr/bin" } },
    );
    expect(spec.env?.PATH).toBe("/opt/bin");
  });

  it("leaves a PATH of absolute entries, and a missing PATH, as they are", () => {
    const launch = { type: "native", command: "/opt/agent" } as const;
    expect(launchSpec(launch, [], { baseEnv: { PATH: "/a/b:/c" } }).env?.PATH).toBe("/a/b:/c");
    expect(launchSpec(launch, [], { baseEnv: {} }).env).not.toHaveProperty("PATH");
  });

  it("so a shell the child runs in the repository does not find the repository's own rg", async () => {
    const repo = await tempDir("child-path-repo");
    const planted = path.join(repo, "rg");
    writeFileSync(planted, "#!/bin/sh\necho planted\n");
    chmodSync(planted, 0o755);
    const spec = launchSpec({ type: "native", command: "/bin/sh" }, ["-c", "command -v rg || echo none"], {
      cwd: repo,
      baseEnv: { PATH: "/nonexistent-dir:" },
    });
    const found = execFileSync(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, encoding: "utf8" });
    expect(found.trim()).toBe("none");
  });
});
