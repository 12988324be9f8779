import { MODELS, openai } from '../lib/openai.js';
import { WIDGET_PERSONA } from '../kb/prompts.js';

interface ChatRequestBody {
  question: string;
  locale?: string;
}

/**
 * POST /api/chat/stream — the help-centre widget's live answer.
 *
 * The widget reads this body with `ChatCompletionStream.fromReadableStream(res.body)`, so the
 * SDK stream is forwarded untouched (newline-delimited chunks).
 */
export async function handleChatStream(request: Request): Promise<Response> {
  const { question, locale = 'en' } = (await request.json()) as ChatRequestBody;
  if (!question?.trim()) {
    return new Response('question is required', { status: 400 });
  }

  try {
    const stream = await openai.chat.completions.create({
      model: MODELS.fast,
      stream: true,
      messages: [
        { role: 'system', content: `${WIDGET_PERSONA} Answer in the language with code "${locale}".` },
        { role: 'user', content: question },
      ],
    });

    return new Response(stream.toReadableStream(), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (err) {
    // Shows up in the on-call dashboard; keep the upstream path in the message for grepping.
    console.error(`[chat-widget] upstream POST /v1/chat/completions failed: ${String(err)}`);
    return new Response('The assistant is unavailable right now.', { status: 502 });
  }
}
