import { describe, expect, it } from "vitest";
import {
  CAPABILITY_RANGES,
  codexCapabilities,
  MINIMUM_SUPPORTED_CODEX,
  parseVersion,
  type CodexCapabilities,
} from "../../src/codex/versions/capabilities.js";
import {
  assertSupportedVersion,
  UnsupportedCodexVersionError,
} from "../../src/codex/versions/supported-version.js";
import { compareVersions } from "../../src/internal/test-hooks.js";
import { thrownBy } from "../helpers/thrown.js";

type Flags = Omit<CodexCapabilities, "version">;

/** The measured per-version facts (scripts/compat/FINDINGS.md), one row per tested version. */
const MEASURED: Array<[string, Partial<Flags>]> = [
  [
    "0.66.0",
    {
      supported: false,
      dangerFullAccessKebab: false,
      pluginsFeature: false,
      outputSchema: false,
      mcpServerStatusList: false,
      legacyEventNotifications: true,
    },
  ],
  [
    "0.72.0",
    {
      launchOverridesReachThreads: false,
      supported: true,
      dangerFullAccessKebab: true,
      outputSchema: false,
      ephemeralThreads: false,
      mcpServerStatusList: false,
      unifiedExecTool: false,
      projectConfigLayers: false,
    },
  ],
  [
    "0.80.0",
    {
      launchOverridesReachThreads: true,
      outputSchema: true,
      ephemeralThreads: false,
      mcpServerStatusList: true,
      projectConfigLayers: true,
      projectLayersNeedTrust: false,
      projectLayerRestricted: false,
      agentsMdNeedsTrust: false,
      resumeTakesCwd: false,
    },
  ],
  ["0.87.0", { projectLayersNeedTrust: false, projectRulesNeedTrust: false }],
  ["0.89.0", { projectLayersNeedTrust: true, projectRulesNeedTrust: false }],
  [
    "0.90.0",
    {
      ephemeralThreads: true,
      optOutNotificationMethods: false,
      projectLayersNeedTrust: true,
      resumeTakesCwd: true,
    },
  ],
  ["0.95.0", { unifiedExecTool: false }],
  ["0.98.0", { unifiedExecTool: true, optOutNotificationMethods: false }],
  [
    "0.100.0",
    {
      optOutNotificationMethods: true,
      pluginsFeature: false,
      legacyEventNotifications: true,
      modelCatalogJson: false,
    },
  ],
  ["0.107.0", { pluginsFeature: false }],
  [
    "0.110.0",
    {
      pluginsFeature: true,
      legacyEventNotifications: true,
      mcpStartupStatusNotification: false,
      modelCatalogJson: true,
    },
  ],
  [
    "0.114.0",
    { legacyEventNotifications: true, initializeCodexHome: false, commandItemCompletedReliable: true },
  ],
  [
    "0.117.0",
    {
      legacyEventNotifications: false,
      mcpStartupStatusNotification: true,
      initializeCodexHome: true,
      commandItemCompletedReliable: false,
      trustRewriteAtThreadStart: false,
    },
  ],
  [
    "0.118.0",
    {
      trustRewriteAtThreadStart: false,
      trustPersistedAtThreadStart: false,
      commandItemCompletedReliable: false,
    },
  ],
  [
    "0.120.0",
    { trustRewriteAtThreadStart: true, trustPersistedAtThreadStart: true, mcpToolNamespaceRequired: false },
  ],
  ["0.121.0", { mcpToolNamespaceRequired: true, mcpNamespaceBare: false, projectRulesNeedTrust: false }],
  ["0.122.0", { trustRewriteAtThreadStart: true, projectRulesNeedTrust: true }],
  ["0.124.0", { trustRewriteAtThreadStart: true }],
  ["0.125.0", { trustRewriteAtThreadStart: false, trustPersistedAtThreadStart: true }],
  ["0.128.0", { projectLayerRestricted: false }],
  ["0.129.0", { projectLayerRestricted: true }],
  [
    "0.130.0",
    {
      mcpStatusThreadScoped: false,
      notificationEmittedAt: false,
      commandItemCompletedReliable: false,
      mcpToolNamespaceRequired: true,
      mcpNamespaceBare: false,
      effortForUncataloguedModel: false,
    },
  ],
  [
    "0.145.0",
    {
      mcpStatusThreadScoped: true,
      notificationEmittedAt: true,
      commandItemCompletedReliable: false,
      mcpNamespaceBare: true,
      effortForUncataloguedModel: true,
    },
  ],
  ["0.134.0", { mcpNamespaceBare: false }],
  ["0.135.0", { mcpNamespaceBare: true, notificationEmittedAt: false }],
  ["0.146.0", { commandItemCompletedReliable: true }],
  ["0.148.0", { mcpRuntimeStatus: false, agentsMdNeedsTrust: false }],
  ["0.149.1", { mcpRuntimeStatus: false }],
  ["0.150.0", { mcpRuntimeStatus: true, planToolForUncataloguedModel: true, agentsMdNeedsTrust: true }],
  ["0.160.0", { planToolForUncataloguedModel: false }],
  ["0.90.0", { turnSteer: false }],
  ["0.100.0", { turnSteer: true }],
  [
    "0.171.0",
    {
      supported: true,
      mcpRuntimeStatus: true,
      legacyEventNotifications: false,
      trustRewriteAtThreadStart: false,
      commandItemCompletedReliable: true,
    },
  ],
];

