import { AzureOpenAI } from 'openai';

// EU tenants' transcripts are processed in our EU Azure resource only (data-residency
// commitment in the DPA). Endpoint and key come from the EU deployment's environment.
const euAzure = new AzureOpenAI({
  endpoint: process.env.AZURE_OPENAI_ENDPOINT,
  apiKey: process.env.AZURE_OPENAI_API_KEY,
  apiVersion: '2024-10-21',
  deployment: 'gpt-4o-mini-eu',
});

const REDACTION_RULES =
  'Replace every personal name, e-mail address, phone number and postal address in the ' +
  'transcript with [REDACTED]. Change nothing else and do not comment.';

/** Redacts a chat transcript before it is stored for quality review. */
export async function redactTranscript(transcript: string): Promise<string> {
  const completion = await euAzure.chat.completions.create({
    model: 'gpt-4o-mini-eu',
    temperature: 0,
    messages: [
      { role: 'system', content: REDACTION_RULES },
      { role: 'user', content: transcript },
    ],
  });

  const redacted = completion.choices[0]?.message?.content;
  if (!redacted) {
    throw new Error('redaction returned no text; refusing to store the raw transcript');
  }
  return redacted;
}
