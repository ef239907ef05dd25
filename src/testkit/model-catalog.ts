/**
 * A model catalog (`model_catalog_json`) that gives the loopback model the metadata codex otherwise lacks for
 * an unknown slug ("falling back to built-in metadata"). With it codex (0.110 and newer; older versions ignore
 * the key) offers the model the freeform `apply_patch` tool, so a scripted model can edit files
 * (`modelScenarios.applyPatch`).
 */
export function loopbackModelCatalog(slug: string): { models: Record<string, unknown>[] } {
  return {
    models: [
      {
        slug,
        display_name: slug,
        description: "Rennet's loopback test model",
        default_reasoning_level: "medium",
        supported_reasoning_levels: [{ effort: "medium", description: "medium" }],
        shell_type: "unified_exec",
        visibility: "list",
        supported_in_api: true,
        priority: 1,
        availability_nux: null,
        upgrade: null,
        base_instructions: "You are a scripted test model.",
        model_messages: null,
        supports_reasoning_summaries: true,
        default_reasoning_summary: "auto",
        support_verbosity: false,
        default_verbosity: null,
        apply_patch_tool_type: "freeform",
        truncation_policy: { mode: "bytes", limit: 10_000 },
        supports_parallel_tool_calls: false,
        supports_image_detail_original: false,
        context_window: 200_000,
        auto_compact_token_limit: null,
        effective_context_window_percent: 95,
        experimental_supported_tools: [],
        input_modalities: ["text", "image"],
        supports_search_tool: false,
      },
    ],
  };
}

/**
 * A catalog entry equal to the metadata codex falls back to for a slug it does not know (no `apply_patch`,
 * default shell, 272 000-token window): the model is offered the same tools as without a catalog (measured on
 * 0.72–0.171), but codex no longer warns "Model metadata for `…` not found". Its base instructions are a short
 * line instead of codex's own prompt.
 */
export function fallbackModelCatalog(slug: string): { models: Record<string, unknown>[] } {
  const [model] = loopbackModelCatalog(slug).models;
  return {
    models: [
      {
        ...model,
        default_reasoning_level: null,
        supported_reasoning_levels: [],
        shell_type: "default",
        visibility: "none",
        priority: 99,
        supports_reasoning_summaries: false,
        apply_patch_tool_type: null,
        context_window: 272_000,
      },
    ],
  };
}
