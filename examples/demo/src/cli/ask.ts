/**
 * Internal CLI for support staff:
 *
 *   npm run ask -- "How do I reset 2FA for an SSO user?"
 *
 * Streams the answer to the terminal as it is generated.
 */
import { MODELS, openai } from '../lib/openai.js';
import { KB_ANSWER_STYLE } from '../kb/prompts.js';

async function main(): Promise<void> {
  const question = process.argv.slice(2).join(' ').trim();
  if (!question) {
    console.error('usage: npm run ask -- "<question>"');
    process.exitCode = 2;
    return;
  }

  const stream = await openai.chat.completions.create({
    model: MODELS.smart,
    stream: true,
    messages: [
      { role: 'system', content: KB_ANSWER_STYLE },
      { role: 'user', content: question },
    ],
  });

  for await (const chunk of stream) {
    process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
  }
  process.stdout.write('\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
