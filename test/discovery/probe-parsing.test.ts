import { describe, expect, it } from "vitest";
import {
  loginShellCommand,
  loginShellFlagSets,
  loginShellMarkers,
  parseLoginShellOutput,
} from "../../src/discovery/login-shell-path.js";
import {
  isDirectoryDependentShim,
  isNodeShebang,
  siblingNodePath,
} from "../../src/discovery/node-launcher.js";
import { parseNpmrcPrefix } from "../../src/discovery/native-host.js";
import { executableProblem } from "../../src/discovery/probe-candidate.js";
import { describeRunFailure } from "../../src/process/run-failure.js";
import { fakeFileInfo } from "../helpers/file-info.js";

describe("describeRunFailure", () => {
  it("describes failures with the last stderr line and the VC++ runtime hint", () => {
    expect(
      describeRunFailure(
        {
          type: "exited",
          code: 127,
          signal: null,
          stdout: "",
          stderr: "x\n/usr/bin/env: 'node': No such file or directory\n",
          stdoutTruncated: false,
          ms: 1,
        },
        1000,
      ),
    ).toBe("exited with code 127: /usr/bin/env: 'node': No such file or directory");
    expect(
      describeRunFailure(
        {
          type: "exited",
          code: 3221225781,
          signal: null,
          stdout: "",
          stderr: "",
          stdoutTruncated: false,
          ms: 1,
        },
        1000,
      ),
    ).toBe("exited with code 3221225781 (the Microsoft Visual C++ runtime is missing)");
    expect(describeRunFailure({ type: "timeout", stdout: "", stderr: "", ms: 1 }, 250)).toBe(
      "timed out after 250 ms",
    );
    expect(
      describeRunFailure({ type: "spawn-error", errno: "EACCES", message: "spawn x EACCES", ms: 1 }, 1),
    ).toBe("could not start (EACCES): spawn x EACCES");
  });
});

describe("login-shell output", () => {
  const nonce = "abc123";
  const { start, end } = loginShellMarkers(nonce);

  it("prints PATH between markers with shell-neutral syntax", () => {
    expect(loginShellCommand(nonce)).toBe(`echo ${start}; printenv PATH; echo ${end}`);
    expect(loginShellFlagSets("/bin/zsh")).toEqual([["-i", "-l"], ["-l"]]);
    expect(loginShellFlagSets("/usr/bin/fish")).toEqual([["-i", "-l"], ["-l"]]);
    expect(loginShellFlagSets("/bin/tcsh")).toEqual([[]]);
  });

  it("ignores rc noise, fake markers and logout output", () => {
    const out = [
      "\u001b]0;title\u0007Welcome!",
      "PATH=/noise",
      start,
      "also noise that looked like a start",
      start,
      "/a:/b c:/d",
      end,
      "bye",
      "",
    ].join("\n");
    expect(parseLoginShellOutput(out, nonce)).toBe("/a:/b c:/d");
    expect(parseLoginShellOutput(`${start}\r\n/a:/b\r\n${end}\r\n`, nonce)).toBe("/a:/b");
    expect(parseLoginShellOutput(`${start}\n/a:/b\n`, nonce)).toBeNull();
    expect(parseLoginShellOutput(`/a\n${end}\n`, nonce)).toBeNull();
    expect(parseLoginShellOutput(`${start}\n/a\n${end}`, "other")).toBeNull();
  });
});

describe("node launcher and files", () => {
  it("recognizes node shebangs", () => {
    expect(isNodeShebang("#!/usr/bin/env node")).toBe(true);
    expect(isNodeShebang("#!/usr/bin/env -S node --no-warnings")).toBe(true);
    expect(isNodeShebang("#!/usr/local/bin/node")).toBe(true);
    expect(isNodeShebang("#!/usr/bin/env nodejs-ish")).toBe(false);
    expect(isNodeShebang("#!/bin/sh")).toBe(false);
    expect(isNodeShebang(null)).toBe(false);
    expect(siblingNodePath("/h/.asdf/installs/nodejs/22/bin/codex", "linux")).toBe(
      "/h/.asdf/installs/nodejs/22/bin/node",
    );
    expect(siblingNodePath("C:\\nvm\\v22\\codex.cmd", "win32")).toBe("C:\\nvm\\v22\\node.exe");
  });

  it("knows which shims depend on the working directory", () => {
    const info = (path: string, realpath: string) => fakeFileInfo(path, { realpath });
    expect(isDirectoryDependentShim(info("/h/.asdf/shims/codex", "/h/.asdf/shims/codex"), "linux")).toBe(
      true,
    );
    expect(isDirectoryDependentShim(info("/h/.volta/bin/codex", "/h/.volta/bin/volta-shim"), "linux")).toBe(
      true,
    );
    expect(isDirectoryDependentShim(info("/usr/local/bin/codex", "/usr/local/lib/codex"), "linux")).toBe(
      false,
    );
  });

  it("says why a file is not a candidate", () => {
    const base = {
      path: "/x",
      realpath: "/x",
      size: 0,
      mtimeMs: 0,
      ctimeMs: 0,
      ino: 0,
      shebang: null,
      scriptMarked: false,
    };
    expect(executableProblem(null, "linux")).toBe("not found");
    expect(executableProblem({ ...base, kind: "directory", executable: false }, "linux")).toBe(
      "is a directory",
    );
    expect(executableProblem({ ...base, kind: "broken-link", executable: false }, "linux")).toBe(
      "is a symlink whose target is missing",
    );
    expect(executableProblem({ ...base, kind: "file", executable: false }, "win32")).toBe(
      "is not an .exe or .cmd file",
    );
    expect(executableProblem({ ...base, kind: "file", executable: true }, "linux")).toBeNull();
  });

  it("reads npm's prefix from .npmrc text", () => {
    expect(parseNpmrcPrefix("registry=x\nprefix = /home/u/.npm-packages\n")).toBe("/home/u/.npm-packages");
    expect(parseNpmrcPrefix('prefix="C:\\npm"')).toBe("C:\\npm");
    expect(parseNpmrcPrefix("fund=false")).toBeNull();
  });
});
