// Public API of the fake OpenAI server used by the equivalence tests (original vs migrated program).
//
// Modules: server.ts (http + routing + recording), chat.ts / responses.ts (per-API handlers),
// model.ts (the deterministic model), sse.ts (SSE framing per API), validate-chat.ts / validate-responses.ts
// (what each API rejects), canonical.ts (the API-neutral request form), errors.ts, handler.ts, util.ts.
export { startFakeOpenAI, type Api, type FakeServer, type RecordedRequest } from './server.js';
export {
  canonicalize,
  type CanonicalFormat,
  type CanonicalItem,
  type CanonicalPart,
  type CanonicalRequest,
  type CanonicalTool,
} from './canonical.js';
export { FAIL_MESSAGE, REFUSAL_TEXT, TRIGGERS, runModel, sampleFromSchema, type ModelOutput } from './model.js';
export { CHAT_ONLY_PARAMS } from './validate-responses.js';
export { RESPONSES_ONLY_PARAMS } from './validate-chat.js';
