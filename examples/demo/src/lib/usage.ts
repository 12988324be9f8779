/**
 * Token accounting per feature. The numbers end up on the "AI cost" dashboard, so every
 * feature that calls a model should report what it used.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

const totals = new Map<string, TokenUsage>();

export function recordUsage(feature: string, usage: TokenUsage): void {
  const current = totals.get(feature) ?? { inputTokens: 0, outputTokens: 0 };
  current.inputTokens += usage.inputTokens;
  current.outputTokens += usage.outputTokens;
  totals.set(feature, current);
}

export function usageSnapshot(): Record<string, TokenUsage> {
  return Object.fromEntries(totals);
}
