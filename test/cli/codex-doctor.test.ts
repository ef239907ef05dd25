import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { DriftRow } from "../../src/codex/versions/drift/drift-compare.js";
import { TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";

const caps = codexCapabilities(testCodexVersion());

function memoryStream() {
  const chunks: string[] = [];
  return {
    stream: { write: (text: string) => (chunks.push(text), true) } as unknown as NodeJS.WritableStream,
    get text() {
      return chunks.join("");
    },
  };
}

let home = "";
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "rennet-doctor-home-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function doctor(args: string[], env: NodeJS.ProcessEnv) {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await main(["codex", "doctor", ...args], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { HOME: home, SHELL: "/nonexistent/shell", RENNET_STATE_DIR: path.join(home, "state"), ...env },
    cwd: home,
  } as never);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe("rennet codex doctor: schema drift", () => {
  it("checks the chosen binary's generated schema, shows the table, and caches it per binary", async () => {
    const env = { PATH: "/usr/bin:/bin", RENNET_CODEX_BIN: TEST_CODEX_BIN };
    const first = await doctor(["--json"], env);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as {
      drift: { cached: boolean; version: string; comparison: { ok: boolean; rows: DriftRow[] } };
    };
    // what a supported but older codex lacks is reported as drift, exactly the capabilities it misses
    const missing = [
      ...(caps.outputSchema ? [] : ["turn/start.outputSchema"]),
      ...(caps.ephemeralThreads ? [] : ["thread/start.ephemeral", "config/read.cwd"]),
    ];
    expect(report.drift).toMatchObject({
      cached: false,
      version: testCodexVersion(),
      comparison: { ok: missing.length === 0 },
    });
    expect(report.drift.comparison.rows.length).toBeGreaterThan(50);
    const bad = report.drift.comparison.rows.filter((row) => !row.optional && row.status !== "ok");
    expect(bad.map((row) => `${row.subject} ${row.status}`).sort()).toEqual(
      missing.map((subject) => `${subject} missing`).sort(),
    );

    const text = await doctor(["--no-color"], env);
    expect(text.code).toBe(0);
    const version = (testCodexVersion() ?? "").replaceAll(".", "\\.");
    expect(text.stdout).toMatch(new RegExp(`Schema drift: codex ${version} \\(.*\\) · cached`));
    expect(text.stdout).toMatch(/ok {7}thread\/start\.sandbox = "danger-full-access"/);
    if (missing.length === 0)
      expect(text.stdout).toContain("OK: everything Rennet sends or relies on exists");
    else expect(text.stdout).toContain(`DRIFT: ${missing.length} of `);

    const skipped = await doctor(["--json", "--no-drift"], env);
    expect((JSON.parse(skipped.stdout) as { drift?: unknown }).drift).toBeUndefined();
  }, 60_000);
});

describe("rennet codex doctor", () => {
  it("reports the chosen codex and exits 0 when a candidate passes every probe", async () => {
    const { code, stdout } = await doctor(["--json"], {
      PATH: "/usr/bin:/bin",
      RENNET_CODEX_BIN: TEST_CODEX_BIN,
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      available: boolean;
      chosen: { path: string; version: string; source: string };
    };
    expect(report.available).toBe(true);
    expect(report.chosen).toMatchObject({
      path: TEST_CODEX_BIN,
      version: testCodexVersion(),
      source: "env-override",
    });
  });

  it("exits 3 and says why for every candidate when none works", async () => {
    const { code, stdout } = await doctor([], {
      PATH: "/usr/bin:/bin",
      RENNET_CODEX_BIN: path.join(home, "missing-codex"),
    });
    expect(code).toBe(3);
    expect(stdout).toContain("unavailable");
    expect(stdout).toContain("missing-codex");
  });

  it("--codex-bin probes exactly that executable", async () => {
    const { code, stdout } = await doctor(["--json", "--codex-bin", TEST_CODEX_BIN], {
      PATH: "/usr/bin:/bin",
    });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { candidates: unknown[] }).candidates).toHaveLength(1);
  });

  it("--cwd shows the project trust a turn there gets, asked of the chosen codex", async () => {
    const repo = path.join(home, "repo");
    await mkdir(path.join(repo, ".codex"), { recursive: true });
    await writeFile(path.join(repo, ".codex", "config.toml"), '[mcp_servers.x]\ncommand = "sh"\n');
    const env = { PATH: "/usr/bin:/bin" };
    const { code, stdout } = await doctor(
      ["--json", "--no-drift", "--codex-bin", TEST_CODEX_BIN, "--cwd", repo],
      env,
    );
    expect(code).toBe(0);
    const { trust } = JSON.parse(stdout) as { trust: Record<string, unknown> };
    const effect = !caps.projectConfigLayers
      ? "not-read"
      : caps.projectLayersNeedTrust
        ? "kept-out"
        : "refused";
    expect(trust).toMatchObject({
      cwd: repo,
      codexVersion: testCodexVersion(),
      trust: { level: "untrusted", source: "default" },
      projectLayer: effect,
    });

    const text = await doctor(
      ["--no-drift", "--no-color", "--codex-bin", TEST_CODEX_BIN, "--cwd", repo],
      env,
    );
    expect(text.stdout).toContain(`Project trust: untrusted  ${repo}`);
  });

  it.each([
    ["missing", "no such directory; create it or pass an existing one"],
    ["a-file", "not a directory; pass the directory Codex should work in, not a file"],
  ])(
    "--cwd %s is a usage error (exit 2), as for `run`, before discovery starts anything",
    async (name, why) => {
      const cwd = path.join(home, name);
      if (name === "a-file") await writeFile(cwd, "");
      // the only candidate, logging each start: nothing may start it
      const log = path.join(home, "codex-starts.log");
      const codex = path.join(home, "logging-codex");
      await writeFile(codex, `#!/bin/sh\necho "$@" >> "${log}"\nexec "${TEST_CODEX_BIN}" "$@"\n`, {
        mode: 0o755,
      });
      const env = {
        PATH: "/usr/bin:/bin",
        RENNET_CODEX_BIN: codex,
        CODEX_HOME: path.join(home, "codex-home"),
      };
      for (const json of [[], ["--json"]]) {
        const { code, stdout, stderr } = await doctor([...json, "--no-drift", "--cwd", cwd], env);
        expect(code).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).toBe(`error: --cwd ${cwd}: ${why} (${cwd})\n(see \`rennet codex doctor --help\`)\n`);
      }
      const relative = await doctor(["--no-drift", "--cwd", name], env);
      expect(relative.stderr).toBe(
        `error: --cwd ${name}: ${why} (${cwd})\n(see \`rennet codex doctor --help\`)\n`,
      );
      expect(existsSync(log)).toBe(false);
    },
  );
});
