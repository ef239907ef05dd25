import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeHome } from "../../src/testkit/claude-home.js";
import { startLoopbackMessagesServer } from "../../src/testkit/loopback-messages-server.js";

describe("createClaudeHome", () => {
  it("refuses a modelUrl that is not an http(s) URL and a maxRetries that is not a whole number", async () => {
    for (const modelUrl of [undefined, "", "127.0.0.1:5555", "file:///tmp/x"])
      await expect(createClaudeHome({ modelUrl } as never)).rejects.toMatchObject({
        code: "TESTKIT_OPTIONS_INVALID",
        details: { option: "modelUrl" },
      });
    for (const maxRetries of [-1, 1.5, "ten", Number.NaN])
      await expect(
        createClaudeHome({ modelUrl: "http://127.0.0.1:5555", maxRetries } as never),
      ).rejects.toMatchObject({ code: "TESTKIT_OPTIONS_INVALID", details: { option: "maxRetries" } });
  });

  it("shows a number given as a string as a string, not as the number it looks like", async () => {
    await expect(
      createClaudeHome({ modelUrl: "http://127.0.0.1:5555", maxRetries: "2" } as never),
    ).rejects.toThrow('maxRetries must be a whole number ≥ 0, got "2"');
    await expect(startLoopbackMessagesServer({ maxBodyBytes: "5" } as never)).rejects.toThrow(
      'maxBodyBytes must be a positive whole number of bytes, got "5"',
    );
  });

  it("gives Claude Code a throw-away HOME and the environment of an offline turn", async () => {
    const home = await createClaudeHome({ modelUrl: "http://127.0.0.1:5555" });
    try {
      expect(statSync(home.tmpDir).isDirectory()).toBe(true);
      expect(path.dirname(home.tmpDir)).toBe(home.dir);
      const env = home.env({
        PATH: "/usr/bin",
        HOME: "/root",
        ANTHROPIC_AUTH_TOKEN: "real-token",
        ANTHROPIC_MODEL: "opus",
        CLAUDE_CODE_USE_BEDROCK: "1",
        CLAUDE_CONFIG_DIR: "/root/.claude",
        CLAUDECODE: "1",
        NO_PROXY: "example.com, localhost",
      });
      expect(env).toEqual({
        PATH: "/usr/bin",
        HOME: home.dir,
        USERPROFILE: home.dir,
        XDG_CONFIG_HOME: path.join(home.dir, ".config"),
        XDG_DATA_HOME: path.join(home.dir, ".local", "share"),
        XDG_CACHE_HOME: path.join(home.dir, ".cache"),
        XDG_STATE_HOME: path.join(home.dir, ".local", "state"),
        ANTHROPIC_BASE_URL: "http://127.0.0.1:5555",
        ANTHROPIC_API_KEY: "rennet-loopback-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
        CLAUDE_CODE_TMPDIR: home.tmpDir,
        NO_PROXY: "example.com,localhost,127.0.0.1",
        no_proxy: "example.com,localhost,127.0.0.1",
      });
    } finally {
      await home.cleanup();
    }
    expect(existsSync(home.dir)).toBe(false);
    await home.cleanup();
  });

  it("never adds IS_SANDBOX, and leaves the caller's own value alone", async () => {
    const home = await createClaudeHome({ modelUrl: "http://127.0.0.1:1", apiKey: "k", maxRetries: 2 });
    try {
      expect(home.env({})).not.toHaveProperty("IS_SANDBOX");
      expect(home.env({ IS_SANDBOX: "1" }).IS_SANDBOX).toBe("1");
      expect(home.env({})).toEqual(
        expect.objectContaining({ ANTHROPIC_API_KEY: "k", CLAUDE_CODE_MAX_RETRIES: "2" }),
      );
    } finally {
      await home.cleanup();
    }
  });

  it("writes the user's own settings when asked", async () => {
    const home = await createClaudeHome({
      modelUrl: "http://127.0.0.1:1",
      userSettings: { env: { A: "1" } },
    });
    try {
      const file = path.join(home.dir, ".claude", "settings.json");
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ env: { A: "1" } });
    } finally {
      await home.cleanup();
    }
  });
});