describe("codexCapabilities", () => {
  it.each(MEASURED)("%s matches the measured facts", (version, expected) => {
    const record = codexCapabilities(version);
    expect(record.version).toBe(version);
    expect(record).toMatchObject(expected);
  });

  it("assumes the newest codex for an unknown version", () => {
    for (const unknown of [null, undefined, "", "codex-cli dev"]) {
      const record = codexCapabilities(unknown);
      expect(record.version).toBeNull();
      expect({ ...record, version: "999.0.0" }).toEqual(codexCapabilities("999.0.0"));
    }
    expect(codexCapabilities(null)).toMatchObject({
      supported: true,
      pluginsFeature: true,
      mcpRuntimeStatus: true,
      legacyEventNotifications: false,
      trustRewriteAtThreadStart: false,
      commandItemCompletedReliable: true,
    });
  });

  it("reads `codex --version` output and prerelease versions", () => {
    expect(codexCapabilities("codex-cli 0.110.0").pluginsFeature).toBe(true);
    expect(codexCapabilities("codex-cli 0.110.0").version).toBe("0.110.0");
    // a prerelease sorts before its release: 0.150.0-alpha.1 is not yet 0.150.0
    expect(codexCapabilities("0.150.0-alpha.1").mcpRuntimeStatus).toBe(false);
    expect(codexCapabilities("0.150.0-alpha.1").version).toBe("0.150.0-alpha.1");
  });

  it("builds a version's record once and shares it frozen (every session asks more than once)", () => {
    const record = codexCapabilities("codex-cli 0.131.0");
    expect(codexCapabilities("codex-cli 0.131.0")).toBe(record);
    expect(Object.isFrozen(record)).toBe(true);
    expect(codexCapabilities("0.131.0")).toEqual(record);
    expect(codexCapabilities(null)).toBe(codexCapabilities(undefined));
  });

  it("has a record key for every table row and only boolean flags", () => {
    const record = codexCapabilities("0.120.0");
    for (const name of Object.keys(CAPABILITY_RANGES))
      expect(typeof record[name as keyof Flags]).toBe("boolean");
  });
});

describe("compareVersions", () => {
  it.each([
    ["0.72.0", "0.100.0", -1],
    ["0.100.0", "0.72.0", 1],
    ["0.149.1", "0.150.0", -1],
    ["0.150.0-alpha.1", "0.150.0", -1],
    ["0.150.0-alpha.2", "0.150.0-alpha.10", -1],
    ["0.150.0-alpha", "0.150.0-beta", -1],
    ["1.0.0", "1.0.0", 0],
  ])("%s vs %s", (a, b, sign) => {
    const pa = parseVersion(a);
    const pb = parseVersion(b);
    if (!pa || !pb) throw new Error("unparsed");
    expect(Math.sign(compareVersions(pa, pb))).toBe(sign);
  });
});

describe("assertSupportedVersion", () => {
  it("rejects versions below the minimum with the upgrade command", () => {
    expect(() => assertSupportedVersion("0.66.0")).toThrow(UnsupportedCodexVersionError);
    expect(thrownBy(() => assertSupportedVersion("codex-cli 0.66.0"))).toMatchObject({
      code: "CODEX_UNSUPPORTED_VERSION",
      version: "codex-cli 0.66.0",
      minimum: MINIMUM_SUPPORTED_CODEX,
      message:
        "codex 0.66.0 is older than the oldest supported 0.72.0; upgrade with `npm i -g @openai/codex@latest`",
    });
    expect(() => assertSupportedVersion("0.72.0-alpha.1")).toThrow(/0\.72\.0-alpha\.1 is older/);
  });

  it("accepts the minimum, newer and unknown versions", () => {
    for (const version of ["0.72.0", "0.100.0", "0.171.0", "1.2.3", null, undefined, "", "dev"]) {
      expect(() => assertSupportedVersion(version)).not.toThrow();
    }
  });
});
