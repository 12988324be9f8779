import { MODELS, openai } from '../lib/openai.js';
import { REPLY_GUIDELINES, renderTicketForPrompt } from './prompts.js';
import type { Ticket } from './types.js';

/**
 * "Suggest three replies" button. One request, three samples.
 *
 * The seed keeps the suggestions stable when the agent re-opens the ticket, and the stop
 * sequence cuts the model off before it invents an e-mail signature.
 */
export async function draftReplyVariants(ticket: Ticket): Promise<string[]> {
  const completion = await openai.chat.completions.create({
    model: MODELS.smart,
    n: 3,
    temperature: 0.9,
    seed: 7,
    stop: ['\n-- \n'],
    max_tokens: 400,
    messages: [
      { role: 'system', content: REPLY_GUIDELINES },
      { role: 'user', content: renderTicketForPrompt(ticket) },
    ],
  });

  return completion.choices
    .map((choice) => choice.message.content?.trim() ?? '')
    .filter((text) => text.length > 0);
}
