/** Rule examples from the registry as whole modules (shared by the README generator and its test). */
import type { RuleExample } from '../../lib/rules/registry.js';

export function exampleModule(example: RuleExample, side: 'before' | 'after'): string {
  const imports = side === 'before' ? example.importsBefore : example.importsAfter ?? example.importsBefore;
  const body = side === 'before' ? example.before : example.after;
  return [
    "import OpenAI from 'openai';",
    ...(imports ? [imports] : []),
    '',
    'const client = new OpenAI();',
    ...(example.context ? [example.context] : []),
    '',
    'export async function example(q: string) {',
    ...body.split('\n').map((l) => (l ? `  ${l}` : l)),
    '}',
    '',
  ].join('\n');
}
