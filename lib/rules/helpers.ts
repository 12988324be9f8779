/** SDK helper renames (docs/migration-spec.md §6, H-ZODFORMAT, H-ZODFUNCTION, H-STANDARD) as data. */

import type { RuleId } from './ids.js';

export interface HelperRename {
  module: string;
  from: string;
  to: string;
  rule: RuleId;
  /** Where the helper's result goes: a response format or a tool definition. */
  role: 'format' | 'tool';
}

export const HELPER_RENAMES: readonly HelperRename[] = [
  { module: 'openai/helpers/zod', from: 'zodResponseFormat', to: 'zodTextFormat', rule: 'H-ZODFORMAT', role: 'format' },
  { module: 'openai/helpers/zod', from: 'zodFunction', to: 'zodResponsesFunction', rule: 'H-ZODFUNCTION', role: 'tool' },
  { module: 'openai/helpers/standard-schema', from: 'standardResponseFormat', to: 'standardTextFormat', rule: 'H-STANDARD', role: 'format' },
  { module: 'openai/helpers/standard-schema', from: 'standardFunction', to: 'standardResponsesFunction', rule: 'H-STANDARD', role: 'tool' },
];

export function helperRename(module: string, name: string): HelperRename | undefined {
  return HELPER_RENAMES.find((h) => h.module === module && h.from === name);
}
