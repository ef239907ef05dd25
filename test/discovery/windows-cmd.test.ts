import { describe, expect, it } from "vitest";
import {
  escapeCmdShimArgument,
  quoteMsvcrtArgument,
  windowsCmdLaunch,
} from "../../src/discovery/windows-cmd.js";
import { cmdUnescape, parseMsvcrt } from "../helpers/windows-cmd-line.js";

const NASTY = [
  "app-server",
  "-c",
  "mcp_servers={docs={enabled=false}}",
  'model="gpt 5"',
  "a&b|c>d",
  "100%PATH%",
  "trailing\\",
  'quote\\"d',
  "(x) ^ !y!",
  "",
];

describe("windowsCmdLaunch (pure argv)", () => {
  it("runs the shim through cmd.exe /d /s /c with one verbatim, fully escaped command line", () => {
    const launch = windowsCmdLaunch(
      "C:\\Users\\John Smith\\AppData\\Roaming\\npm\\codex.cmd",
      ["app-server"],
      "C:\\Windows\\system32\\cmd.exe",
    );
    expect(launch).toEqual({
      command: "C:\\Windows\\system32\\cmd.exe",
      args: [
        "/d",
        "/s",
        "/c",
        '"C:\\Users\\John^ Smith\\AppData\\Roaming\\npm\\codex.cmd ^^^"app-server^^^""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it("every argument survives cmd.exe's line, the shim's %* re-parse and the MSVCRT parser unchanged", () => {
    const launch = windowsCmdLaunch("C:\\npm\\codex.cmd", NASTY);
    const line = launch.args[3] ?? "";
    expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
    const afterCmd = cmdUnescape(line.slice(1, -1)); // /s strips the outer quotes; pass 1
    const shimArgs = afterCmd.slice(afterCmd.indexOf(" ") + 1); // %* = what follows the shim's path
    // no metacharacter is left unescaped for the shim's own parse
    expect(shimArgs.replace(/\^./g, "")).not.toMatch(/[&|<>()%!]/);
    expect(parseMsvcrt(cmdUnescape(shimArgs))).toEqual(NASTY);
  });

  it("quotes for MSVCRT: backslashes before quotes and at the end are doubled", () => {
    expect(quoteMsvcrtArgument("plain")).toBe('"plain"');
    expect(quoteMsvcrtArgument('a"b')).toBe('"a\\"b"');
    expect(quoteMsvcrtArgument("dir\\")).toBe('"dir\\\\"');
    expect(quoteMsvcrtArgument('x\\"y')).toBe('"x\\\\\\"y"');
    expect(escapeCmdShimArgument("&")).toBe('^^^"^^^&^^^"');
  });
});
