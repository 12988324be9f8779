import { rewriteInTone, type Tone } from '../drafts/tone.js';
import { MODELS, openai } from '../lib/openai.js';

const TONES: readonly Tone[] = ['friendly', 'formal', 'neutral'];

/** POST /api/drafts/rewrite — the "Change tone" button in the reply editor. */
export async function handleRewriteDraft(request: Request): Promise<Response> {
  const { text, tone } = (await request.json()) as { text?: string; tone?: string };
  if (!text || !TONES.includes(tone as Tone)) {
    return Response.json({ error: 'text and a valid tone are required' }, { status: 400 });
  }

  // Customer-facing text: OpenAI is fine here.
  const rewritten = await rewriteInTone(openai, MODELS.fast, text, tone as Tone);
  return Response.json({ text: rewritten });
}
