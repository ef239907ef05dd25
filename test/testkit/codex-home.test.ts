import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import type { CodexHome } from "../../src/testkit/codex-home.js";
import { codexHomeConfig, createCodexHome, renderCodexHomeConfig } from "../../src/testkit/codex-home.js";

const modelUrl = "http://127.0.0.1:4321/v1";

describe("codexHomeConfig / renderCodexHomeConfig", () => {
  it("points a retry-free responses provider at the model and turns off what reaches the network", () => {
    const config = parse(renderCodexHomeConfig({ modelUrl }));
    expect(config).toEqual(codexHomeConfig({ modelUrl }));
    expect(config).toMatchObject({
      model: "mock-model",
      model_provider: "mock",
      allow_login_shell: false,
      analytics: { enabled: false },
      features: { plugins: false, unbounded_connection_retries: false, shell_snapshot: false },
      model_providers: {
        mock: {
          base_url: modelUrl,
          wire_api: "responses",
          request_max_retries: 0,
          stream_max_retries: 0,
          supports_websockets: false,
        },
      },
    });
  });

  it("deep-merges extraToml: tables merge, values replace", () => {
    const config = codexHomeConfig({
      modelUrl,
      model: "gpt-5.5",
      extraToml: {
        features: { plugins: true },
        model_providers: { mock: { stream_max_retries: 2 } },
        projects: { "/tmp/x": { trust_level: "trusted" } },
      },
    });
    expect(config).toMatchObject({
      model: "gpt-5.5",
      features: { plugins: true, unbounded_connection_retries: false },
      model_providers: { mock: { base_url: modelUrl, stream_max_retries: 2, request_max_retries: 0 } },
      projects: { "/tmp/x": { trust_level: "trusted" } },
    });
  });

  it("escapes strings so any URL or path round-trips", () => {
    const odd = 'http://127.0.0.1:1/v1?q="quoted"\\\u007f';
    const config = parse(
      renderCodexHomeConfig({ modelUrl: odd, extraToml: { projects: { 'C:\\a "b"': {} } } }),
    );
    expect((config.model_providers as Record<string, { base_url: string }>).mock?.base_url).toBe(odd);
    expect(Object.keys(config.projects as object)).toEqual(['C:\\a "b"']);
  });
  it("refuses a modelUrl that is not an http(s) URL, before writing anything: codex would use its default API", async () => {
    for (const bad of [undefined, "", "127.0.0.1:4321/v1", "ftp://127.0.0.1/v1", 4321]) {
      const options = { modelUrl: bad } as never;
      expect(() => codexHomeConfig(options)).toThrow(
        expect.objectContaining({ code: "TESTKIT_OPTIONS_INVALID", details: { option: "modelUrl" } }),
      );
      await expect(createCodexHome(options)).rejects.toMatchObject({ code: "TESTKIT_OPTIONS_INVALID" });
    }
  });
});

describe("createCodexHome", () => {
  let home: CodexHome | null = null;
  afterEach(async () => {
    await home?.cleanup();
    home = null;
  });

  it("writes config.toml into a fresh directory and cleanup removes it (twice is fine)", async () => {
    home = await createCodexHome({ modelUrl, environmentWarnings: true });
    expect(home.configPath).toBe(`${home.dir}/config.toml`);
    expect(await readFile(home.configPath, "utf8")).toBe(
      renderCodexHomeConfig({ modelUrl, environmentWarnings: true }),
    );
    await home.cleanup();
    expect(existsSync(home.dir)).toBe(false);
    await home.cleanup();
  });

  it("modelCatalog writes a catalog for the model slug and points model_catalog_json at it", async () => {
    home = await createCodexHome({ modelUrl, model: "scripted", modelCatalog: true });
    const config = parse(await readFile(home.configPath, "utf8")) as Record<string, unknown>;
    expect(config.model_catalog_json).toBe(`${home.dir}/model-catalog.json`);
    const catalog = JSON.parse(await readFile(`${home.dir}/model-catalog.json`, "utf8")) as {
      models: { slug: string; apply_patch_tool_type: string }[];
    };
    expect(catalog.models).toMatchObject([{ slug: "scripted", apply_patch_tool_type: "freeform" }]);
  });

  it("is quiet by default: a full-access default sandbox and a catalog equal to codex's fallback metadata", async () => {
    home = await createCodexHome({ modelUrl });
    const config = parse(await readFile(home.configPath, "utf8")) as Record<string, unknown>;
    expect(config.sandbox_mode).toBe("danger-full-access");
    expect(config.model_catalog_json).toBe(`${home.dir}/model-catalog.json`);
    const catalog = JSON.parse(await readFile(`${home.dir}/model-catalog.json`, "utf8")) as {
      models: Record<string, unknown>[];
    };
    expect(catalog.models).toMatchObject([
      { slug: "mock-model", apply_patch_tool_type: null, shell_type: "default", context_window: 272_000 },
    ]);
  });

  it("environmentWarnings: true writes neither, as before", async () => {
    home = await createCodexHome({ modelUrl, environmentWarnings: true });
    const config = parse(await readFile(home.configPath, "utf8")) as Record<string, unknown>;
    expect(config).not.toHaveProperty("sandbox_mode");
    expect(config).not.toHaveProperty("model_catalog_json");
    expect(existsSync(`${home.dir}/model-catalog.json`)).toBe(false);
  });

  it("env sets CODEX_HOME and adds the loopback hosts to NO_PROXY without dropping existing entries", async () => {
    home = await createCodexHome({ modelUrl });
    const env = home.env({ PATH: "/bin", no_proxy: "example.com, 127.0.0.1" });
    expect(env.PATH).toBe("/bin");
    expect(env.CODEX_HOME).toBe(home.dir);
    expect(env.NO_PROXY).toBe("example.com,127.0.0.1,localhost");
    expect(env.no_proxy).toBe(env.NO_PROXY);
    expect(home.env({}).NO_PROXY).toBe("127.0.0.1,localhost");
    expect(home.env().CODEX_HOME).toBe(home.dir);
  });
});
