import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

import { MODELS, openai } from '../lib/openai.js';
import { findCustomerByEmail, getOrderStatus } from './support-data.js';

const ORDER_AGENT_PROMPT =
  'You answer "where is my order" questions for Acme Desk. Look the customer up first, then ' +
  'check their orders. Only state facts returned by the tools.';

const MAX_TOOL_ROUNDS = 5;

const orderTools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup_customer',
      description: 'Find the customer account for an e-mail address.',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string' } },
        required: ['email'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_order_status',
      description: 'Shipping state, carrier and ETA of one order.',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string', description: 'Order id, e.g. ord_5531' } },
        required: ['orderId'],
      },
    },
  },
];

async function runTool(name: string, args: Record<string, unknown>): Promise<unknown> {
  switch (name) {
    case 'lookup_customer':
      return findCustomerByEmail(String(args.email));
    case 'get_order_status':
      return getOrderStatus(String(args.orderId));
    default:
      return { error: `unknown tool ${name}` };
  }
}

/** "Where is my order?" agent used by the chat widget's order flow. */
export async function answerOrderQuestion(customerEmail: string, question: string): Promise<string> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: ORDER_AGENT_PROMPT },
    { role: 'user', content: `Customer e-mail: ${customerEmail}\n\n${question}` },
  ];

  // Force the account lookup on the first turn so the model never guesses which customer this is.
  let completion = await openai.chat.completions.create({
    model: MODELS.smart,
    messages,
    tools: orderTools,
    tool_choice: { type: 'function', function: { name: 'lookup_customer' } },
  });

  let rounds = 0;
  while (completion.choices[0].message.tool_calls?.length) {
    if (++rounds > MAX_TOOL_ROUNDS) {
      throw new Error('order agent: too many tool rounds');
    }

    const message = completion.choices[0].message;
    messages.push(message);

    for (const toolCall of message.tool_calls ?? []) {
      if (toolCall.type !== 'function') continue;
      const result = await runTool(toolCall.function.name, JSON.parse(toolCall.function.arguments));
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content: JSON.stringify(result) });
    }

    completion = await openai.chat.completions.create({
      model: MODELS.smart,
      messages,
      tools: orderTools,
    });
  }

  return completion.choices[0].message.content ?? '';
}
