import type { Ticket } from './types.js';

export const REPLY_GUIDELINES = [
  'You draft replies for Acme Desk support agents.',
  'Be concise and specific, never promise refunds or dates, and end with one clear next step.',
  'Do not add a signature: the help desk appends the agent signature itself.',
].join(' ');

export const TRIAGE_INSTRUCTIONS =
  'Classify the support ticket. Use "urgent" only for outages, security issues or payment failures ' +
  'affecting several users. Set needsHuman when the customer is angry or asks for a person.';

/** The ticket as the models see it. Keep this stable: prompts and evals depend on the layout. */
export function renderTicketForPrompt(ticket: Ticket): string {
  const lines = [`Ticket ${ticket.id}`, `From: ${ticket.customerEmail}`, `Subject: ${ticket.subject}`];
  if (ticket.language) lines.push(`Language: ${ticket.language}`);
  return `${lines.join('\n')}\n\n${ticket.body}`;
}
