import { openai } from '../lib/openai.js';

/**
 * Help-centre search box autocomplete. Uses the legacy completions endpoint with an
 * instruct model: it is the cheapest way to continue a half-typed query.
 */
export async function completeSearchQuery(prefix: string): Promise<string> {
  const completion = await openai.completions.create({
    model: 'gpt-3.5-turbo-instruct',
    prompt: `Help-centre search query: ${prefix}`,
    max_tokens: 12,
    temperature: 0,
    stop: ['\n'],
  });

  return prefix + (completion.choices[0]?.text ?? '');
}
