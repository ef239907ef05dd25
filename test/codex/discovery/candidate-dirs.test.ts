import { describe, expect, it } from "vitest";
import {
  candidateDirs as neutralCandidateDirs,
  type CandidateDirsInput,
} from "../../../src/discovery/candidate-dirs.js";
import { codexOwnDirs } from "../../../src/codex/launch/codex-files.js";

/** Codex's candidate directories: the neutral ones with Codex's own. */
const candidateDirs = (input: CandidateDirsInput) => neutralCandidateDirs(input, codexOwnDirs(input));

describe("candidateDirs for Codex (pure)", () => {
  it("orders login-shell PATH, process PATH, known locations, de-duplicated (first source wins)", () => {
    const dirs = candidateDirs({
      platform: "linux",
      env: { PATH: "/usr/bin:/home/u/.local/bin/:/bin" },
      homedir: "/home/u",
      loginShellPath: "/home/u/.nvm/versions/node/v22/bin:/usr/bin",
      npmPrefix: "/home/u/.npm-prefix",
    });
    const list = dirs.map((d) => [d.dir, d.source]);
    expect(list.slice(0, 4)).toEqual([
      ["/home/u/.nvm/versions/node/v22/bin", "login-shell-path"],
      ["/usr/bin", "login-shell-path"],
      ["/home/u/.local/bin/", "process-path"],
      ["/bin", "process-path"],
    ]);
    const known = dirs.filter((d) => d.source === "known-location").map((d) => d.dir);
    expect(known).not.toContain("/home/u/.local/bin"); // already on PATH
    expect(known).toEqual([
      "/home/u/.codex/packages/standalone/current/bin",
      "/home/u/.npm-prefix/bin",
      "/home/u/.npm-global/bin",
      "/usr/local/bin",
      "/opt/homebrew/bin",
      "/home/linuxbrew/.linuxbrew/bin",
      "/home/u/.volta/bin",
      "/home/u/.bun/bin",
      "/home/u/.asdf/shims",
      "/home/u/.asdf/installs/nodejs/*/bin",
      "/home/u/.local/share/mise/shims",
      "/home/u/.local/share/mise/installs/node/*/bin",
      "/home/u/.local/share/fnm/aliases/default/bin",
      "/home/u/.local/share/fnm/node-versions/*/installation/bin",
      "/home/u/.fnm/aliases/default/bin",
      "/home/u/.fnm/node-versions/*/installation/bin",
      "/home/u/.nvm/versions/node/*/bin",
      "/home/u/.local/share/pnpm",
      "/home/u/.yarn/bin",
    ]);
    expect(dirs.some((d) => d.source === "desktop-app")).toBe(false);
  });

  it("honours version-manager environment variables and CODEX_HOME", () => {
    const dirs = candidateDirs({
      platform: "linux",
      env: {
        NVM_DIR: "/opt/nvm",
        ASDF_DATA_DIR: "/data/asdf",
        VOLTA_HOME: "/v",
        PNPM_HOME: "/p",
        CODEX_HOME: "/c",
        npm_config_prefix: "/np",
      },
      homedir: "/home/u",
      loginShellPath: null,
    }).map((d) => d.dir);
    expect(dirs).toEqual(
      expect.arrayContaining([
        "/opt/nvm/versions/node/*/bin",
        "/data/asdf/shims",
        "/v/bin",
        "/p",
        "/c/packages/standalone/current/bin",
        "/np/bin",
      ]),
    );
  });

  it("on macOS adds ChatGPT.app and Codex.app bundles last, as desktop-app", () => {
    const dirs = candidateDirs({
      platform: "darwin",
      env: { PATH: "/usr/bin" },
      homedir: "/Users/u",
      loginShellPath: null,
    });
    const apps = dirs.filter((d) => d.source === "desktop-app").map((d) => d.dir);
    expect(apps).toEqual([
      "/Applications/ChatGPT.app/Contents/Resources",
      "/Users/u/Applications/ChatGPT.app/Contents/Resources",
      "/Applications/Codex.app/Contents/Resources",
      "/Users/u/Applications/Codex.app/Contents/Resources",
    ]);
    expect(dirs.slice(-4).every((d) => d.source === "desktop-app")).toBe(true);
    expect(dirs.map((d) => d.dir)).toContain("/Users/u/Library/pnpm");
  });

  it("inside WSL adds the Windows desktop app's Linux CLI as a desktop-app location", () => {
    const dirs = candidateDirs({
      platform: "linux",
      env: {},
      homedir: "/home/u",
      loginShellPath: null,
      windowsProfileMount: "/mnt/c/Users/bob",
    });
    expect(dirs.at(-1)).toEqual({
      dir: "/mnt/c/Users/bob/.codex/bin/wsl/*",
      source: "desktop-app",
      label: "Windows Codex app's WSL CLI",
    });
  });

  it("puts system-wide locations under systemRoot (hermetic tests)", () => {
    const dirs = candidateDirs({
      platform: "darwin",
      env: {},
      homedir: "/Users/u",
      loginShellPath: null,
      systemRoot: "/tmp/root",
    }).map((d) => d.dir);
    expect(dirs).toContain("/tmp/root/usr/local/bin");
    expect(dirs).toContain("/tmp/root/Applications/ChatGPT.app/Contents/Resources");
    expect(dirs).not.toContain("/usr/local/bin");
  });
});
