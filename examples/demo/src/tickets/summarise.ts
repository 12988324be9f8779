import { MODELS, openai } from '../lib/openai.js';
import type { Ticket } from './types.js';

/** Two-sentence summary shown at the top of the ticket for whoever picks it up. */
export async function summariseTicket(ticket: Ticket): Promise<string> {
  const completion = await openai.chat.completions.create({
    model: MODELS.fast,
    messages: [
      {
        role: 'user',
        content: `Summarise this support ticket in two sentences for the on-call agent.\n\nSubject: ${ticket.subject}\n\n${ticket.body}`,
      },
    ],
  });

  return completion.choices[0]?.message?.content ?? '';
}
