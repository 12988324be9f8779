import type OpenAI from 'openai';

export type Tone = 'friendly' | 'formal' | 'neutral';

const TONE_GUIDES: Record<Tone, string> = {
  friendly: 'Rewrite the text in a warm, friendly tone. Keep every fact, link and number.',
  formal: 'Rewrite the text in a formal, courteous tone. Keep every fact, link and number.',
  neutral: 'Rewrite the text in a neutral, matter-of-fact tone. Keep every fact, link and number.',
};

/**
 * Rewrites a draft in the requested tone.
 *
 * The caller passes the client (and a model it serves) because the caller knows where the
 * text may be sent: customer-facing drafts go to OpenAI, anything that may quote internal
 * notes stays on the internal gateway.
 */
export async function rewriteInTone(client: OpenAI, model: string, text: string, tone: Tone): Promise<string> {
  const completion = await client.chat.completions.create({
    model,
    temperature: 0.3,
    messages: [
      { role: 'system', content: TONE_GUIDES[tone] },
      { role: 'user', content: text },
    ],
  });

  // Never lose the draft: fall back to the original text if the rewrite came back empty.
  return completion.choices[0]?.message?.content || text;
}
