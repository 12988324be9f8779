import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';

import { MODELS, openai } from '../lib/openai.js';
import { recordUsage } from '../lib/usage.js';
import type { Ticket } from './types.js';

/**
 * Customers write subjects like "help!!" or "question". When a subject is that vague we
 * suggest a better one; the agent can accept it with one click.
 */
export async function suggestTitle(ticket: Ticket): Promise<string> {
  const params: ChatCompletionCreateParamsNonStreaming = {
    model: MODELS.fast,
    temperature: 0,
    messages: [
      {
        role: 'user',
        content: `Write a specific title of at most eight words for this support ticket. Reply with the title only.\n\n${ticket.body}`,
      },
    ],
  };

  const completion = await openai.chat.completions.create(params);

  recordUsage('ticket-title', {
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
  });

  return (completion.choices[0]?.message?.content ?? '').trim().replace(/^"|"$/g, '');
}
