export interface ProbeResult {
  ok: boolean;
  status: number;
  latencyMs: number;
}

/**
 * Synthetic probe for the status page, run every minute by the uptime checker.
 *
 * Deliberately plain `fetch` rather than the SDK: no retries and no SDK timeouts, so the
 * latency we chart is what a single request really costs.
 */
export async function probeChatLatency(signal?: AbortSignal): Promise<ProbeResult> {
  const started = performance.now();
  const res = await fetch('https://api.openai.com/v1/chat/completions', {
    method: 'POST',
    signal,
    headers: {
      authorization: `Bearer ${process.env.OPENAI_API_KEY ?? ''}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
    }),
  });
  const latencyMs = Math.round(performance.now() - started);

  if (!res.ok) {
    return { ok: false, status: res.status, latencyMs };
  }
  const body = (await res.json()) as { choices: Array<{ message: { content: string | null } }> };
  const answer = body.choices[0]?.message.content?.trim().toLowerCase();
  return { ok: answer === 'pong', status: res.status, latencyMs };
}
