import OpenAI from 'openai';

/**
 * The one OpenAI client for the support-desk backend. It reads OPENAI_API_KEY (and, like every
 * SDK client, OPENAI_BASE_URL) from the environment, so modules should import it rather than
 * construct their own.
 *
 * @example
 * import { openai, MODELS } from '../lib/openai.js';
 *
 * const completion = await openai.chat.completions.create({
 *   model: MODELS.fast,
 *   messages: [{ role: 'user', content: 'Say hello to the new agent.' }],
 * });
 */
export const openai = new OpenAI();

/** Model aliases, so a model upgrade is a one-line change. */
export const MODELS = {
  /** Cheap and quick: summaries, titles, classification. */
  fast: 'gpt-4o-mini',
  /** Customer-facing text and the agents. */
  smart: 'gpt-4.1',
} as const;
