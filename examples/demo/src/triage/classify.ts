import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';

import { MODELS, openai } from '../lib/openai.js';
import { TRIAGE_INSTRUCTIONS, renderTicketForPrompt } from '../tickets/prompts.js';
import type { Ticket } from '../tickets/types.js';

export const TicketTriage = z.object({
  category: z.enum(['billing', 'login', 'bug', 'feature_request', 'shipping', 'other']),
  priority: z.enum(['low', 'normal', 'high', 'urgent']),
  needsHuman: z.boolean(),
  /** One sentence, shown to the agent as "why this priority". */
  reason: z.string(),
});
export type TicketTriage = z.infer<typeof TicketTriage>;

/** Runs on every new ticket before it enters a queue. */
export async function classifyTicket(ticket: Ticket): Promise<TicketTriage> {
  const completion = await openai.chat.completions.parse({
    model: MODELS.fast,
    temperature: 0,
    messages: [
      { role: 'system', content: TRIAGE_INSTRUCTIONS },
      { role: 'user', content: renderTicketForPrompt(ticket) },
    ],
    response_format: zodResponseFormat(TicketTriage, 'ticket_triage'),
  });

  const triage = completion.choices[0]?.message.parsed;
  if (!triage) {
    throw new Error(`Triage returned no result for ticket ${ticket.id}`);
  }
  return triage;
}
