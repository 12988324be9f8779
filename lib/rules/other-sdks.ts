/**
 * Packages that are not the `openai` SDK but whose clients can have the same shape
 * (`client.chat.completions.create(…)`, or v3's `createChatCompletion`): N05 in docs/migration-spec.md §10.
 * A client from one of these is not a site. A client from any other package (a company's shared
 * `@acme/ai` that exports a configured openai client) is not proven either way and is listed
 * (P-UNRESOLVED). The corpus reconciliation (bench/corpus/classify.ts) explains an occurrence as
 * `other-sdk` only when every construction of its receiver, in the same file, comes from one of these.
 *
 * Package names as they are imported; a subpath (`groq-sdk/resources`), a version or a Deno/CDN
 * prefix (`npm:groq-sdk@0.9`, `https://esm.sh/groq-sdk`) is reduced to the name first.
 */
export const OTHER_SDK_PACKAGES: ReadonlyArray<{ name: string; why: string }> = [
  { name: 'groq-sdk', why: 'Groq client, chat.completions.create' },
  { name: 'together-ai', why: 'Together client, chat.completions.create/stream' },
  { name: '@mistralai/mistralai', why: 'Mistral client, chat.complete/stream' },
  { name: 'portkey-ai', why: 'Portkey gateway client, chat.completions.create' },
  { name: '@cerebras/cerebras_cloud_sdk', why: 'Cerebras client, chat.completions.create' },
  { name: '@azure/openai', why: 'Azure OpenAI SDK v1 (getChatCompletions), N09' },
  { name: '@anthropic-ai/sdk', why: 'Anthropic client' },
  { name: 'cohere-ai', why: 'Cohere client' },
  { name: '@huggingface/inference', why: 'Hugging Face inference client, chatCompletion' },
  { name: 'ollama', why: 'Ollama client, chat' },
  { name: '@google/genai', why: 'Google Gen AI client' },
  { name: '@google/generative-ai', why: 'Google Generative AI client' },
  { name: 'fireworks-ai', why: 'Fireworks client' },
  { name: '@fal-ai/client', why: 'fal client' },
  { name: 'replicate', why: 'Replicate client' },
  { name: 'llm-polyglot', why: 'multi-provider client factory (createLLMClient), N05' },
  { name: 'token.js', why: 'multi-provider client (TokenJS), chat.completions.create, N05' },
];

/** Mocking libraries: a client they make is a test double (N04), not a site. */
export const MOCK_PACKAGES: ReadonlySet<string> = new Set([
  'jest-mock-extended', 'vitest-mock-extended', 'sinon', 'ts-mockito', '@golevelup/ts-jest', '@golevelup/ts-vitest', 'testdouble', 'vitest', 'jest', '@jest/globals',
]);

const NAMES: ReadonlySet<string> = new Set(OTHER_SDK_PACKAGES.map((p) => p.name));

/**
 * The package a module specifier names: `npm:x@1/y` → `x`, `@a/b/c` → `@a/b`,
 * `https://esm.sh/x@1` → `x`, `jsr:@openai/openai` → `@openai/openai`. Relative paths stay as they are.
 */
export function packageName(specifier: string): string {
  let s = specifier;
  const cdn = /^https?:\/\/(?:esm\.sh|cdn\.skypack\.dev|cdn\.jsdelivr\.net\/npm|unpkg\.com|deno\.land\/x)\/(.+)$/.exec(s);
  if (cdn) s = cdn[1];
  s = s.replace(/^(npm|jsr|node):/, '');
  if (s.startsWith('.') || s.startsWith('/')) return s;
  const parts = s.split('/');
  const name = s.startsWith('@') ? `${parts[0]}/${(parts[1] ?? '').replace(/@.*$/, '')}` : parts[0].replace(/@.*$/, '');
  return name;
}

export function isOtherSdk(specifier: string): boolean {
  return NAMES.has(packageName(specifier));
}

export function isMockPackage(specifier: string): boolean {
  return MOCK_PACKAGES.has(packageName(specifier));
}
