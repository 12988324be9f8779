import type { ChatCompletion } from 'openai/resources/chat/completions';

import { MODELS, openai } from '../lib/openai.js';

/**
 * Public entry point for desk plugins (the marketplace SDK re-exports it).
 *
 * Plugins get the full completion so they can read whatever they need — usage, finish_reason,
 * the message itself. Changing this return type is a breaking change for every plugin.
 */
export async function runPluginPrompt(pluginId: string, prompt: string): Promise<ChatCompletion> {
  return openai.chat.completions.create({
    model: MODELS.fast,
    messages: [{ role: 'user', content: prompt }],
    safety_identifier: `plugin:${pluginId}`,
  });
}
