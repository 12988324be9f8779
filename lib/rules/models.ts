/**
 * Model families, as data (T-REASONING-REPLAY). A replayed tool loop sends `store: false`; a
 * reasoning model then needs `include: ['reasoning.encrypted_content']` for its reasoning items to
 * be found again, and the API rejects that include for a model that does not reason (400
 * "Encrypted content is not supported with this model", param `include`: reported for gpt-4o,
 * gpt-4o-mini, gpt-4.1-mini and gpt-5-chat-latest). A name in neither list is not guessed at.
 */

/** Models that reason (snapshots `-YYYY-MM-DD` included). */
export const REASONING_MODELS: readonly RegExp[] = [
  /^o1(?:-pro)?(?:-\d{4}-\d{2}-\d{2})?$/,
  /^o3(?:-mini|-pro|-deep-research)?(?:-\d{4}-\d{2}-\d{2})?$/,
  /^o4-mini(?:-deep-research)?(?:-\d{4}-\d{2}-\d{2})?$/,
  /^gpt-5(?:\.\d+)?(?:-mini|-nano|-pro|-codex(?:-mini|-max)?)?(?:-\d{4}-\d{2}-\d{2})?$/,
  /^codex-mini-latest$/,
];

/** Models that do not reason. */
export const NON_REASONING_MODELS: readonly RegExp[] = [
  /^gpt-3\.5-turbo/,
  /^gpt-4(?:$|-|o|\.1)/,
  /^chatgpt-4o-latest$/,
  /^gpt-5(?:\.\d+)?-chat-latest$/,
];

export type ModelFamily = 'reasoning' | 'non-reasoning' | 'unknown';

/** The family of a model name; a fine-tuned model (`ft:<base>:<org>:…`) is its base's. */
export function modelFamily(name: string): ModelFamily {
  const base = name.startsWith('ft:') ? name.split(':')[1] ?? '' : name;
  if (REASONING_MODELS.some((p) => p.test(base))) return 'reasoning';
  if (NON_REASONING_MODELS.some((p) => p.test(base))) return 'non-reasoning';
  return 'unknown';
}
