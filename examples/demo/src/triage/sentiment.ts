import { MODELS, openai } from '../lib/openai.js';

export interface SentimentScore {
  sentiment: 'positive' | 'neutral' | 'negative' | 'angry';
  /** 0..1, the account team is alerted above 0.7. */
  churnRisk: number;
}

// Hand-written JSON Schema: this predates our use of zod, and the analytics team reads it too.
const sentimentSchema = {
  type: 'object',
  properties: {
    sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative', 'angry'] },
    churnRisk: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['sentiment', 'churnRisk'],
  additionalProperties: false,
};

/** Scores each inbound customer message; feeds the churn-risk alert. */
export async function scoreSentiment(customerMessage: string): Promise<SentimentScore> {
  const completion = await openai.chat.completions.create({
    model: MODELS.fast,
    messages: [
      {
        role: 'user',
        content: `Rate the sentiment and churn risk of this customer message:\n\n${customerMessage}`,
      },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'sentiment_score', schema: sentimentSchema, strict: true },
    },
  });

  return JSON.parse(completion.choices[0]?.message?.content ?? '{}') as SentimentScore;
}
