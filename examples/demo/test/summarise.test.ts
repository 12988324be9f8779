import { afterEach, describe, expect, it, vi } from 'vitest';

import { openai } from '../src/lib/openai.js';
import { summariseTicket } from '../src/tickets/summarise.js';
import type { Ticket } from '../src/tickets/types.js';

const ticket: Ticket = {
  id: 'T-1042',
  subject: 'cannot log in',
  body: 'Since the password reset yesterday the login page just reloads. Chrome, no extensions.',
  customerEmail: 'dana@example.com',
};

// A recorded Chat Completions response, trimmed to what summariseTicket reads.
const recordedCompletion = {
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_718_000_000,
  model: 'gpt-4o-mini',
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      logprobs: null,
      message: {
        role: 'assistant',
        content: 'Customer cannot log in after a password reset. The login page reloads in Chrome.',
        refusal: null,
      },
    },
  ],
};

describe('summariseTicket', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('returns the model summary', async () => {
    const create = vi.spyOn(openai.chat.completions, 'create').mockResolvedValue(recordedCompletion as any);

    await expect(summariseTicket(ticket)).resolves.toBe(
      'Customer cannot log in after a password reset. The login page reloads in Chrome.',
    );
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ model: 'gpt-4o-mini' }));
  });

  it('returns an empty summary when the model sends no text', async () => {
    const empty = { ...recordedCompletion, choices: [{ ...recordedCompletion.choices[0], message: { role: 'assistant', content: null, refusal: null } }] };
    vi.spyOn(openai.chat.completions, 'create').mockResolvedValue(empty as any);

    await expect(summariseTicket(ticket)).resolves.toBe('');
    expect(openai.chat.completions.create).toHaveBeenCalledTimes(1);
  });
});
