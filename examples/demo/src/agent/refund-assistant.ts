import { zodFunction } from 'openai/helpers/zod';
import { z } from 'zod';

import { MODELS, openai } from '../lib/openai.js';
import { renderTicketForPrompt } from '../tickets/prompts.js';
import type { Ticket } from '../tickets/types.js';
import { getRefundEligibility, queueRefundForApproval } from './support-data.js';

const REFUND_POLICY =
  'You prepare refunds for human approval. Check eligibility first. Never queue more than the ' +
  'eligible maximum. Finish with a one-paragraph note for the approving manager.';

const RefundEligibilityArgs = z.object({ orderId: z.string() });
const QueueRefundArgs = z.object({
  orderId: z.string(),
  amountCents: z.number().int().positive(),
  reason: z.string(),
});

/** Prepares a refund for manager approval; the SDK's tool runner drives the loop. */
export async function prepareRefund(ticket: Ticket): Promise<string> {
  const runner = openai.chat.completions.runTools({
    model: MODELS.smart,
    messages: [
      { role: 'system', content: REFUND_POLICY },
      { role: 'user', content: renderTicketForPrompt(ticket) },
    ],
    tools: [
      zodFunction({
        name: 'get_refund_eligibility',
        description: 'Whether an order can be refunded, and the maximum amount in cents.',
        parameters: RefundEligibilityArgs,
        function: ({ orderId }) => getRefundEligibility(orderId),
      }),
      zodFunction({
        name: 'queue_refund',
        description: 'Queue a refund for manager approval.',
        parameters: QueueRefundArgs,
        function: (refund) => queueRefundForApproval(ticket.id, refund),
      }),
    ],
  });

  return (await runner.finalContent()) ?? '';
}
