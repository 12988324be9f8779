/**
 * Provider facts as data (docs/migration-spec.md §7): which hosts are OpenAI, what an Azure v1 or legacy
 * URL looks like, which client options do not change the provider, which model names hint at
 * another vendor.
 */

export const OPENAI_HOST = 'api.openai.com';

/** The SDK's own default, spelled out: `process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'`. */
export const SDK_BASE_URL_ENV = 'OPENAI_BASE_URL';
export const SDK_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Azure OpenAI v1 endpoint path (P-AZURE-V1). */
export const AZURE_V1_SUFFIX = /\/openai\/v1\/?$/;
/**
 * Azure resource hosts. A literal URL ending in /openai/v1 is Azure only on one of these: P07's
 * `https://api.vendor.example/openai/v1` (and Groq's real base URL) is another vendor.
 */
export const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com|openai\.azure\.us|openai\.azure\.cn)$/i;
/** Azure deployments path (P-AZURE-LEGACY). */
export const AZURE_DEPLOYMENTS = '/openai/deployments/';

/** Client option keys that change where requests go. Everything else (apiKey, timeout…) does not. */
export const PROVIDER_OPTION_KEYS = ['baseURL', 'provider', 'dataResidency', 'defaultQuery'] as const;

/** P-MODEL-HINT: a literal model of another vendor's family behind a default client. */
export const FOREIGN_MODEL_HINT = /^(gemini|llama|meta-llama|codellama|llava|mixtral|mistral|open-mistral|open-mixtral|ministral|pixtral|codestral|deepseek|claude|qwen|qwq|command-r|grok|phi-?\d|gemma|sonar|glm-|chatglm|moonshot-|kimi-|yi-|ernie-|doubao-)/i;

/**
 * P-KEY-HINT: a default client whose key is named for another vendor (`GROQ_API_KEY`,
 * `openrouterKey`, `VITE_DEEPSEEK_API_KEY`): it only works where OPENAI_BASE_URL points at that
 * vendor, whose host may not serve /responses (probe of request options).
 */
export const FOREIGN_KEY_HINT = /(?<![A-Za-z0-9])(groq|openrouter|deepseek|together|mistral|anthropic|claude|gemini|google|xai|grok|perplexity|pplx|fireworks|ollama|dashscope|qwen|moonshot|kimi|zhipu|siliconflow|cerebras|deepinfra|sambanova|novita|nebius|hyperbolic|nvidia|azure|litellm|portkey)_?[A-Za-z0-9_]*?(key|token)(?![A-Za-z0-9])/i;

/** P-KEY-HINT: OpenRouter's attribution headers, sent only to OpenRouter. */
export const FOREIGN_HEADER_HINT = /^(http-referer|x-title)$/i;

/**
 * P-MODEL-HINT: a model name api.openai.com does not serve: another vendor's family, or a
 * `vendor/model` id (OpenRouter's `anthropic/claude-3.5-sonnet`, Together's `meta-llama/…`, even
 * `openai/gpt-4o`), which only a gateway routes; OpenAI's own names hold no `/`.
 */
export function isForeignModelName(name: string): boolean {
  return FOREIGN_MODEL_HINT.test(name) || name.includes('/');
}

export function isOpenAIHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === OPENAI_HOST || h.endsWith(`.${OPENAI_HOST}`);
}
