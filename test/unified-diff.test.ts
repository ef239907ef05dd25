import { describe, expect, it } from "vitest";
import { unifiedDiffOfFiles, unifiedDiffOfNewFile } from "../src/unified-diff.js";

describe("unifiedDiffOfFiles", () => {
  it("names each file in ---/+++ lines, /dev/null for the side an added or deleted file lacks", () => {
    expect(
      unifiedDiffOfFiles([
        { path: "a.txt", kind: "add", diff: unifiedDiffOfNewFile("x\n") },
        { path: "b.txt", kind: "update", diff: "@@ -1 +1 @@\n-a\n+b" },
        { path: "c.txt", kind: "delete", diff: "" },
      ]),
    ).toBe("--- /dev/null\n+++ a.txt\n@@ -0,0 +1,1 @@\n+x\n--- b.txt\n+++ b.txt\n@@ -1 +1 @@\n-a\n+b\n");
    expect(unifiedDiffOfFiles([{ path: "a", kind: "update", diff: null }])).toBeNull();
  });

  it("quotes a name with a newline, a control or a quote as git does, its backslashes doubled: no line of its own", () => {
    const diff = unifiedDiffOfFiles([
      { path: 'evil\n+++ other\t"q"\\\u0001.txt', kind: "update", diff: "@@ -1 +1 @@\n-a\n+b\n" },
    ]);
    const quoted = '"evil\\n+++ other\\t\\"q\\"\\\\\\001.txt"';
    expect(diff).toBe(`--- ${quoted}\n+++ ${quoted}\n@@ -1 +1 @@\n-a\n+b\n`);
    expect(diff?.split("\n").filter((line) => line.startsWith("+++"))).toHaveLength(1);
  });

  it("leaves a name without them as it is: non-ASCII, spaces, a Windows path's backslashes", () => {
    for (const path of ["dir/naïve file.txt", "C:\\repo\\a.txt"]) {
      const diff = unifiedDiffOfFiles([{ path, kind: "update", diff: "@@ -1 +1 @@\n" }]);
      expect(diff).toBe(`--- ${path}\n+++ ${path}\n@@ -1 +1 @@\n`);
    }
  });
});
