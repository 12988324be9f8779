import { MODELS, openai } from '../lib/openai.js';
import { REPLY_GUIDELINES, renderTicketForPrompt } from './prompts.js';
import type { Ticket } from './types.js';

export interface ReplyDraft {
  text: string;
  /** The model hit the length limit; the UI shows the draft with a warning instead of "Send". */
  truncated: boolean;
}

export async function draftReply(ticket: Ticket): Promise<ReplyDraft> {
  const completion = await openai.chat.completions.create({
    model: MODELS.smart,
    max_tokens: 600,
    temperature: 0.4,
    messages: [
      { role: 'system', content: REPLY_GUIDELINES },
      { role: 'user', content: renderTicketForPrompt(ticket) },
    ],
  });

  const text = completion.choices[0]?.message?.content ?? '';
  // A reply cut off mid-sentence must never go out as-is.
  const truncated = completion.choices[0]?.finish_reason === 'length';

  return { text, truncated };
}
