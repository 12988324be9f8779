// Canned-response macros from the old help-desk integration. Still CommonJS: the macro worker
// (`npm run macros`) predates the ESM migration and is loaded with require().
'use strict';

const { OpenAI: Api } = require('openai');

const api = new Api({ apiKey: process.env.OPENAI_API_KEY, maxRetries: 4 });

/**
 * Expands a macro name such as "refund_delay" into one paragraph in the agent's language.
 *
 * @param {string} macro
 * @param {string} language
 * @returns {Promise<string>}
 */
async function expandMacro(macro, language) {
  const completion = await api.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      {
        role: 'user',
        content: `Expand the support macro "${macro}" into one friendly paragraph written in ${language}.`,
      },
    ],
  });

  return completion.choices[0].message.content ?? '';
}

module.exports = { expandMacro };

if (require.main === module) {
  expandMacro(process.argv[2] || 'refund_delay', process.argv[3] || 'English').then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
