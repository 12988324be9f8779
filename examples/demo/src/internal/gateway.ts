import OpenAI from 'openai';

import { rewriteInTone } from '../drafts/tone.js';

/**
 * Internal agent notes can contain customer PII, so they never leave our network: they go to
 * the self-hosted model behind the platform team's OpenAI-compatible gateway.
 */
export const gateway = new OpenAI({
  apiKey: process.env.LLM_GATEWAY_TOKEN ?? 'not-needed-inside-the-vpc',
  baseURL: 'https://llm-gateway.platform.internal/v1',
  timeout: 20_000,
});

const NOTES_MODEL = 'support-notes-8b';

/** Hand-over summary when a ticket moves between shifts. */
export async function condenseInternalNotes(notes: string[]): Promise<string> {
  const completion = await gateway.chat.completions.create({
    model: NOTES_MODEL,
    temperature: 0.2,
    messages: [
      {
        role: 'user',
        content: `Condense these internal agent notes into a short hand-over for the next shift:\n\n${notes.join('\n---\n')}`,
      },
    ],
  });

  return completion.choices[0]?.message?.content ?? '';
}

/** "Tidy up" button on an internal note. The note may quote the customer, so it stays on the gateway. */
export async function tidyInternalNote(note: string): Promise<string> {
  return rewriteInTone(gateway, NOTES_MODEL, note, 'neutral');
}
